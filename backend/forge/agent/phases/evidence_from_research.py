"""Turning cited research sources into Evidence records with provenance.

Invariants:
    - Evidence is only ever built from a hit some research call returned; the query and time of
      that call travel with it.
    - Its text is what the recording tool's text quotes from that hit (`core.research.quoted_evidence`:
      checked against the hit's visible text, or marked unchecked for a web page whose text came
      encrypted), else the hit's snippet.
    - Given a `topic` (the problem), a source cited as supporting that is off the topic is recorded
      as contextual (`core.evidence_roles.role_on_topic`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from uuid import UUID

from forge.core.domain_types import ClaimId, Contributor, EvidenceId, EvidenceType
from forge.core.research.evidence_roles import role_on_topic
from forge.core.research.quoted_evidence import quotes_by_source
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Evidence, ResearchHit, ResearchRecord

CITED_SOURCES = (
    "`source` strings copied exactly from results of research calls (a URL or corpus:// id); "
    "never a title, never a source no research call returned."
)
# For the tools whose sources become evidence: where its text comes from (`evidence_for_sources`).
QUOTED_EVIDENCE = (
    ' Quote the sentences you rely on, word for word, in "quotation marks" in your text: each quote becomes '
    "the evidence text of the source it came from."
)


def _latest_hits(state: ForgeState, sources: Iterable[str]) -> list[tuple[ResearchRecord, ResearchHit]]:
    """Each source's hit from the latest research that returned it (and that research), in citing order."""
    found: list[tuple[ResearchRecord, ResearchHit]] = []
    for source in dict.fromkeys(sources):
        for record in reversed(state.research_log):
            hit = next((h for h in record.hits if h.source == source), None)
            if hit:
                found.append((record, hit))
                break
    return found


def evidence_for_sources(
    state: ForgeState,
    sources: Iterable[str],
    evidence_type: EvidenceType,
    new_id: Callable[[], UUID],
    claim_id: ClaimId | None = None,
    topic: str | None = None,
    recorded_text: str = "",
) -> tuple[Evidence, ...]:
    """Evidence for each cited source; its text is what `recorded_text` quotes from that hit, else its snippet."""
    cited = _latest_hits(state, sources)
    quotes = quotes_by_source(recorded_text, [hit for _, hit in cited])
    found: list[Evidence] = []
    for record, hit in cited:
        quoted = quotes.get(hit.source)
        summary = quoted.text if quoted else hit.snippet
        role = evidence_type if topic is None else role_on_topic(evidence_type, f"{hit.title} {summary}", topic)
        found.append(
            Evidence(
                EvidenceId(new_id()),
                hit.source,
                hit.title,
                summary,
                role,
                Contributor.AGENT,
                record.query,
                record.at,
                claim_id,
            )
        )
    return tuple(found)

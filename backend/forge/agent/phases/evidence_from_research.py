"""Turning cited research sources into Evidence records with provenance.

Invariants:
    - Evidence is only ever built from a hit some research call returned; the query and time of
      that call travel with it.
    - Given a `topic` (the problem), a source cited as supporting that is off the topic is recorded
      as contextual (`core.evidence_roles.role_on_topic`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from uuid import UUID

from forge.core.domain_types import ClaimId, Contributor, EvidenceId, EvidenceType
from forge.core.research.evidence_roles import role_on_topic
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Evidence

CITED_SOURCES = (
    "`source` strings copied exactly from results of research calls (a URL or corpus:// id); "
    "never a title, never a source no research call returned."
)


def evidence_for_sources(
    state: ForgeState,
    sources: Iterable[str],
    evidence_type: EvidenceType,
    new_id: Callable[[], UUID],
    claim_id: ClaimId | None = None,
    topic: str | None = None,
) -> tuple[Evidence, ...]:
    found: list[Evidence] = []
    for source in dict.fromkeys(sources):
        for record in reversed(state.research_log):
            hit = next((h for h in record.hits if h.source == source), None)
            if hit:
                found.append(
                    Evidence(
                        EvidenceId(new_id()),
                        hit.source,
                        hit.title,
                        hit.snippet,
                        evidence_type
                        if topic is None
                        else role_on_topic(evidence_type, f"{hit.title} {hit.snippet}", topic),
                        Contributor.AGENT,
                        record.query,
                        record.at,
                        claim_id,
                    )
                )
                break
    return tuple(found)

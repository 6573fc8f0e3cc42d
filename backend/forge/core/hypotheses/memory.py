"""Hypothesis memory (seed 004): claims judged in one session become episodes later sessions retrieve.

Invariants:
    - Episodes are written by `verdict_memory.remember_verdicts` (seed 004 §5, §10: the C rules by
      verdict and by similarity); this module holds their types, the claims a review judged, and retrieval.
    - Retrieval ranks by relevance × C over episodes with C ≥ min_c (seed 004 §4.3), the relevance
      the research corpus ranks by too (`core.research.hybrid_ranking.fused_relevance`: BM25 over
      those episodes' texts fused with the cosine). `similarity` stays the cosine: the §10 bands and
      RECALL_MIN_SIMILARITY read it, never the fused relevance.
    - Vectors of another length (another embedder) are not comparable: similarity 0, never an error;
      re-embedding stored episodes is the migration path when the embedder changes.
    - Pure: vectors are computed by the shell and passed in by text; ids come from `new_id`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NewType
from uuid import UUID

from forge.core.domain_types import ClaimId, SessionId, VerdictType
from forge.core.explore.source_domain_distance import cosine
from forge.core.hypotheses.confidence import RETRIEVAL_MIN_C, EpisodeType, MemoryOutcome
from forge.core.hypotheses.remembered import RECALL_LIMIT, RECALL_MIN_SIMILARITY, RememberedHypothesis
from forge.core.research.hybrid_ranking import fused_relevance
from forge.core.review.inputs import VerdictsReview
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim

HypothesisEpisodeId = NewType("HypothesisEpisodeId", UUID)
Vector = tuple[float, ...]

RATIONALE_CHARS = 240


@dataclass(frozen=True, slots=True)
class UsageEntry:
    """One C change (seed 004 §3.2 usage_history)."""

    at: datetime
    session_id: SessionId
    context: str
    outcome: MemoryOutcome
    c_before: float
    c_after: float
    similarity: float | None = None  # the cosine the rule used (§10.5: logged with every C change)
    rule: str = ""  # the formula applied, e.g. "§10.2 query match: sim > 0.7 → boost 0.10"


@dataclass(frozen=True, slots=True)
class HypothesisEpisode:
    id: HypothesisEpisodeId
    text: str
    vector: Vector
    c: float
    origin_question: str
    origin_session_id: SessionId
    created_at: datetime
    parent_ids: tuple[HypothesisEpisodeId, ...] = ()
    support_claim_ids: tuple[ClaimId, ...] = ()
    contradiction_claim_ids: tuple[ClaimId, ...] = ()
    usage_history: tuple[UsageEntry, ...] = ()
    episode_type: EpisodeType = EpisodeType.HYPOTHESIS
    rationale: str = ""  # a reasoning excerpt from the claim it came from (§4.2's RATIONALE line)

    @property
    def support_count(self) -> int:
        return len(self.support_claim_ids)

    @property
    def contradiction_count(self) -> int:
        return len(self.contradiction_claim_ids)


@dataclass(frozen=True, slots=True)
class JudgedClaim:
    """A claim and the person's verdict on it, with the text a refinement produced (if any)."""

    claim_id: ClaimId
    text: str
    verdict: VerdictType
    refined_text: str | None = None
    rationale: str = ""


@dataclass(frozen=True, slots=True)
class VerdictContext:
    session_id: SessionId
    question: str
    at: datetime


@dataclass(frozen=True, slots=True)
class MemoryQuery:
    """A problem or search text with its vector (the same embedder as the episodes')."""

    text: str
    vector: Vector


@dataclass(frozen=True, slots=True)
class RankedEpisode:
    episode: HypothesisEpisode
    similarity: float  # the cosine (1 without a query)
    score: float  # relevance × C (C alone without a query)


def judged_claims(state: ForgeState, review: VerdictsReview) -> list[JudgedClaim]:
    """The verdicts of a review against the claims they name (read from the state *before* applying it).

    Taken before the review is checked (the review is then applied to that state in place): a verdict
    naming no claim judges nothing here, and the review's own check rejects it."""
    claims = state.current_round_claims
    judged = []
    for v in review.verdicts:
        if not 0 <= v.claim_index < len(claims):
            continue
        claim = claims[v.claim_index]
        refined: str | None = None
        if v.verdict == VerdictType.QUALIFY:
            refined = f"{claim.text} — {v.qualification}" if v.qualification else None
        elif v.verdict == VerdictType.MERGE and v.merge_with_index is not None:
            refined = claims[v.merge_with_index].text if 0 <= v.merge_with_index < len(claims) else None
        judged.append(JudgedClaim(claim.id, claim.text, v.verdict, refined, rationale_of(claim)))
    return judged


def rationale_of(claim: Claim) -> str:
    """The claim's reasoning, shortened for a prompt line: its thesis, else what its checks said."""
    reasons = (claim.thesis_text, claim.falsification_summary or "", claim.novelty_summary or "")
    text = " ".join(next((r for r in reasons if r.strip()), "").split())
    return text if len(text) <= RATIONALE_CHARS else text[: RATIONALE_CHARS - 1].rstrip() + "…"


def texts_to_embed(judged: Sequence[JudgedClaim]) -> list[str]:
    """Every text the update needs a vector for, each once, in first-seen order."""
    texts = [t for j in judged for t in (j.text, j.refined_text) if t]
    return list(dict.fromkeys(texts))


def similarity(a: Vector, b: Vector) -> float:
    """Cosine of two vectors of one embedder; 0 for vectors of different lengths."""
    return cosine(a, b) if len(a) == len(b) else 0.0


def rank_episodes(
    query: MemoryQuery | None,
    episodes: Sequence[HypothesisEpisode],
    *,
    min_c: float = RETRIEVAL_MIN_C,
) -> list[RankedEpisode]:
    """Episodes with C ≥ min_c, best first: fused relevance × C for a query, C alone without one.
    Ties keep the order given (the repository's: oldest first)."""
    kept = [e for e in episodes if e.c >= min_c]
    if query is None:
        return sorted((RankedEpisode(e, 1.0, e.c) for e in kept), key=lambda r: -r.score)
    cosines = {str(e.id): similarity(query.vector, e.vector) for e in kept}
    relevance = fused_relevance(query.text, {str(e.id): e.text for e in kept}, cosines)
    ranked = [RankedEpisode(e, cosines[str(e.id)], relevance[str(e.id)] * e.c) for e in kept]
    return sorted(ranked, key=lambda r: -r.score)


def recall_for_problem(
    query: MemoryQuery, episodes: Sequence[HypothesisEpisode], *, limit: int = RECALL_LIMIT
) -> list[RememberedHypothesis]:
    """What a new session on this problem is offered: the best by fused relevance × C (C ≥
    RETRIEVAL_MIN_C), each with a cosine of at least RECALL_MIN_SIMILARITY to the problem, at most `limit`."""
    ranked = [r for r in rank_episodes(query, episodes) if r.similarity >= RECALL_MIN_SIMILARITY][:limit]
    return [
        RememberedHypothesis(
            str(r.episode.id),
            r.episode.text,
            r.episode.c,
            round(r.similarity, 4),
            r.episode.support_count,
            r.episode.contradiction_count,
            r.episode.origin_question,
            str(r.episode.origin_session_id),
            rationale=r.episode.rationale,
        )
        for r in ranked
    ]

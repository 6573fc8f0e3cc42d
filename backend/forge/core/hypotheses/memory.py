"""Hypothesis memory (seed 004): claims judged in one session become episodes later sessions retrieve.

Invariants:
    - An episode is created when a claim gets a verdict and none of the stored episodes is the same
      hypothesis (cosine ≥ SAME_HYPOTHESIS_SIMILARITY); otherwise the verdict updates that episode, so a
      later session that re-validates or refutes a remembered hypothesis moves its C.
    - A new episode starts at INITIAL_C and then takes its verdict's update, like any other usage:
      accept → support, reject → contradiction, qualify/merge → refinement (seed 004 §5).
    - Refinement: the judged claim's episode is the parent (refined_parent); the child is the qualified
      text (qualify) or the claim it was merged into (merge), with C = max(its own, refined_child(parent))
      and the parent's id among its parents.
    - Every C change appends a UsageEntry (c_before → c_after); episodes are never deleted here.
    - Retrieval ranks by cosine similarity × C over episodes with C ≥ min_c (seed 004 §4.3).
    - Vectors of another length (another embedder) are not comparable: similarity 0, never an error;
      re-embedding stored episodes is the migration path when the embedder changes.
    - Pure: vectors are computed by the shell and passed in by text; ids come from `new_id`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NewType
from uuid import UUID

from forge.core.domain_types import ClaimId, SessionId, VerdictType
from forge.core.explore.source_domain_distance import cosine
from forge.core.hypotheses.confidence import (
    INITIAL_C,
    RETRIEVAL_MIN_C,
    MemoryOutcome,
    contradicted,
    refined_child,
    refined_parent,
    supported,
)
from forge.core.hypotheses.remembered import RECALL_LIMIT, RECALL_MIN_SIMILARITY, RememberedHypothesis
from forge.core.review.inputs import VerdictsReview
from forge.core.session.forge_state import ForgeState

HypothesisEpisodeId = NewType("HypothesisEpisodeId", UUID)
Vector = tuple[float, ...]

SAME_HYPOTHESIS_SIMILARITY = 0.92


@dataclass(frozen=True, slots=True)
class UsageEntry:
    """One C change (seed 004 §3.2 usage_history)."""

    at: datetime
    session_id: SessionId
    context: str
    outcome: MemoryOutcome
    c_before: float
    c_after: float


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


@dataclass(frozen=True, slots=True)
class VerdictContext:
    session_id: SessionId
    question: str
    at: datetime


@dataclass(frozen=True, slots=True)
class RankedEpisode:
    episode: HypothesisEpisode
    similarity: float
    score: float


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
        judged.append(JudgedClaim(claim.id, claim.text, v.verdict, refined))
    return judged


def texts_to_embed(judged: Sequence[JudgedClaim]) -> list[str]:
    """Every text the update needs a vector for, each once, in first-seen order."""
    texts = [t for j in judged for t in (j.text, j.refined_text) if t]
    return list(dict.fromkeys(texts))


def similarity(a: Vector, b: Vector) -> float:
    """Cosine of two vectors of one embedder; 0 for vectors of different lengths."""
    return cosine(a, b) if len(a) == len(b) else 0.0


class _Ledger:
    """The episodes being updated, by id, with the order new ones were made."""

    def __init__(self, stored: Sequence[HypothesisEpisode], context: VerdictContext, new_id: Callable[[], UUID]):
        self.by_id = {e.id: e for e in stored}
        self.changed: dict[HypothesisEpisodeId, HypothesisEpisode] = {}
        self._context = context
        self._new_id = new_id

    def find_or_create(self, text: str, vector: Vector) -> HypothesisEpisode:
        best = max(self.by_id.values(), key=lambda e: similarity(vector, e.vector), default=None)
        if best is not None and similarity(vector, best.vector) >= SAME_HYPOTHESIS_SIMILARITY:
            return best
        ctx = self._context
        made = HypothesisEpisode(
            HypothesisEpisodeId(self._new_id()), text, vector, INITIAL_C, ctx.question, ctx.session_id, ctx.at
        )
        self.put(made)
        return made

    def put(self, episode: HypothesisEpisode) -> None:
        self.by_id[episode.id] = episode
        self.changed[episode.id] = episode

    def moved(self, episode: HypothesisEpisode, c: float, outcome: MemoryOutcome) -> HypothesisEpisode:
        ctx = self._context
        entry = UsageEntry(ctx.at, ctx.session_id, ctx.question, outcome, episode.c, c)
        updated = replace(episode, c=c, usage_history=(*episode.usage_history, entry))
        self.put(updated)
        return updated


def _apply_one(ledger: _Ledger, judged: JudgedClaim, vectors: Mapping[str, Vector]) -> None:
    episode = ledger.find_or_create(judged.text, vectors[judged.text])
    if judged.verdict == VerdictType.ACCEPT:
        linked = replace(episode, support_claim_ids=(*episode.support_claim_ids, judged.claim_id))
        ledger.moved(linked, supported(episode.c), MemoryOutcome.SUPPORTED)
        return
    if judged.verdict == VerdictType.REJECT:
        linked = replace(episode, contradiction_claim_ids=(*episode.contradiction_claim_ids, judged.claim_id))
        ledger.moved(linked, contradicted(episode.c), MemoryOutcome.CONTRADICTED)
        return
    parent = ledger.moved(episode, refined_parent(episode.c), MemoryOutcome.REFINED)
    if judged.refined_text is None:
        return
    child = ledger.find_or_create(judged.refined_text, vectors[judged.refined_text])
    if child.id == parent.id:
        return
    parents = child.parent_ids if parent.id in child.parent_ids else (*child.parent_ids, parent.id)
    inherited = max(child.c, refined_child(parent.c))
    ledger.moved(replace(child, parent_ids=parents), inherited, MemoryOutcome.REFINED)


def remember_verdicts(
    stored: Sequence[HypothesisEpisode],
    judged: Sequence[JudgedClaim],
    vectors: Mapping[str, Vector],
    context: VerdictContext,
    new_id: Callable[[], UUID],
) -> list[HypothesisEpisode]:
    """The episodes created or changed by these verdicts (to upsert), in the order first touched."""
    ledger = _Ledger(stored, context, new_id)
    for j in judged:
        _apply_one(ledger, j, vectors)
    return list(ledger.changed.values())


def rank_episodes(
    query: Vector | None,
    episodes: Sequence[HypothesisEpisode],
    *,
    min_c: float = RETRIEVAL_MIN_C,
) -> list[RankedEpisode]:
    """Episodes with C ≥ min_c, best first: similarity × C for a query, C alone without one.
    Ties keep the order given (the repository's: oldest first)."""
    ranked = []
    for e in episodes:
        if e.c < min_c:
            continue
        match = similarity(query, e.vector) if query is not None else 1.0
        ranked.append(RankedEpisode(e, match, max(0.0, match) * e.c))
    return sorted(ranked, key=lambda r: -r.score)


def recall_for_problem(
    query: Vector, episodes: Sequence[HypothesisEpisode], *, limit: int = RECALL_LIMIT
) -> list[RememberedHypothesis]:
    """What a new session on this problem is offered: the best by similarity × C (C ≥ RETRIEVAL_MIN_C),
    each at least RECALL_MIN_SIMILARITY similar to the problem, at most `limit`."""
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
        )
        for r in ranked
    ]

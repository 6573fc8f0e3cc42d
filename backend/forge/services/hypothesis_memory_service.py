"""HypothesisMemory: writes verdicts into the cross-session memory and answers memory searches.

Invariants:
    - `verdicts_of` reads what a review's verdicts judge from the state *before* the review (a pure
      read, taken before the review is applied to that state in place); `record_verdicts` writes
      it later, inside the caller's unit of work (the review's transaction, under the
      session lock) and never commits: the review and its memory update land together or not at all.
    - Only a VERDICTS review changes memory; other reviews are a no-op.
    - `recall` (a new session's offer, seed 004 §4.3) reads in its own short transaction (never
      inside a write: SQLite must not upgrade a read snapshot) and embeds the problem only when
      something is remembered.
    - Vectors come from the injected Embedder (the shell); the C-value rules and ranking are pure
      (core.confidence, core.hypothesis_memory); ranking is relevance × C, the relevance the research
      corpus's (BM25 over the episodes' texts fused with the cosine).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeGuard
from uuid import UUID

from forge.core.accounts.users import LOCAL_USER_ID, UserId
from forge.core.domain_types import SessionId
from forge.core.hypotheses.confidence import RETRIEVAL_MIN_C
from forge.core.hypotheses.memory import (
    HypothesisEpisodeId,
    JudgedClaim,
    MemoryQuery,
    RankedEpisode,
    Vector,
    VerdictContext,
    judged_claims,
    rank_episodes,
    recall_for_problem,
    texts_to_embed,
)
from forge.core.hypotheses.remembered import RememberedHypothesis
from forge.core.hypotheses.verdict_memory import matched_by_query, remember_verdicts
from forge.core.review.inputs import ReviewInput, VerdictsReview
from forge.core.session.forge_state import ForgeState
from forge.ports import Embedder, UnitOfWork, UnitOfWorkFactory


@dataclass(frozen=True, slots=True)
class MemoryPage:
    items: list[RankedEpisode]
    total: int


def remembers_verdicts(review: ReviewInput) -> TypeGuard[VerdictsReview]:
    """Whether the memory learns anything from this review."""
    return isinstance(review, VerdictsReview) and bool(review.verdicts)


@dataclass(frozen=True, slots=True)
class ReviewVerdicts:
    """What a verdicts review judged, as the state showed it before the review."""

    judged: tuple[JudgedClaim, ...]
    problem: str


class HypothesisMemory:
    def __init__(self, embedder: Embedder, new_id: Callable[[], UUID]) -> None:
        self._embedder = embedder
        self._new_id = new_id

    async def _vectors(self, texts: list[str]) -> dict[str, Vector]:
        vectors = await self._embedder.embed(texts) if texts else []
        return {text: tuple(v) for text, v in zip(texts, vectors, strict=True)}

    @staticmethod
    def verdicts_of(before: ForgeState, review: ReviewInput) -> ReviewVerdicts | None:
        """What `record_verdicts` needs of the state before the review; None when nothing is learnt."""
        if not remembers_verdicts(review):
            return None
        return ReviewVerdicts(tuple(judged_claims(before, review)), before.problem)

    async def record_verdicts(
        self,
        uow: UnitOfWork,
        session_id: SessionId,
        verdicts: ReviewVerdicts,
        at: datetime,
        owner: UserId = LOCAL_USER_ID,
    ) -> int:
        """Apply a review's verdicts to the session owner's memory; returns episodes written."""
        judged = list(verdicts.judged)
        vectors = await self._vectors(texts_to_embed(judged))
        context = VerdictContext(session_id, verdicts.problem, at)
        changed = remember_verdicts(await uow.memory.all(owner=owner), judged, vectors, context, self._new_id)
        await uow.memory.upsert_all(changed, at, owner)
        return len(changed)

    async def recall(
        self, uow_factory: UnitOfWorkFactory, problem: str, owner: UserId = LOCAL_USER_ID
    ) -> list[RememberedHypothesis]:
        """What a new session of `owner` on `problem` is offered: only that person's memory (its own
        short read, before the session is written)."""
        async with uow_factory() as uow:
            episodes = await uow.memory.all(min_c=RETRIEVAL_MIN_C, owner=owner)
        if not episodes:
            return []  # nothing remembered yet: no need to embed the problem
        vector = (await self._vectors([problem]))[problem]
        return recall_for_problem(MemoryQuery(problem, vector), episodes)

    async def note_retrieved(
        self,
        uow: UnitOfWork,
        session_id: SessionId,
        recalled: list[RememberedHypothesis],
        question: str,
        at: datetime,
        owner: UserId = LOCAL_USER_ID,
    ) -> int:
        """The §10.2 query-match update of what `recall` offered a new session, inside the caller's
        unit of work (the session's creation); returns the episodes raised."""
        if not recalled:
            return 0
        similarities = {HypothesisEpisodeId(UUID(h.episode_id)): h.similarity for h in recalled}
        episodes = await uow.memory.all(owner=owner)
        changed = matched_by_query(episodes, similarities, VerdictContext(session_id, question, at))
        await uow.memory.upsert_all(changed, at, owner)
        return len(changed)

    async def search(
        self,
        uow_factory: UnitOfWorkFactory,
        query: str,
        *,
        min_c: float,
        limit: int,
        offset: int,
        owner: UserId = LOCAL_USER_ID,
    ) -> MemoryPage:
        """Fused relevance × C for a query (C alone for an empty one), over the owner's episodes with C ≥ min_c."""
        wanted = MemoryQuery(query, (await self._vectors([query]))[query]) if query.strip() else None
        async with uow_factory() as uow:
            episodes = await uow.memory.all(min_c=min_c, owner=owner)
        ranked = rank_episodes(wanted, episodes, min_c=min_c)
        return MemoryPage(ranked[offset : offset + limit], len(ranked))

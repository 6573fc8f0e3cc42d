"""Hypothesis memory: verdicts become episodes whose C moves; retrieval by similarity × C."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from uuid import UUID

import pytest

from forge.core.domain_types import ClaimId, ClaimType, Phase, SessionId, VerdictType
from forge.core.hypotheses.confidence import (
    INITIAL_C,
    MemoryOutcome,
    contradicted,
    refined_child,
    refined_parent,
    supported,
)
from forge.core.hypotheses.memory import (
    HypothesisEpisode,
    HypothesisEpisodeId,
    JudgedClaim,
    Vector,
    VerdictContext,
    judged_claims,
    rank_episodes,
    remember_verdicts,
    texts_to_embed,
)
from forge.core.review.inputs import ClaimVerdictInput, VerdictsReview
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim

AT = datetime(2026, 11, 23, tzinfo=UTC)
FIRST = VerdictContext(SessionId(UUID(int=1)), "How do we shorten hospital queues?", AT)
SECOND = VerdictContext(SessionId(UUID(int=2)), "How do we shorten clinic waiting?", AT)
# Axis-aligned test vectors: cosine 1 for the same axis, 0 across axes.
VECTORS: dict[str, Vector] = {
    "triage by urgency shortens waits": (1.0, 0.0, 0.0),
    "more beds shorten waits": (0.0, 1.0, 0.0),
    "more beds shorten waits — only with staff": (0.0, 0.0, 1.0),
}


def _ids() -> itertools.count[int]:
    return itertools.count(100)


def _new_id(counter: itertools.count[int]) -> UUID:
    return UUID(int=next(counter))


def _judge(text: str, verdict: VerdictType, n: int = 1, refined: str | None = None) -> JudgedClaim:
    return JudgedClaim(ClaimId(UUID(int=n)), text, verdict, refined)


def _remember(stored: list[HypothesisEpisode], judged: list[JudgedClaim], ctx: VerdictContext = FIRST):
    counter = _ids()
    return remember_verdicts(stored, judged, VECTORS, ctx, lambda: _new_id(counter))


def test_accept_creates_an_episode_at_the_initial_c_then_supports_it() -> None:
    [episode] = _remember([], [_judge("triage by urgency shortens waits", VerdictType.ACCEPT)])
    assert episode.c == pytest.approx(supported(INITIAL_C))
    assert episode.support_count == 1 and episode.contradiction_count == 0
    assert episode.origin_question == FIRST.question
    [entry] = episode.usage_history
    assert (entry.outcome, entry.c_before, entry.c_after) == (MemoryOutcome.SUPPORTED, INITIAL_C, episode.c)


def test_reject_creates_a_contradicted_episode() -> None:
    [episode] = _remember([], [_judge("more beds shorten waits", VerdictType.REJECT)])
    assert episode.c == pytest.approx(contradicted(INITIAL_C))
    assert episode.contradiction_count == 1


def test_a_later_session_updates_the_remembered_episode_instead_of_adding_one() -> None:
    [first] = _remember([], [_judge("triage by urgency shortens waits", VerdictType.ACCEPT)])
    [again] = _remember([first], [_judge("triage by urgency shortens waits", VerdictType.ACCEPT, n=7)], SECOND)
    assert again.id == first.id
    assert again.c == pytest.approx(supported(supported(INITIAL_C)))
    assert [e.session_id for e in again.usage_history] == [FIRST.session_id, SECOND.session_id]
    [refuted] = _remember([again], [_judge("triage by urgency shortens waits", VerdictType.REJECT, n=8)], SECOND)
    assert refuted.c == pytest.approx(contradicted(again.c))
    assert (refuted.support_count, refuted.contradiction_count) == (2, 1)


def test_qualify_refines_the_parent_and_makes_a_child_that_inherits_a_boost() -> None:
    judged = _judge("more beds shorten waits", VerdictType.QUALIFY, refined="more beds shorten waits — only with staff")
    parent, child = _remember([], [judged])
    assert parent.c == pytest.approx(refined_parent(INITIAL_C))
    assert child.c == pytest.approx(refined_child(parent.c))
    assert child.parent_ids == (parent.id,)
    assert child.usage_history[-1].outcome == MemoryOutcome.REFINED


def test_merge_makes_the_merged_into_claim_a_child_of_the_merged_one() -> None:
    judged = _judge("more beds shorten waits", VerdictType.MERGE, refined="triage by urgency shortens waits")
    parent, child = _remember([], [judged])
    assert child.text == "triage by urgency shortens waits" and child.parent_ids == (parent.id,)


def test_judged_claims_reads_texts_from_the_state_before_the_review() -> None:
    claims = [
        Claim(ClaimId(UUID(int=i)), text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE)
        for i, text in enumerate(["A holds", "B holds", "C holds"])
    ]
    state = ForgeState(problem="p", current_round_claims=claims)
    review = VerdictsReview(
        (
            ClaimVerdictInput(0, VerdictType.ACCEPT),
            ClaimVerdictInput(1, VerdictType.QUALIFY, qualification="when D"),
            ClaimVerdictInput(2, VerdictType.MERGE, merge_with_index=0),
        )
    )
    judged = judged_claims(state, review)
    assert [j.refined_text for j in judged] == [None, "B holds — when D", "A holds"]
    assert texts_to_embed(judged) == ["A holds", "B holds", "B holds — when D", "C holds"]


def test_judged_claims_skips_verdicts_naming_no_claim_instead_of_raising() -> None:
    """It is read before the review is checked; the check rejects such a review with a 4xx."""
    claims = [Claim(ClaimId(UUID(int=1)), "A holds", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE)]
    state = ForgeState(problem="p", current_round_claims=claims)
    review = VerdictsReview(
        (
            ClaimVerdictInput(5, VerdictType.ACCEPT),
            ClaimVerdictInput(-1, VerdictType.REJECT),
            ClaimVerdictInput(0, VerdictType.MERGE, merge_with_index=9),
        )
    )
    assert judged_claims(state, review) == [JudgedClaim(claims[0].id, "A holds", VerdictType.MERGE, None)]


def _episode(n: int, vector: Vector, c: float) -> HypothesisEpisode:
    return HypothesisEpisode(HypothesisEpisodeId(UUID(int=n)), f"h{n}", vector, c, "q", FIRST.session_id, AT)


def test_retrieval_ranks_by_similarity_times_c_and_drops_low_c() -> None:
    close_but_doubtful = _episode(1, (1.0, 0.0), 0.25)
    less_close_but_trusted = _episode(2, (0.8, 0.6), 0.9)
    refuted = _episode(3, (1.0, 0.0), 0.1)
    ranked = rank_episodes((1.0, 0.0), [close_but_doubtful, less_close_but_trusted, refuted])
    assert [r.episode.id for r in ranked] == [less_close_but_trusted.id, close_but_doubtful.id]
    assert ranked[0].score == pytest.approx(0.8 * 0.9)


def test_retrieval_without_a_query_ranks_by_c_and_honours_min_c() -> None:
    episodes = [_episode(1, (1.0, 0.0), 0.4), _episode(2, (0.0, 1.0), 0.7)]
    assert [r.episode.c for r in rank_episodes(None, episodes)] == [0.7, 0.4]
    assert [r.episode.c for r in rank_episodes(None, episodes, min_c=0.5)] == [0.7]


def test_vectors_of_another_embedder_are_not_comparable_and_raise_nothing() -> None:
    other = _episode(1, (1.0, 0.0, 0.0, 0.0), 0.9)
    [ranked] = rank_episodes((1.0, 0.0), [other])
    assert ranked.similarity == 0.0 and ranked.score == 0.0

"""Hypothesis memory: the claims a review judged, their rationale, and retrieval by fused relevance × C."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from uuid import UUID

import pytest

from forge.core.domain_types import ClaimId, ClaimType, Phase, SessionId, VerdictType
from forge.core.hypotheses.memory import (
    RATIONALE_CHARS,
    HypothesisEpisode,
    HypothesisEpisodeId,
    JudgedClaim,
    MemoryQuery,
    Vector,
    VerdictContext,
    judged_claims,
    rank_episodes,
    rationale_of,
    texts_to_embed,
)
from forge.core.research.hybrid_ranking import DEFAULT_FUSION
from forge.core.review.inputs import ClaimVerdictInput, VerdictsReview
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim

AT = datetime(2026, 11, 23, tzinfo=UTC)
FIRST = VerdictContext(SessionId(UUID(int=1)), "How do we shorten hospital queues?", AT)


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


def test_the_rationale_is_the_claims_thesis_else_its_checks_shortened_for_one_prompt_line() -> None:
    claim = Claim(ClaimId(UUID(int=1)), "A holds", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE)
    assert rationale_of(claim) == ""
    assert rationale_of(replace(claim, falsification_summary="Survived  a\ncounter-test")) == "Survived a counter-test"
    long = rationale_of(replace(claim, thesis_text="why " * 200, falsification_summary="ignored"))
    assert long.startswith("why why") and long.endswith("…") and len(long) <= RATIONALE_CHARS


def _episode(n: int, vector: Vector, c: float, text: str = "") -> HypothesisEpisode:
    return HypothesisEpisode(HypothesisEpisodeId(UUID(int=n)), text or f"h{n}", vector, c, "q", FIRST.session_id, AT)


MEANING_ONLY = 1.0 - DEFAULT_FUSION.lexical_weight  # the relevance of a cosine-1 episode sharing no word


def test_retrieval_ranks_by_relevance_times_c_and_drops_low_c() -> None:
    close_but_doubtful = _episode(1, (1.0, 0.0), 0.25)
    less_close_but_trusted = _episode(2, (0.8, 0.6), 0.9)
    refuted = _episode(3, (1.0, 0.0), 0.1)
    ranked = rank_episodes(MemoryQuery("queues", (1.0, 0.0)), [close_but_doubtful, less_close_but_trusted, refuted])
    assert [r.episode.id for r in ranked] == [less_close_but_trusted.id, close_but_doubtful.id]
    assert ranked[0].score == pytest.approx(MEANING_ONLY * 0.8 * 0.9)  # no shared word: the cosine's share


def test_a_shared_word_lifts_an_episode_above_one_as_close_in_meaning_only() -> None:
    query = MemoryQuery("shorten hospital queues", (1.0, 0.0))
    unrelated_words = _episode(1, (0.9, 0.44), 0.5, "Triage at the door helps the sickest first")
    shared_words = _episode(2, (0.9, 0.44), 0.5, "Hospital queues shrink with triage at the door")
    ranked = rank_episodes(query, [unrelated_words, shared_words])
    assert [r.episode.id for r in ranked] == [shared_words.id, unrelated_words.id]
    cos = 0.9 / (0.9**2 + 0.44**2) ** 0.5
    assert ranked[0].score == pytest.approx((DEFAULT_FUSION.lexical_weight * 1.0 + MEANING_ONLY * cos) * 0.5)
    assert ranked[1].score == pytest.approx(MEANING_ONLY * cos * 0.5)
    assert ranked[0].similarity == ranked[1].similarity == pytest.approx(cos)  # the cosine, not the relevance


def test_words_alone_do_not_outrank_much_closer_meaning_at_equal_c() -> None:
    query = MemoryQuery("shorten hospital queues", (1.0, 0.0))
    same_words_far_meaning = _episode(1, (0.3, 0.95), 0.5, "Hospital queues")
    close_meaning = _episode(2, (1.0, 0.05), 0.5, "Waiting lines in clinics get shorter with triage")
    assert rank_episodes(query, [same_words_far_meaning, close_meaning])[0].episode.id == close_meaning.id


def test_retrieval_without_a_query_ranks_by_c_and_honours_min_c() -> None:
    episodes = [_episode(1, (1.0, 0.0), 0.4), _episode(2, (0.0, 1.0), 0.7)]
    assert [r.episode.c for r in rank_episodes(None, episodes)] == [0.7, 0.4]
    assert [r.episode.c for r in rank_episodes(None, episodes, min_c=0.5)] == [0.7]


def test_vectors_of_another_embedder_are_not_comparable_and_raise_nothing() -> None:
    other = _episode(1, (1.0, 0.0, 0.0, 0.0), 0.9)
    [ranked] = rank_episodes(MemoryQuery("q", (1.0, 0.0)), [other])
    assert ranked.similarity == 0.0 and ranked.score == 0.0

"""Verdicts into memory (seed 004 §2.2, §5, §10): new episodes at their §10.3 initial C, the verdict's
own update, the same hypothesis moved once per session, related episodes supported or penalised by
band, refinement that never raises the parent, and the query-match boost; every change logged."""

from __future__ import annotations

import itertools
import math
from datetime import UTC, datetime
from uuid import UUID

import pytest

from forge.core.domain_types import ClaimId, SessionId, VerdictType
from forge.core.hypotheses.confidence import (
    INITIAL_C,
    MemoryOutcome,
    contradicted,
    refined_child,
    refined_parent,
    supported,
)
from forge.core.hypotheses.memory import HypothesisEpisode, HypothesisEpisodeId, JudgedClaim, Vector, VerdictContext
from forge.core.hypotheses.similarity_confidence import conflicted, mutually_supported, query_matched
from forge.core.hypotheses.verdict_memory import matched_by_query, remember_verdicts

AT = datetime(2026, 11, 23, tzinfo=UTC)
FIRST = VerdictContext(SessionId(UUID(int=1)), "How do we shorten hospital queues?", AT)
SECOND = VerdictContext(SessionId(UUID(int=2)), "How do we shorten clinic waiting?", AT)


def _at(cosine: float) -> Vector:
    """A unit vector whose cosine with (1, 0, 0) is `cosine`."""
    return (cosine, math.sqrt(1 - cosine * cosine), 0.0)


TRIAGE, BEDS, STAFFED = (
    "triage by urgency shortens waits",
    "more beds shorten waits",
    "more beds shorten waits — only with staff",
)
VECTORS: dict[str, Vector] = {
    TRIAGE: (1.0, 0.0, 0.0),
    BEDS: (0.0, 0.0, 1.0),
    STAFFED: (0.0, 1.0, 0.0),
    "triage by urgency shortens the waits": _at(0.99),  # near-identical: the same hypothesis
    "sorting patients by need cuts waiting": _at(0.85),  # paraphrase
    "urgent cases first helps hospitals": _at(0.65),  # related
    "queues exist everywhere": _at(0.4),  # weak: no interaction
}


def _judge(text: str, verdict: VerdictType, n: int = 1, refined: str | None = None) -> JudgedClaim:
    return JudgedClaim(ClaimId(UUID(int=n)), text, verdict, refined, rationale=f"why {n}")


IDS = itertools.count(100)  # fresh ids across calls: a later call's episodes never reuse an earlier one's


def _remember(stored: list[HypothesisEpisode], judged: list[JudgedClaim], ctx: VerdictContext = FIRST):
    return remember_verdicts(stored, judged, VECTORS, ctx, lambda: UUID(int=next(IDS)))


def test_a_new_episode_is_seen_at_its_initial_c_before_its_verdict_moves_it() -> None:
    [episode] = _remember([], [_judge(TRIAGE, VerdictType.ACCEPT)])
    created, support = episode.usage_history
    assert (created.outcome, created.c_before, created.c_after) == (MemoryOutcome.CREATED, INITIAL_C, INITIAL_C)
    assert created.rule.startswith("§10.3")
    assert (support.outcome, support.c_before, support.c_after) == (MemoryOutcome.SUPPORTED, INITIAL_C, episode.c)
    assert episode.c == pytest.approx(supported(INITIAL_C)) and support.rule.startswith("§2.2 support")
    assert episode.rationale == "why 1" and episode.origin_question == FIRST.question


def test_reject_creates_a_contradicted_episode() -> None:
    [episode] = _remember([], [_judge(BEDS, VerdictType.REJECT)])
    assert episode.c == pytest.approx(contradicted(INITIAL_C)) and episode.contradiction_count == 1


def test_a_later_session_updates_the_remembered_episode_and_a_repeat_in_that_session_does_not() -> None:
    [first] = _remember([], [_judge(TRIAGE, VerdictType.ACCEPT)])
    again = _remember(
        [first],
        [
            _judge(TRIAGE, VerdictType.ACCEPT, n=7),
            _judge("triage by urgency shortens the waits", VerdictType.ACCEPT, n=8),
        ],
        SECOND,
    )
    [episode] = again  # the near-identical claim (0.99) is the same hypothesis: one episode
    assert episode.id == first.id and episode.c == pytest.approx(supported(supported(INITIAL_C)))
    assert [u.outcome for u in episode.usage_history][-2:] == [MemoryOutcome.SUPPORTED, MemoryOutcome.REPEATED]
    assert episode.usage_history[-1].c_after == episode.usage_history[-1].c_before == episode.c
    assert episode.support_count == 2  # the repeat is recorded as usage, not as one more support


def test_initial_c_follows_the_nearest_existing_hypothesis_by_band() -> None:
    [supported_triage] = _remember([], [_judge(TRIAGE, VerdictType.ACCEPT)])
    starts = {
        text: next(e for e in _remember([supported_triage], [_judge(text, VerdictType.QUALIFY, n=5)]) if e.text == text)
        .usage_history[0]
        .c_after
        for text in (
            "sorting patients by need cuts waiting",
            "urgent cases first helps hospitals",
            "queues exist everywhere",
        )
    }
    assert list(starts.values()) == [0.4, 0.35, 0.3]
    rejected_close = _remember(
        [supported_triage], [_judge("sorting patients by need cuts waiting", VerdictType.REJECT, n=6)]
    )
    made = next(e for e in rejected_close if e.id != supported_triage.id)
    assert made.usage_history[0].c_after == 0.15  # it conflicts with the supported hypothesis next to it


def test_an_accept_supports_paraphrases_of_supported_hypotheses_and_leaves_related_and_weak_ones_alone() -> None:
    [triage] = _remember([], [_judge(TRIAGE, VerdictType.ACCEPT)])
    changed = {
        e.text: e
        for e in _remember([triage], [_judge("sorting patients by need cuts waiting", VerdictType.ACCEPT, n=2)])
    }
    boosted = changed[TRIAGE]
    assert boosted.c == pytest.approx(mutually_supported(triage.c, 0.85))
    last = boosted.usage_history[-1]
    assert last.outcome == MemoryOutcome.MUTUAL_SUPPORT and last.similarity == pytest.approx(0.85)
    assert "0.08" in last.rule
    for n, text in enumerate(("urgent cases first helps hospitals", "queues exist everywhere"), start=3):
        untouched = _remember([triage], [_judge(text, VerdictType.ACCEPT, n=n)])
        assert [e.text for e in untouched] == [text]


def test_a_reject_of_a_paraphrase_of_a_supported_hypothesis_penalises_it_by_band_but_of_a_related_one_not() -> None:
    [triage] = _remember([], [_judge(TRIAGE, VerdictType.ACCEPT)])
    paraphrase = _judge("sorting patients by need cuts waiting", VerdictType.REJECT, n=2)
    penalised = next(e for e in _remember([triage], [paraphrase]) if e.text == TRIAGE)
    assert penalised.c == pytest.approx(conflicted(triage.c, 0.85))
    assert penalised.usage_history[-1].outcome == MemoryOutcome.CONFLICT and "0.3" in penalised.usage_history[-1].rule
    alternative = _remember([triage], [_judge("urgent cases first helps hospitals", VerdictType.REJECT, n=3)])
    assert [e.text for e in alternative] == ["urgent cases first helps hospitals"]  # 0.65: another answer


def test_qualify_lowers_the_parent_without_raising_it_and_the_child_inherits_a_boost() -> None:
    judged = _judge(BEDS, VerdictType.QUALIFY, refined=STAFFED)
    parent, child = _remember([], [judged])
    assert parent.c == pytest.approx(refined_parent(INITIAL_C))
    assert child.c == pytest.approx(refined_child(parent.c)) and child.parent_ids == (parent.id,)
    assert child.usage_history[-1].outcome == MemoryOutcome.REFINED and child.rationale == ""
    [low] = _remember([], [_judge(BEDS, VerdictType.REJECT)])
    [refined_low, _] = _remember([low], [_judge(BEDS, VerdictType.QUALIFY, n=2, refined=STAFFED)], SECOND)
    assert refined_low.c == low.c  # below the 0.3 floor: the seed's max(0.3, c·0.9) would have raised it


def test_merge_makes_the_merged_into_claim_a_child_of_the_merged_one() -> None:
    parent, child = _remember([], [_judge(BEDS, VerdictType.MERGE, refined=TRIAGE)])
    assert child.text == TRIAGE and child.parent_ids == (parent.id,)


def _episode(n: int, c: float) -> HypothesisEpisode:
    return HypothesisEpisode(HypothesisEpisodeId(UUID(int=n)), f"h{n}", (1.0, 0.0), c, "q", FIRST.session_id, AT)


def test_a_question_that_retrieves_an_episode_raises_it_by_band_once_per_session() -> None:
    close, related, unseen = _episode(1, 0.4), _episode(2, 0.4), _episode(3, 0.4)
    sims = {close.id: 0.93, related.id: 0.6}
    raised = matched_by_query([close, related, unseen], sims, SECOND)
    assert [e.c for e in raised] == [pytest.approx(query_matched(0.4, 0.93)), pytest.approx(query_matched(0.4, 0.6))]
    assert (
        raised[0].usage_history[-1].outcome == MemoryOutcome.QUERY_MATCH
        and raised[0].usage_history[-1].similarity == 0.93
    )
    assert matched_by_query(raised, sims, SECOND) == []

"""Per-arm summaries: means, 95% bootstrap intervals (deterministic), cost and time; the pairwise tally."""

from __future__ import annotations

from forge.core.evaluation.records import Arm, ItemResult, PairwiseResult, Preference
from forge.core.evaluation.summary import bootstrap_interval, summarize, tally


def _result(item: str, arm: Arm, score: float | None, cost: float = 0.01) -> ItemResult:
    return ItemResult(item, arm, score, "", cost, 2.0, "m")


def test_the_interval_of_a_constant_sample_is_that_constant() -> None:
    assert bootstrap_interval([0.5] * 10, seed=1) == (0.5, 0.5)


def test_the_interval_holds_the_mean_and_is_the_same_for_the_same_seed() -> None:
    scores = [0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0]
    low, high = bootstrap_interval(scores, seed=7)
    assert low < sum(scores) / len(scores) < high
    assert bootstrap_interval(scores, seed=7) == (low, high)


def test_an_empty_sample_has_a_zero_interval() -> None:
    assert bootstrap_interval([], seed=0) == (0.0, 0.0)


def test_an_arm_without_an_answer_counts_as_the_lowest_score_and_is_counted_as_failed() -> None:
    results = [_result("1", Arm.ENGINE, 1.0), _result("2", Arm.ENGINE, None), _result("1", Arm.DIRECT, 0.0)]
    engine, direct = summarize(results, (Arm.ENGINE, Arm.DIRECT), seed=0)
    assert (engine.n, engine.mean, engine.failed) == (2, 0.5, 1)
    assert (direct.n, direct.mean, direct.failed) == (1, 0.0, 0)
    assert engine.cost_usd == 0.02 and engine.seconds == 4.0


def test_the_tally_counts_wins_and_ties() -> None:
    def pair(winner: Arm | None) -> PairwiseResult:
        return PairwiseResult("x", Preference.A, Preference.B, winner, "", 0.0)

    counted = tally([pair(Arm.ENGINE), pair(None), pair(None), pair(Arm.DIRECT)])
    assert (counted.engine_wins, counted.ties, counted.direct_wins) == (1, 2, 1)

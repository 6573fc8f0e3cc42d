"""Per-arm summaries with 95% bootstrap intervals, and the pairwise tally.

Invariants:
    - Deterministic: the bootstrap's resamples come from a `random.Random(seed)`; the same results and
      seed give the same interval.
    - A result without a score (the arm gave no answer) counts as the suite's lowest score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.evaluation.records import Arm, ItemResult, PairwiseResult

RESAMPLES = 2000


@dataclass(frozen=True, slots=True)
class ArmSummary:
    arm: Arm
    n: int
    mean: float
    low: float  # 95% bootstrap interval of the mean
    high: float
    cost_usd: float
    seconds: float
    failed: int


@dataclass(frozen=True, slots=True)
class PairwiseTally:
    engine_wins: int
    ties: int
    direct_wins: int


def bootstrap_interval(scores: Sequence[float], seed: int, level: float = 0.95) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean (`RESAMPLES` resamples with replacement)."""
    if not scores:
        return (0.0, 0.0)
    rng = random.Random(seed)
    n = len(scores)
    means = sorted(sum(rng.choices(scores, k=n)) / n for _ in range(RESAMPLES))
    tail = (1.0 - level) / 2
    return (means[int(tail * (RESAMPLES - 1))], means[int((1 - tail) * (RESAMPLES - 1))])


def summarize(results: Sequence[ItemResult], arms: Sequence[Arm], seed: int, lowest: float = 0.0) -> list[ArmSummary]:
    summaries: list[ArmSummary] = []
    for arm in arms:
        mine = [r for r in results if r.arm == arm]
        scores = [r.score if r.score is not None else lowest for r in mine]
        low, high = bootstrap_interval(scores, seed)
        summaries.append(
            ArmSummary(
                arm,
                len(mine),
                sum(scores) / len(scores) if scores else 0.0,
                low,
                high,
                sum(r.cost_usd for r in mine),
                sum(r.seconds for r in mine),
                sum(1 for r in mine if r.score is None),
            )
        )
    return summaries


def tally(pairwise: Sequence[PairwiseResult]) -> PairwiseTally:
    return PairwiseTally(
        sum(1 for p in pairwise if p.winner == Arm.ENGINE),
        sum(1 for p in pairwise if p.winner is None),
        sum(1 for p in pairwise if p.winner == Arm.DIRECT),
    )

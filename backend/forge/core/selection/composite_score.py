"""The five-dimension score of a hypothesis and the two selection axes (seed 000 §4.3.2, §8.2).

Invariants:
    - Every dimension lies in [0, 10]; `ScoreVector` refuses anything else.
    - `composite_score` is the weighted sum with the seed's weights (divergence .21, testability
      .26, rationale .21, robustness .17, feasibility .15; they sum to 1), so it lies in [0, 10].
    - The selection axes are in [0, 1]: novelty = divergence / 10, feasibility = the mean of the
      other four / 10 (both maximised). SAGA's ADJUST_WEIGHTS reaches both: the composite uses the
      supervisor's weights, and the feasibility axis weighs its four dimensions by how far the
      supervisor moved each from the seed's weight (unchanged weights give the plain mean).
    - `novelty_weight` is the novelty-conditional weight wN = wn_min + (wn_max − wn_min)·(1 − n)^γ:
      a low-novelty hypothesis is scored mostly on novelty (pushing search toward innovation), a
      high-novelty one mostly on feasibility. `conditional_scalar` = wN·n + (1 − wN)·f is the
      tie-break inside a Pareto front (see pareto_selection).
    - `grounded_composite` adds `structural_grounding_score` (HKG, 0..10) as the optional sixth
      dimension of §4.3.2: (composite + w·grounding) / (1 + w) with w = STRUCTURAL_GROUNDING_WEIGHT,
      still in [0, 10]; a hypothesis never grounded keeps its composite, one grounded at 0 (no
      structural evidence chain) is pulled down (§7.4: grounding penalises the ungrounded).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

COMPOSITE_WEIGHTS: dict[str, float] = {
    "divergence": 0.21,
    "testability": 0.26,
    "rationale": 0.21,
    "robustness": 0.17,
    "feasibility": 0.15,
}
STRUCTURAL_GROUNDING_WEIGHT = 0.15
WN_MIN = 0.3
WN_MAX = 0.7
WN_GAMMA = 2.0


@dataclass(frozen=True, slots=True)
class ScoreVector:
    divergence: float  # semantic distance from known methods
    testability: float  # can it become testable signals
    rationale: float  # does the causal mechanism hold
    robustness: float  # low overfitting risk
    feasibility: float  # data availability

    def __post_init__(self) -> None:
        for name in COMPOSITE_WEIGHTS:
            value = getattr(self, name)
            if not 0.0 <= value <= 10.0:
                raise ValueError(f"{name} must lie in [0, 10], got {value}")


@dataclass(frozen=True, slots=True)
class SelectionPoint:
    """A hypothesis on the two selection axes, both in [0, 1] and maximised."""

    novelty: float
    feasibility: float


def composite_score(scores: ScoreVector, weights: Mapping[str, float] | None = None) -> float:
    """The weighted sum with `weights` (the seed's when None; SAGA's ADJUST_WEIGHTS otherwise),
    normalised by their total so the score stays in [0, 10]."""
    if weights is None:
        return sum(weight * float(getattr(scores, name)) for name, weight in COMPOSITE_WEIGHTS.items())
    total = sum(weights.get(name, 0.0) for name in COMPOSITE_WEIGHTS)
    if total <= 0:
        return composite_score(scores)
    return sum(weights.get(name, 0.0) * float(getattr(scores, name)) for name in COMPOSITE_WEIGHTS) / total


def grounded_composite(
    scores: ScoreVector, structural_grounding: float | None, weights: Mapping[str, float] | None = None
) -> float:
    base = composite_score(scores, weights)
    if structural_grounding is None:
        return base
    grounding = min(10.0, max(0.0, structural_grounding))
    return (base + STRUCTURAL_GROUNDING_WEIGHT * grounding) / (1.0 + STRUCTURAL_GROUNDING_WEIGHT)


FEASIBILITY_DIMENSIONS = ("testability", "rationale", "robustness", "feasibility")


def selection_point(scores: ScoreVector, weights: Mapping[str, float] | None = None) -> SelectionPoint:
    """Novelty = divergence / 10; feasibility = the mean of the other four / 10. With `weights`
    (SAGA's ADJUST_WEIGHTS), each of the four counts in proportion to weights[d] / COMPOSITE_WEIGHTS[d]
    — how far the supervisor moved it from the seed's weight — so the seed's weights give the mean."""
    if weights is None:
        rest = (scores.testability + scores.rationale + scores.robustness + scores.feasibility) / 4
        return SelectionPoint(scores.divergence / 10, rest / 10)
    factors = {d: max(0.0, weights.get(d, COMPOSITE_WEIGHTS[d])) / COMPOSITE_WEIGHTS[d] for d in FEASIBILITY_DIMENSIONS}
    total = sum(factors.values())
    if total <= 0:
        return selection_point(scores)
    rest = sum(factor * float(getattr(scores, d)) for d, factor in factors.items()) / total
    return SelectionPoint(scores.divergence / 10, rest / 10)


def novelty_weight(novelty: float, wn_min: float = WN_MIN, wn_max: float = WN_MAX, gamma: float = WN_GAMMA) -> float:
    clipped = min(1.0, max(0.0, novelty))
    return wn_min + (wn_max - wn_min) * float((1.0 - clipped) ** gamma)


def conditional_scalar(point: SelectionPoint) -> float:
    weight = novelty_weight(point.novelty)
    return weight * point.novelty + (1.0 - weight) * point.feasibility

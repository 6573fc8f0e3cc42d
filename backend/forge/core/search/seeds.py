"""Which hypotheses a SEARCH round expands (seed 000 §4.2.6, §8): the mapping-quality gate prunes,
then MOME (default), NSGA-II or the composite score picks `count` seeds.

Invariants:
    - Only hypotheses whose mapping gate passed are eligible; the others are counted as pruned and
      never expanded (poorly mapped ideas leave the search tree).
    - MOME takes seeds sparse-cell-first from the per-cell fronts; when the fronts hold fewer than
      `count`, the rest come in NSGA-II order over all eligible hypotheses (no seed twice).
    - The composite method ranks by the composite with structural grounding where a hypothesis has
      one (`grounded_composite`).
    - Seeds come back best first; ties resolve by pool order, so the selection is deterministic.
    - SAGA's ADJUST_WEIGHTS (`weights`) reaches every method: the composite is weighted with them and
      the feasibility axis of Pareto/MOME weighs its dimensions by them (composite_score).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, Hypothesis, HypothesisId
from forge.core.hypotheses.scores import SEARCH_GRID, describe_behavior, score_pool
from forge.core.selection.composite_score import grounded_composite, selection_point
from forge.core.selection.mome_grid import build_mome_grid, select_mome
from forge.core.selection.pareto import select_pareto


class SelectionMethod(str, Enum):
    MOME = "mome"
    PARETO = "pareto"
    COMPOSITE = "composite"


@dataclass(frozen=True, slots=True)
class SeedSelection:
    seeds: tuple[HypothesisId, ...]
    method: SelectionMethod
    eligible: int
    pruned: int  # failed the mapping gate
    coverage_ratio: float | None  # MOME only


def select_search_seeds(
    pool: Sequence[Hypothesis],
    frame: ProblemFrame,
    count: int,
    method: SelectionMethod = SelectionMethod.MOME,
    weights: Mapping[str, float] | None = None,
) -> SeedSelection:
    """`weights`: the supervisor's composite weights after ADJUST_WEIGHTS (None: the seed's)."""
    eligible = [h for h in pool if h.gate.status is GateStatus.PASSED]
    scores = score_pool(eligible, frame)  # novelty relative to the other eligible hypotheses too
    points = [selection_point(s, weights) for s in scores]
    coverage: float | None = None
    if method is SelectionMethod.COMPOSITE:
        composites = [
            grounded_composite(s, h.structural_grounding, weights) for s, h in zip(scores, eligible, strict=True)
        ]
        order = sorted(range(len(eligible)), key=lambda i: (-composites[i], i))[:count]
    elif method is SelectionMethod.PARETO:
        order = select_pareto(points, count)
    else:
        grid = build_mome_grid(points, [describe_behavior(h) for h in eligible], SEARCH_GRID)
        coverage = grid.coverage_ratio
        order = select_mome(grid, count)
        order += [i for i in select_pareto(points, len(points)) if i not in order][: max(0, count - len(order))]
    seeds = tuple(eligible[i].id for i in order)
    return SeedSelection(seeds, method, len(eligible), len(pool) - len(eligible), coverage)


def pool_coverage(pool: Sequence[Hypothesis], frame: ProblemFrame, weights: Mapping[str, float] | None = None) -> float:
    """The MOME grid's coverage of the gate-passed pool (the C-K plateau signal: a SEARCH round whose
    children fill no new cell adds nothing to it)."""
    eligible = [h for h in pool if h.gate.status is GateStatus.PASSED]
    points = [selection_point(s, weights) for s in score_pool(eligible, frame)]
    return build_mome_grid(points, [describe_behavior(h) for h in eligible], SEARCH_GRID).coverage_ratio

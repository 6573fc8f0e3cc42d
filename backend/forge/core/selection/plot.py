"""What the claims review plots (seed 000 §8): every gated hypothesis of the pool on the novelty ×
feasibility plane with its NSGA-II front and crowding distance, and the MOME grid's cells with how
many hypotheses landed in each and how many its capacity-limited front keeps.

Invariants:
    - Pure; the same scores, ranking and grid as SEARCH selection (`hypothesis_scores`,
      `composite_score.selection_point`, `pareto_selection.rank_points`, `mome_grid`), so the plot
      shows exactly what selection saw. Hypotheses that failed the mapping gate are counted, not plotted.
    - A point's `seed` is true when the latest SEARCH round expanded it (`ForgeState.search.seeds`).
    - Crowding distance is infinite at a front's ends; it is sent as null (JSON has no infinity).
    - Every grid cell is listed (empty ones with zeros), rows by mechanism family, columns by data
      granularity, in the grid's axis order.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.judged_scores import pool_scores
from forge.core.hypotheses.pool import GateStatus, Hypothesis, HypothesisId
from forge.core.hypotheses.scores import SEARCH_GRID, describe_behavior
from forge.core.selection.composite_score import ScoreVector, composite_score, selection_point
from forge.core.selection.mome_grid import DEFAULT_CELL_CAPACITY, build_mome_grid
from forge.core.selection.pareto import rank_points


@dataclass(frozen=True, slots=True)
class PlotPoint:
    id: HypothesisId
    title: str
    domain_name: str
    operator: str
    novelty: float  # 0..1
    feasibility: float  # 0..1
    composite: float  # 0..10
    rank: int  # 0 = the Pareto front
    crowding: float | None  # None = infinite (a front's end)
    mechanism_family: str
    data_granularity: str
    in_cell_front: bool
    seed: bool


@dataclass(frozen=True, slots=True)
class GridCell:
    mechanism_family: str
    data_granularity: str
    explored: int
    kept: int


@dataclass(frozen=True, slots=True)
class SelectionPlot:
    points: tuple[PlotPoint, ...]
    pruned: int
    mechanism_families: tuple[str, ...]
    data_granularities: tuple[str, ...]
    cells: tuple[GridCell, ...]
    capacity: int
    coverage_ratio: float


def selection_plot(
    pool: Sequence[Hypothesis],
    frame: ProblemFrame,
    seeds: Collection[HypothesisId] = (),
    weights: Mapping[str, float] | None = None,
    judged: Mapping[str, ScoreVector] | None = None,
) -> SelectionPlot:
    """`weights`: SAGA's composite weights when ADJUST_WEIGHTS changed them (the axes SEARCH used);
    `judged`: the verifier's scores by hypothesis id (word rules for the others)."""
    eligible = [h for h in pool if h.gate.status is GateStatus.PASSED]
    scores = pool_scores(eligible, frame, judged)  # the scores SEARCH selected on
    points = [selection_point(s, weights) for s in scores]
    descriptors = [describe_behavior(h) for h in eligible]
    ranking = rank_points([(p.novelty, p.feasibility) for p in points])
    grid = build_mome_grid(points, descriptors, SEARCH_GRID, DEFAULT_CELL_CAPACITY)
    kept = {i for cell in grid.cells for i in cell.front}
    by_cell = {cell.descriptor: cell for cell in grid.cells}
    plotted = tuple(
        PlotPoint(
            h.id,
            h.title,
            h.domain_name,
            h.operator,
            round(points[i].novelty, 4),
            round(points[i].feasibility, 4),
            round(composite_score(scores[i]), 3),
            ranking.ranks[i],
            None if math.isinf(ranking.crowding[i]) else round(ranking.crowding[i], 4),
            descriptors[i].mechanism_family,
            descriptors[i].data_granularity,
            i in kept,
            h.id in seeds,
        )
        for i, h in enumerate(eligible)
    )
    cells = tuple(
        GridCell(
            d.mechanism_family,
            d.data_granularity,
            by_cell[d].explored if d in by_cell else 0,
            len(by_cell[d].front) if d in by_cell else 0,
        )
        for d in SEARCH_GRID.cells
    )
    return SelectionPlot(
        plotted,
        len(pool) - len(eligible),
        SEARCH_GRID.mechanism_families,
        SEARCH_GRID.data_granularities,
        cells,
        grid.capacity,
        round(grid.coverage_ratio, 4),
    )

"""MOME — multi-objective MAP-Elites (seed 000 §8.3): a grid over mechanism_family ×
data_granularity where every cell keeps its own capacity-limited Pareto front, and selection takes
seeds from the sparsest cells first.

Invariants:
    - A point whose descriptor is outside the grid's axes is refused (ValueError), never dropped.
    - A cell's front is the non-dominated set of the points that landed in it; when it holds more
      than `capacity` points, the ones with the largest crowding distance stay (ties: lower index).
      Points of different cells never compete.
    - `explored` counts every point that landed in a cell, kept or not: "sparse" means least
      explored, so a cell seen once is seeded before a cell seen ten times.
    - `select_mome` goes round-robin over the filled cells in order (explored ↑, cell order ↑),
      taking each cell's next-best front member (crowding ↓, conditional scalar ↓, index ↑) until
      `count` are chosen or every front is exhausted.
    - `coverage_ratio` = filled cells / all cells (the C-K knowledge-expansion signal, §5.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from forge.core.selection.composite_score import SelectionPoint
from forge.core.selection.pareto import IntArray, PairArray, as_pair_array, conditional_scalars, segment_crowding

DEFAULT_CELL_CAPACITY = 3


@dataclass(frozen=True, slots=True)
class BehaviorDescriptor:
    mechanism_family: str
    data_granularity: str


@dataclass(frozen=True, slots=True)
class GridAxes:
    mechanism_families: tuple[str, ...]
    data_granularities: tuple[str, ...]

    @property
    def cells(self) -> tuple[BehaviorDescriptor, ...]:
        return tuple(BehaviorDescriptor(f, g) for f in self.mechanism_families for g in self.data_granularities)


@dataclass(frozen=True, slots=True)
class MomeCell:
    descriptor: BehaviorDescriptor
    front: tuple[int, ...]  # point indices kept, best first
    explored: int  # how many points landed here


@dataclass(frozen=True, slots=True)
class MomeGrid:
    axes: GridAxes
    capacity: int
    cells: tuple[MomeCell, ...]  # filled cells only, in the axes' order

    @property
    def coverage_ratio(self) -> float:
        total = len(self.axes.mechanism_families) * len(self.axes.data_granularities)
        return len(self.cells) / total if total else 0.0


def build_mome_grid(
    points: Sequence[SelectionPoint],
    descriptors: Sequence[BehaviorDescriptor],
    axes: GridAxes,
    capacity: int = DEFAULT_CELL_CAPACITY,
) -> MomeGrid:
    if capacity < 1:
        raise ValueError("a MOME cell holds at least one point")
    if len(points) != len(descriptors):
        raise ValueError("one descriptor per point")
    cell_of = {cell: number for number, cell in enumerate(axes.cells)}
    try:
        cells = np.fromiter((cell_of[d] for d in descriptors), dtype=np.int64, count=len(descriptors))
    except KeyError as missing:
        raise ValueError(f"descriptor {missing.args[0]} is outside the grid's axes") from None
    pairs = as_pair_array([(p.novelty, p.feasibility) for p in points])
    kept = _cell_fronts(pairs, cells, capacity)
    explored = np.bincount(cells, minlength=len(axes.cells)).tolist()
    return MomeGrid(
        axes,
        capacity,
        tuple(MomeCell(cell, kept[n], explored[n]) for n, cell in enumerate(axes.cells) if explored[n]),
    )


def _cell_fronts(pairs: PairArray, cells: IntArray, capacity: int) -> dict[int, tuple[int, ...]]:
    """Per cell, its non-dominated points, best first (crowding ↓, scalar ↓, index ↑), at most `capacity`."""
    count = len(pairs)
    if count == 0:
        return {}
    index = np.arange(count)
    # Cell ↑, then novelty ↓, feasibility ↓: a point is in its cell's front unless an earlier point of
    # the cell beats it on (feasibility, novelty) lexicographically — identical points do not.
    order = np.lexsort((-pairs[:, 1], -pairs[:, 0], cells))
    by_key = np.lexsort((-pairs[:, 0], -pairs[:, 1]))
    ordered = pairs[by_key]
    fresh = np.r_[True, (ordered[1:] != ordered[:-1]).any(axis=1)]
    key = np.empty(count, dtype=np.int64)
    key[by_key] = np.cumsum(fresh)
    # Later cells get lower values, so a running minimum never carries across a cell boundary.
    shifted = key[order] - cells[order] * (count + 1)
    front = np.sort(order[shifted == np.minimum.accumulate(shifted)])
    crowding = segment_crowding(pairs[front], cells[front])
    best = np.lexsort((index[front], -conditional_scalars(pairs[front]), -crowding, cells[front]))
    kept: dict[int, list[int]] = {}
    for cell, point in zip(cells[front][best].tolist(), front[best].tolist(), strict=True):
        members = kept.setdefault(cell, [])
        if len(members) < capacity:
            members.append(point)
    return {cell: tuple(members) for cell, members in kept.items()}


def select_mome(grid: MomeGrid, count: int) -> list[int]:
    order = sorted(range(len(grid.cells)), key=lambda c: (grid.cells[c].explored, c))
    queues = [list(grid.cells[c].front) for c in order]
    chosen: list[int] = []
    while len(chosen) < count and any(queues):
        for queue in queues:
            if queue and len(chosen) < count:
                chosen.append(queue.pop(0))
    return chosen

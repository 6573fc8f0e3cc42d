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

from forge.core.composite_score import SelectionPoint, conditional_scalar
from forge.core.pareto_selection import crowding_distances, non_dominated_ranks

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
    members: dict[BehaviorDescriptor, list[int]] = {cell: [] for cell in axes.cells}
    for index, descriptor in enumerate(descriptors):
        if descriptor not in members:
            raise ValueError(f"descriptor {descriptor} is outside the grid's axes")
        members[descriptor].append(index)
    cells = tuple(
        MomeCell(cell, _cell_front(points, indices, capacity), len(indices))
        for cell, indices in members.items()
        if indices
    )
    return MomeGrid(axes, capacity, cells)


def _cell_front(points: Sequence[SelectionPoint], indices: Sequence[int], capacity: int) -> tuple[int, ...]:
    pairs = [(points[i].novelty, points[i].feasibility) for i in indices]
    ranks = non_dominated_ranks(pairs)
    front = [local for local, rank in enumerate(ranks) if rank == 0]
    crowding = crowding_distances(pairs, front)
    best = sorted(front, key=lambda local: (-crowding[local], -conditional_scalar(points[indices[local]]), local))
    return tuple(indices[local] for local in best[:capacity])


def select_mome(grid: MomeGrid, count: int) -> list[int]:
    order = sorted(range(len(grid.cells)), key=lambda c: (grid.cells[c].explored, c))
    queues = [list(grid.cells[c].front) for c in order]
    chosen: list[int] = []
    while len(chosen) < count and any(queues):
        for queue in queues:
            if queue and len(chosen) < count:
                chosen.append(queue.pop(0))
    return chosen

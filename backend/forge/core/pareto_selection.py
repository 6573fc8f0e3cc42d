"""NSGA-II selection on novelty × feasibility (seed 000 §8.2): non-dominated sorting into fronts
F0, F1, …, crowding distance inside each front, then selection by (rank ↑, crowding ↓).

Design: both objectives are maximised and there are exactly two, so the sort is the O(N log N)
two-objective method (sort by novelty descending, then place each point in the first front whose
last point does not dominate it, found by binary search) instead of Deb's O(M·N²) pairwise sort.
It returns the same fronts; the tests check it against a brute-force dominance check.

Invariants:
    - a dominates b ⇔ a ≥ b on both axes and a > b on at least one. Identical points never
      dominate each other and share a rank (as moocore's `pareto_rank` does).
    - `ranks[i]` is the index of point i's front; a front is returned in ascending point index.
    - Crowding distance: the two extremes of each objective in a front get +inf; an inner point
      gets Σ over objectives of (next − previous) / (max − min) along that objective; an objective
      with max = min adds nothing. A front of one or two points is all +inf.
    - `select_pareto` is deterministic: ties after (rank, crowding) go to the higher novelty-
      conditional scalar, then to the lower index.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.composite_score import SelectionPoint, conditional_scalar

Pair = tuple[float, float]


@dataclass(frozen=True, slots=True)
class ParetoRanking:
    ranks: tuple[int, ...]  # per point, its front (0 = non-dominated)
    fronts: tuple[tuple[int, ...], ...]  # point indices per front, ascending
    crowding: tuple[float, ...]  # per point, its crowding distance inside its front


def dominates(a: Pair, b: Pair) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and (a[0] > b[0] or a[1] > b[1])


def non_dominated_ranks(points: Sequence[Pair]) -> list[int]:
    """The front index of every point (two maximised objectives)."""
    # (f1, f2) descending; identical points may come in any order, they share a front anyway.
    order = sorted(range(len(points)), key=points.__getitem__, reverse=True)
    # Per front, the key (-f2, -f1) of its most recently placed point. Points arrive with f1 falling,
    # so front m's last point dominates p exactly when (f2, f1) of it > (f2, f1) of p, i.e. when its
    # key < p's key; the keys ascend across fronts, so the first front that takes p is a bisection.
    last_keys: list[Pair] = []
    ranks = [0] * len(points)
    for i in order:
        first, second = points[i]
        key = (-second, -first)
        front = bisect_left(last_keys, key)
        if front == len(last_keys):
            last_keys.append(key)
        else:
            last_keys[front] = key
        ranks[i] = front
    return ranks


def crowding_distances(points: Sequence[Pair], front: Sequence[int]) -> dict[int, float]:
    distance = dict.fromkeys(front, 0.0)
    if len(front) <= 2:
        return dict.fromkeys(front, math.inf)
    for axis in (0, 1):
        ordered = sorted(front, key=lambda i: (points[i][axis], i))
        low, high = points[ordered[0]][axis], points[ordered[-1]][axis]
        distance[ordered[0]] = distance[ordered[-1]] = math.inf
        if high == low:
            continue
        for before, current, after in zip(ordered, ordered[1:], ordered[2:], strict=False):
            distance[current] += (points[after][axis] - points[before][axis]) / (high - low)
    return distance


def rank_points(points: Sequence[Pair]) -> ParetoRanking:
    ranks = non_dominated_ranks(points)
    fronts: list[list[int]] = [[] for _ in range(max(ranks, default=-1) + 1)]
    for index, rank in enumerate(ranks):
        fronts[rank].append(index)
    crowding = [0.0] * len(points)
    for front in fronts:
        for index, value in crowding_distances(points, front).items():
            crowding[index] = value
    return ParetoRanking(tuple(ranks), tuple(tuple(f) for f in fronts), tuple(crowding))


def select_pareto(points: Sequence[SelectionPoint], count: int) -> list[int]:
    """The indices of the `count` best points by (rank ↑, crowding ↓, conditional scalar ↓, index ↑)."""
    pairs = [(p.novelty, p.feasibility) for p in points]
    ranking = rank_points(pairs)
    order = sorted(
        range(len(points)),
        key=lambda i: (ranking.ranks[i], -ranking.crowding[i], -conditional_scalar(points[i]), i),
    )
    return order[: max(0, count)]

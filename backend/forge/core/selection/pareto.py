"""NSGA-II selection on novelty × feasibility (seed 000 §8.2): non-dominated sorting into fronts
F0, F1, …, crowding distance inside each front, then selection by (rank ↑, crowding ↓).

Design: both objectives are maximised and there are exactly two, so the sort is an O(N log N)
two-objective method instead of Deb's O(M·N²) pairwise sort. It is moocore's `pareto_rank`
(Jensen's algorithm, in C): the issue asked us to use it where it beats what we write, and it
does — our own numpy + patience-sorting version (kept in bench/bench_selection.py as
`python_front_ranks`) measured 2.4× moocore at N = 1,000 timed side by side in one interpreter,
because its one sequential step is a Python loop per distinct point. moocore is a pure function
of the array (no IO), LGPL-2.1-or-later, used as a library. Crowding distance is ours, in numpy:
one lexsort per objective by (front, value, index) and neighbour differences inside each front's
segment. The tests check the ranks against a brute-force dominance check on random points with
ties, duplicates and infinities.

Invariants:
    - a dominates b ⇔ a ≥ b on both axes and a > b on at least one. Identical points never
      dominate each other and share a rank (as moocore's `pareto_rank` does).
    - Objectives must be real numbers (NaN is refused with ValueError: it dominates nothing and
      nothing dominates it, so it has no honest front).
    - `ranks[i]` is the index of point i's front; a front is returned in ascending point index.
    - Crowding distance: the two extremes of each objective in a front get +inf (ties between
      equal values go to the lower index); an inner point gets Σ over objectives of
      (next − previous) / (max − min) along that objective; an objective with max = min adds
      nothing. A front of one or two points is all +inf.
    - `select_pareto` is deterministic: ties after (rank, crowding) go to the higher novelty-
      conditional scalar, then to the lower index.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import moocore
import numpy as np
import numpy.typing as npt

from forge.core.selection.composite_score import WN_GAMMA, WN_MAX, WN_MIN, SelectionPoint

Pair = tuple[float, float]
PairArray = npt.NDArray[np.float64]  # shape (N, 2): novelty, feasibility
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class ParetoRanking:
    ranks: tuple[int, ...]  # per point, its front (0 = non-dominated)
    fronts: tuple[tuple[int, ...], ...]  # point indices per front, ascending
    crowding: tuple[float, ...]  # per point, its crowding distance inside its front


def dominates(a: Pair, b: Pair) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and (a[0] > b[0] or a[1] > b[1])


def as_pair_array(points: Sequence[Pair] | PairArray) -> PairArray:
    """The points as an (N, 2) float array; refuses NaN."""
    if isinstance(points, np.ndarray):
        array = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    else:  # a list of pairs: fromiter over the flattened values is several times faster than np.asarray
        flat = np.fromiter(chain.from_iterable(points), dtype=np.float64, count=2 * len(points))
        array = flat.reshape(-1, 2)
    if np.isnan(array).any():
        raise ValueError("a selection objective is NaN")
    return array


def front_ranks(points: PairArray) -> IntArray:
    """The front index of every row of an (N, 2) array (two maximised objectives)."""
    if len(points) == 0:
        return np.zeros(0, dtype=np.int64)
    ranks: IntArray = moocore.pareto_rank(points, maximise=True).astype(np.int64, copy=False)
    return ranks


def non_dominated_ranks(points: Sequence[Pair] | PairArray) -> list[int]:
    """The front index of every point (two maximised objectives)."""
    ranks: list[int] = front_ranks(as_pair_array(points)).tolist()
    return ranks


def segment_crowding(points: PairArray, segments: IntArray) -> FloatArray:
    """Crowding distance of every point inside its segment (a front, or a MOME cell's front)."""
    count = len(points)
    distance = np.zeros(count, dtype=np.float64)
    if count == 0:
        return distance
    index = np.arange(count)
    for axis in (0, 1):
        order = np.lexsort((index, points[:, axis], segments))
        values = points[order, axis]
        labels = segments[order]
        starts = np.flatnonzero(np.r_[True, labels[1:] != labels[:-1]])
        ends = np.r_[starts[1:] - 1, count - 1]
        sizes = ends - starts + 1
        span = np.repeat(values[ends] - values[starts], sizes)
        inner = np.ones(count, dtype=bool)
        inner[starts] = inner[ends] = False
        gap = np.zeros(count, dtype=np.float64)
        gap[1:-1] = values[2:] - values[:-2]
        usable = inner & (span > 0)
        add = np.zeros(count, dtype=np.float64)
        add[usable] = gap[usable] / span[usable]
        add[~inner] = np.inf
        distance[order] += add
    return distance


def crowding_distances(points: Sequence[Pair], front: Sequence[int]) -> dict[int, float]:
    """Crowding distance of the points of one front, by point index."""
    if not front:
        return {}
    members = as_pair_array([points[i] for i in front])
    distance = segment_crowding(members, np.zeros(len(front), dtype=np.int64))
    return {i: float(d) for i, d in zip(front, distance.tolist(), strict=True)}


def rank_points(points: Sequence[Pair] | PairArray) -> ParetoRanking:
    array = as_pair_array(points)
    ranks = front_ranks(array)
    crowding = segment_crowding(array, ranks)
    order = np.argsort(ranks, kind="stable")
    sizes = np.bincount(ranks) if len(ranks) else np.zeros(0, dtype=np.int64)
    members = order.tolist()
    fronts, start = [], 0
    for size in sizes.tolist():
        fronts.append(tuple(members[start : start + size]))
        start += size
    return ParetoRanking(tuple(ranks.tolist()), tuple(fronts), tuple(crowding.tolist()))


def conditional_scalars(points: PairArray) -> FloatArray:
    """`composite_score.conditional_scalar` of every row, vectorised (the in-front tie-break)."""
    novelty, feasibility = points[:, 0], points[:, 1]
    weight = WN_MIN + (WN_MAX - WN_MIN) * (1.0 - np.clip(novelty, 0.0, 1.0)) ** WN_GAMMA
    scalars: FloatArray = weight * novelty + (1.0 - weight) * feasibility
    return scalars


def select_pareto(points: Sequence[SelectionPoint], count: int) -> list[int]:
    """The indices of the `count` best points by (rank ↑, crowding ↓, conditional scalar ↓, index ↑)."""
    if not points or count <= 0:
        return []
    array = as_pair_array([(p.novelty, p.feasibility) for p in points])
    ranks = front_ranks(array)
    crowding = segment_crowding(array, ranks)
    order = np.lexsort((np.arange(len(points)), -conditional_scalars(array), -crowding, ranks))
    chosen: list[int] = order[:count].tolist()
    return chosen

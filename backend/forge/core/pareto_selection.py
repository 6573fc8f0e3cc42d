"""NSGA-II selection on novelty × feasibility (seed 000 §8.2): non-dominated sorting into fronts
F0, F1, …, crowding distance inside each front, then selection by (rank ↑, crowding ↓).

Design: both objectives are maximised and there are exactly two, so the sort is the O(N log N)
two-objective method instead of Deb's O(M·N²) pairwise sort, with everything but its one
sequential step in numpy:
    1. numpy collapses identical points (one sort of the pairs as complex numbers, which order
       lexicographically: novelty, then feasibility) — duplicates share a front, so only distinct
       points enter step 2;
    2. the distinct points arrive with novelty falling (feasibility falling on ties); front m's
       most recently placed point dominates the next point p exactly when its feasibility ≥ p's,
       and those last feasibilities rise across fronts, so p's front is one `bisect_right` over
       them (patience sorting; the only Python loop, one C bisect per distinct point);
    3. crowding distances of every front at once: one lexsort per objective by (front, value,
       index) and neighbour differences inside each front's segment.
It returns the same fronts as the definition; the tests check it against a brute-force dominance
check on random points with ties and duplicates.

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

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import numpy.typing as npt

from forge.core.composite_score import WN_GAMMA, WN_MAX, WN_MIN, SelectionPoint

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
    complex_points = np.empty(len(points), dtype=np.complex128)
    complex_points.real = points[:, 0]
    complex_points.imag = points[:, 1]
    distinct, back = np.unique(complex_points, return_inverse=True)  # ascending (novelty, feasibility)
    # Distinct points, novelty falling: a front's last point dominates p ⇔ its −feasibility ≤ p's.
    keys = (-distinct.imag[::-1]).tolist()
    last_keys = [math.inf]  # the fronts' last keys, then a sentinel: a new front is one more slot
    fronts: list[int] = []
    record, count = fronts.append, 0
    for key in keys:
        front = bisect_right(last_keys, key)
        last_keys[front] = key
        if front == count:
            last_keys.append(math.inf)
            count += 1
        record(front)
    fronts.reverse()
    return np.asarray(fronts, dtype=np.int64)[back.reshape(-1)]


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

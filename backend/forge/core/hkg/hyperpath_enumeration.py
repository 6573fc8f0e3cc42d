"""Enumerate the hyperpaths of one exact length L in lexicographic order, pruned by the BFS balls.

Works on the walk index (shared_subset_index), where consecutive hyperedges share a member.

A hyperpath e1..eL (see k_shortest_hyperpaths) must satisfy, at every position i, conditions that
depend only on e_i: e1 is the only hyperedge holding a start node, eL the only one holding an end
node, and — since e_i..eL is a walk to the end hyperedges — db(e_i) <= L − i + 1. The depth-first
search only steps onto hyperedges that pass the test for their position, so it rarely wanders off.

Invariants:
    - Exact: every pruning test is a necessary condition, and each step re-checks adjacency and that
      the hyperedge is not already on the path; so the search yields exactly the valid hyperpaths of
      length L, ascending by hyperedge sequence (candidates are tried in ascending order at every
      depth), stopping after `wanted`.
    - The backward labels db are exact up to the backward radius R_b. Positions i > a, with
      a = max(0, L − R_b), use db directly (an unlabelled hyperedge has db > R_b >= L − i + 1).
    - Positions i <= a lie in the forward ball (df(e_i) <= i <= R_f because R_f + R_b >= L). There a
      hyperedge is admissible only if it shares a member with some admissible hyperedge of position
      i + 1 ("reach" sets, computed from position a down to 1).
    - Work bound: a search steps onto at most `budget` partial paths (MAX_EXPANDED_PATHS for one
      query, shared by its lengths) and then stops with what it found, `cut` set. Pruning bounds
      the depth, not the breadth: between hub nodes (hyperedges of thousands of members) the valid
      partial paths multiply at every step, and one trace took 35-56 s. A cut search's paths are
      still valid hyperpaths, ascending, but not necessarily the first ones of their length.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from forge.core.hkg.hyperpath_search_balls import BallPair
from forge.core.hkg.incidence_index import EMPTY_POSITIONS, IncidenceIndex, Mask, PositionArray

HOLDS_START, HOLDS_END = 1, 2
# Partial paths one query may step onto: ~0.4 s of adjacency calls (~35 µs each on the demo
# hypergraph). The 1,000 random queries of bench_hkg (160k nodes, k = 3, max_len = 6) step onto at
# most 16; a traversal of the offline session from six reliability nodes to "emergency" ran 56 s
# without the bound (it found one path of length <= 6).
MAX_EXPANDED_PATHS = 10_000


@dataclass(frozen=True, slots=True)
class EndClasses:
    """Per hyperedge position: HOLDS_START | HOLDS_END bits (0 = an inner hyperedge)."""

    bits: npt.NDArray[np.int8]

    def required(self, position: int, length: int) -> int:
        """The exact bits a hyperedge must have at `position` of a length-`length` hyperpath."""
        return (HOLDS_START if position == 1 else 0) | (HOLDS_END if position == length else 0)


class RoundRules:
    """Which hyperedges may stand at each position of a length-L hyperpath."""

    def __init__(self, index: IncidenceIndex, balls: BallPair, ends: EndClasses, length: int) -> None:
        self._index = index
        self._backward = balls.backward
        self._ends = ends
        self._length = length
        self.split = max(0, length - balls.backward.radius)
        self._reach_bits = np.zeros(index.edge_count if self.split else 0, dtype=np.uint16)
        self._build_reach_sets(balls)

    def admissible(self, candidates: PositionArray, position: int) -> Mask:
        if position <= self.split:
            reachable: Mask = (self._reach_bits[candidates] & np.uint16(1 << (position - 1))) != 0
            return reachable
        levels = self._backward.edge_level[candidates]
        return (levels >= 1) & (levels <= self._length - position + 1) & self._ends_ok(candidates, position)

    def _ends_ok(self, candidates: PositionArray, position: int) -> Mask:
        ok: Mask = self._ends.bits[candidates] == self._ends.required(position, self._length)
        return ok

    def _suffix_set(self, position: int) -> PositionArray:
        levels = self._backward.levels[: self._length - position + 1]
        edges = np.concatenate(levels) if levels else EMPTY_POSITIONS
        return edges[self.admissible(edges, position)]

    def _build_reach_sets(self, balls: BallPair) -> None:
        """Bit i−1 of `_reach_bits[e]` says e may stand at position i <= split (one array for all i)."""
        if self.split == 0:
            return
        following = self._suffix_set(self.split + 1) if self.split < self._length else None
        levels = balls.forward.levels[: self.split]
        forward_edges = np.concatenate(levels) if levels else EMPTY_POSITIONS
        near = np.zeros(self._index.node_count, dtype=np.bool_)
        for position in range(self.split, 0, -1):
            edges = forward_edges[balls.forward.edge_level[forward_edges] <= position]
            edges = edges[self._ends_ok(edges, position)]
            if following is not None:
                members = self._index.members(following)
                near[members] = True
                edges = edges[self._index.edges_touching(edges, near)]
                near[members] = False
            self._reach_bits[edges] |= np.uint16(1 << (position - 1))
            following = edges


@dataclass(frozen=True, slots=True)
class LengthEnumeration:
    """The hyperpaths one length gave, the partial paths it stepped onto, and whether it hit the bound."""

    paths: tuple[tuple[int, ...], ...]
    expanded: int
    cut: bool


def enumerate_length(
    index: IncidenceIndex,
    rules: RoundRules,
    first: PositionArray,
    length: int,
    wanted: int,
    budget: int = MAX_EXPANDED_PATHS,
) -> LengthEnumeration:
    """Up to `wanted` hyperpaths of exactly `length`, ascending; `first` = ascending start hyperedges.
    Stops, `cut`, once `budget` partial paths were stepped onto with the search not finished."""
    found: list[tuple[int, ...]] = []
    stack = [first[rules.admissible(first, 1)]]
    cursors = [0]
    path: list[int] = []
    expanded = 0
    while stack and len(found) < wanted:
        if cursors[-1] == len(stack[-1]):
            stack.pop()
            cursors.pop()
            if path:
                path.pop()
            continue
        edge = int(stack[-1][cursors[-1]])
        if edge in path:
            cursors[-1] += 1
            continue
        if expanded == budget:
            return LengthEnumeration(tuple(found), expanded, cut=True)
        cursors[-1] += 1
        expanded += 1
        path.append(edge)
        if len(path) == length:
            found.append(tuple(path))
            path.pop()
            continue
        stack.append(index.adjacent_edges(edge, partial(rules.admissible, position=len(path) + 1)))
        cursors.append(0)
    return LengthEnumeration(tuple(found), expanded, cut=False)

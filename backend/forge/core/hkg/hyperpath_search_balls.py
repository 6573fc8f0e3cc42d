"""Two breadth-first balls, around the start and the end hyperedges, that grow until they meet.

The balls run on a walk index (see shared_subset_index): there, consecutive hyperedges of a walk
share a member, whatever the IS. Seen as the bipartite incidence graph (members and hyperedges), a
ball grows in half steps, hyperedges → members → hyperedges.

Definitions:
    - The level of a hyperedge seen from a set of seed hyperedges is the fewest hyperedges of a walk
      from a seed to it: seeds have level 1, a hyperedge sharing a member with one of level j, and
      of no lower level, has level j + 1. `edge_level` holds it (0 = not reached yet). Forward
      levels are called df, backward levels db (here and in the enumeration).
    - A member's level (`node_level`) is the lowest level of a hyperedge holding it.
    - A ball's `radius` is the number of complete levels: every hyperedge with level <= radius is
      labelled, so an unlabelled hyperedge has level > radius (or none, once the ball is exhausted).

Invariants:
    - The shortest length m* is exact when `meet` returns it. After h half steps a ball has labelled
      everything within bipartite distance h of its seeds (seed hyperedges at distance 1); two such
      balls first overlap at a hyperedge (m = df + db − 1) or a member (m = nf + nb) on a shortest
      walk, and a shortest walk from a start hyperedge to an end hyperedge is a hyperpath.
    - The side that grows is always the one whose next step gathers fewer array entries, so a hub
      with ~10^4 hyperedges is expanded only when the other side is even more expensive.
    - No path exists when a ball is exhausted (its whole component is labelled) without meeting the
      other, or when the length lower bound exceeds max_len; `meet` then returns None.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from forge.core.hkg.incidence_index import EMPTY_POSITIONS, IncidenceIndex, PositionArray, distinct

NO_LEVEL = -1
UNBOUNDED_RADIUS = 1 << 20

LevelArray = npt.NDArray[np.int16]


class SearchBall:
    """One side's BFS state; mutable, owned by a single query."""

    def __init__(self, index: IncidenceIndex, seeds: PositionArray, scratch: npt.NDArray[np.int64]) -> None:
        self._index = index
        self._scratch = scratch
        self.edge_level: LevelArray = np.zeros(index.edge_count, dtype=np.int16)
        self.node_level: LevelArray = np.full(index.node_count, NO_LEVEL, dtype=np.int16)
        self.levels: list[PositionArray] = []
        self.half_steps = 1
        self._frontier_nodes = EMPTY_POSITIONS
        self._frontier_edges = EMPTY_POSITIONS
        self._label_edges(seeds)
        self.exhausted = len(seeds) == 0

    @property
    def radius(self) -> int:
        return UNBOUNDED_RADIUS if self.exhausted else len(self.levels)

    def next_cost(self) -> int:
        """Array entries the next half step gathers (sizes of frontier edges, or degrees of nodes)."""
        if self.half_steps % 2 == 1:
            ptr, rows = self._index.edge_ptr, self._frontier_edges
        else:
            ptr, rows = self._index.node_ptr, self._frontier_nodes
        return int((ptr[rows + 1] - ptr[rows]).sum())

    def advance(self) -> tuple[PositionArray, PositionArray]:
        """Grow by one half step; returns the newly labelled (nodes, hyperedges), one of them empty."""
        index = self._index
        self.half_steps += 1
        if self.half_steps % 2 == 0:
            nodes = index.members(self._frontier_edges)
            nodes = distinct(nodes[self.node_level[nodes] == NO_LEVEL], self._scratch)
            self.node_level[nodes] = len(self.levels)
            self._frontier_nodes = nodes
            self.exhausted = len(nodes) == 0
            return nodes, EMPTY_POSITIONS
        edges = index.incident_edges(self._frontier_nodes)
        edges = distinct(edges[self.edge_level[edges] == 0], self._scratch)
        self.exhausted = len(edges) == 0
        if not self.exhausted:
            self._label_edges(edges)
        return EMPTY_POSITIONS, edges

    def _label_edges(self, edges: PositionArray) -> None:
        self.edge_level[edges] = len(self.levels) + 1
        self.levels.append(edges)
        self._frontier_edges = edges


@dataclass(slots=True)
class BallPair:
    forward: SearchBall
    backward: SearchBall
    shortest: int | None


def _overlap_length(grown: SearchBall, other: SearchBall, nodes: PositionArray, edges: PositionArray) -> int | None:
    """Shortest walk length through the newly labelled `nodes` / `edges` that `other` also reached."""
    if len(edges):
        both = edges[other.edge_level[edges] > 0]
        if len(both):
            return int((grown.edge_level[both] + other.edge_level[both]).min()) - 1
    if len(nodes):
        both = nodes[other.node_level[nodes] != NO_LEVEL]
        if len(both):
            return int((grown.node_level[both] + other.node_level[both]).min())
    return None


def _length_lower_bound(forward: SearchBall, backward: SearchBall) -> int:
    """Least possible m* while the balls have not met: 2m* − 1 > the half steps of both balls."""
    return (forward.half_steps + backward.half_steps + 2) // 2


def _cheaper_side(pair: BallPair) -> SearchBall | None:
    sides = [side for side in (pair.forward, pair.backward) if not side.exhausted]
    return min(sides, key=lambda side: side.next_cost()) if sides else None


def meet(index: IncidenceIndex, starts: PositionArray, ends: PositionArray, max_len: int) -> BallPair:
    """Grow balls from the start and end hyperedges until they meet; `shortest` is m*, or None when
    no walk of length <= max_len exists."""
    scratch = np.empty(max(index.node_count, index.edge_count, 1), dtype=np.int64)
    forward = SearchBall(index, starts, scratch)
    backward = SearchBall(index, ends, scratch)
    pair = BallPair(forward, backward, _overlap_length(forward, backward, EMPTY_POSITIONS, starts))
    while pair.shortest is None and _length_lower_bound(forward, backward) <= max_len:
        if forward.exhausted or backward.exhausted:
            break
        side = forward if forward.next_cost() <= backward.next_cost() else backward
        nodes, edges = side.advance()
        other = backward if side is forward else forward
        pair.shortest = _overlap_length(side, other, nodes, edges)
    if pair.shortest is not None and pair.shortest > max_len:
        pair.shortest = None
    return pair


def grow_to_total_radius(pair: BallPair, total: int) -> None:
    """Grow the cheaper side until forward.radius + backward.radius >= total (or both are exhausted)."""
    while pair.forward.radius + pair.backward.radius < total:
        side = _cheaper_side(pair)
        if side is None:
            return
        side.advance()

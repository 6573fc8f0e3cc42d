"""Compact incidence index of a hypergraph: CSR arrays node → hyperedges and hyperedge → nodes.

Invariants:
    - Positions are dense: nodes 0..node_count-1, hyperedges 0..edge_count-1. (The store assigns
      positions in ascending id order, so comparing positions compares ids.)
    - `edge_nodes[edge_ptr[e]:edge_ptr[e + 1]]` are the distinct members of hyperedge e, ascending;
      `node_edges[node_ptr[v]:node_ptr[v + 1]]` are the hyperedges holding node v, ascending.
    - The arrays are read-only once built; every query allocates its own scratch arrays, so one index
      can serve any number of queries.

Design decision: numpy, built once. A query gathers whole CSR ranges with one vectorised call
(`gather_ranges`) instead of looping in Python over hub nodes with ~10^4 hyperedges.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

PositionArray = npt.NDArray[np.int32]
OffsetArray = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

EMPTY_POSITIONS: PositionArray = np.zeros(0, dtype=np.int32)
FEW_ROWS = 16


def gather_ranges(ptr: OffsetArray, values: PositionArray, rows: PositionArray) -> PositionArray:
    """`values[ptr[r]:ptr[r + 1]]` for every r in `rows`, concatenated in the order of `rows`."""
    if len(rows) <= FEW_ROWS:  # a hyperedge's members: slicing beats the vectorised gather's fixed cost
        bounds = [(int(ptr[r]), int(ptr[r + 1])) for r in rows.tolist()]
        return np.concatenate([values[a:b] for a, b in bounds]) if bounds else EMPTY_POSITIONS
    starts = ptr[rows]
    lengths = ptr[rows + 1] - starts
    total = int(lengths.sum())
    if total == 0:
        return EMPTY_POSITIONS
    ends = np.cumsum(lengths)
    offsets = np.repeat(starts - (ends - lengths), lengths) + np.arange(total, dtype=np.int64)
    gathered: PositionArray = values[offsets]
    return gathered


def range_owners(ptr: OffsetArray, rows: PositionArray) -> PositionArray:
    """For the output of `gather_ranges(ptr, _, rows)`: the index into `rows` each value came from."""
    lengths = ptr[rows + 1] - ptr[rows]
    return np.repeat(np.arange(len(rows), dtype=np.int32), lengths)


def distinct(values: PositionArray, scratch: npt.NDArray[np.int64]) -> PositionArray:
    """The distinct values (unordered) in O(len) without sorting; `scratch` spans every value.

    Whichever duplicate's index lands in `scratch`, exactly one occurrence of each value matches."""
    order = np.arange(len(values), dtype=np.int64)
    scratch[values] = order
    kept: PositionArray = values[scratch[values] == order]
    return kept


@dataclass(frozen=True, slots=True)
class IncidenceIndex:
    node_ptr: OffsetArray
    node_edges: PositionArray
    edge_ptr: OffsetArray
    edge_nodes: PositionArray

    @property
    def node_count(self) -> int:
        return len(self.node_ptr) - 1

    @property
    def edge_count(self) -> int:
        return len(self.edge_ptr) - 1

    @property
    def incidence_count(self) -> int:
        return len(self.edge_nodes)

    @property
    def array_bytes(self) -> int:
        return sum(a.nbytes for a in (self.node_ptr, self.node_edges, self.edge_ptr, self.edge_nodes))

    def node_degrees(self) -> OffsetArray:
        return np.diff(self.node_ptr)

    def edge_sizes(self) -> OffsetArray:
        return np.diff(self.edge_ptr)

    def members_of(self, edge: int) -> PositionArray:
        return self.edge_nodes[self.edge_ptr[edge] : self.edge_ptr[edge + 1]]

    def members(self, edges: PositionArray) -> PositionArray:
        return gather_ranges(self.edge_ptr, self.edge_nodes, edges)

    def incident_edges(self, nodes: PositionArray) -> PositionArray:
        return gather_ranges(self.node_ptr, self.node_edges, nodes)

    def edges_touching(self, edges: PositionArray, node_mask: Mask) -> Mask:
        """For each hyperedge in `edges`: does it hold a node that `node_mask` marks?"""
        hits = node_mask[self.members(edges)]
        owners = range_owners(self.edge_ptr, edges)
        touching: Mask = np.bincount(owners[hits], minlength=len(edges)) > 0
        return touching

    def adjacent_edges(self, edge: int, keep: Callable[[PositionArray], Mask]) -> PositionArray:
        """Ascending hyperedges f != edge that share a member with `edge` and that `keep` accepts."""
        gathered = self.incident_edges(self.members_of(edge))
        candidates: PositionArray = np.unique(gathered[keep(gathered)])
        others: PositionArray = candidates[candidates != edge]
        return others


def build_incidence_index(node_count: int, edge_ptr: OffsetArray, edge_nodes: PositionArray) -> IncidenceIndex:
    """Index from hyperedge → member CSR arrays (members distinct and ascending within each edge)."""
    edge_count = len(edge_ptr) - 1
    owners = np.repeat(np.arange(edge_count, dtype=np.int32), np.diff(edge_ptr))
    order = np.argsort(edge_nodes, kind="stable")  # stable: each node's hyperedges stay ascending
    node_ptr = np.zeros(node_count + 1, dtype=np.int64)
    np.cumsum(np.bincount(edge_nodes, minlength=node_count), out=node_ptr[1:])
    index = IncidenceIndex(
        node_ptr=node_ptr,
        node_edges=owners[order].astype(np.int32),
        edge_ptr=edge_ptr.astype(np.int64),
        edge_nodes=edge_nodes.astype(np.int32),
    )
    for array in (index.node_ptr, index.node_edges, index.edge_ptr, index.edge_nodes):
        array.flags.writeable = False
    return index

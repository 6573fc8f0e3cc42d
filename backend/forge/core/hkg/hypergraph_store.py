"""HypergraphStore: a validated, immutable hypergraph with its incidence index, built once.

Invariants:
    - Node ids and hyperedge ids are unique, non-empty; every hyperedge has at least one member and
      every member is a known node (else `build_hypergraph_store` returns a HypergraphDefect).
    - Repeated members of a hyperedge count once.
    - Records are held in ascending id order and a record's position is its rank: the traversal's
      tie-break on positions is therefore a tie-break on ids, stable across runs and machines.
    - The store never changes after it is built; ingesting a file builds a new store.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphDefect,
    HypergraphNode,
    NodeId,
)
from forge.core.hkg.incidence_index import IncidenceIndex, PositionArray, build_incidence_index
from forge.core.hkg.shared_subset_index import build_shared_subset_index


@dataclass(frozen=True, slots=True)
class HypergraphStats:
    node_count: int
    hyperedge_count: int
    incidence_count: int
    relation_count: int
    mean_hyperedge_size: float
    max_hyperedge_size: int
    max_node_degree: int
    isolated_node_count: int


class HypergraphStore:
    """Build with `build_hypergraph_store`."""

    __slots__ = ("_edge_positions", "_hyperedges", "_index", "_node_positions", "_nodes", "_subset_indexes")

    def __init__(
        self, nodes: tuple[HypergraphNode, ...], hyperedges: tuple[Hyperedge, ...], index: IncidenceIndex
    ) -> None:
        self._nodes = nodes
        self._hyperedges = hyperedges
        self._index = index
        self._node_positions = {node.id: position for position, node in enumerate(nodes)}
        self._edge_positions = {edge.id: position for position, edge in enumerate(hyperedges)}
        self._subset_indexes: dict[int, IncidenceIndex] = {1: index}

    @property
    def nodes(self) -> tuple[HypergraphNode, ...]:
        return self._nodes

    @property
    def hyperedges(self) -> tuple[Hyperedge, ...]:
        return self._hyperedges

    @property
    def index(self) -> IncidenceIndex:
        return self._index

    def shared_subset_index(self, intersection_size: int) -> IncidenceIndex:
        """The walk index for IS = `intersection_size`, built on first use and then kept (a memo of
        immutable data: the store stays observably immutable)."""
        walk_index = self._subset_indexes.get(intersection_size)
        if walk_index is None:
            walk_index = build_shared_subset_index(self._index, intersection_size)
            self._subset_indexes[intersection_size] = walk_index
        return walk_index

    def node(self, node_id: NodeId) -> HypergraphNode | None:
        position = self._node_positions.get(node_id)
        return None if position is None else self._nodes[position]

    def hyperedge(self, hyperedge_id: HyperedgeId) -> Hyperedge | None:
        position = self._edge_positions.get(hyperedge_id)
        return None if position is None else self._hyperedges[position]

    def node_positions(self, node_ids: Iterable[NodeId]) -> PositionArray:
        """Ascending positions of the known ids among `node_ids` (unknown ids are left out)."""
        found = {self._node_positions[n] for n in node_ids if n in self._node_positions}
        return np.array(sorted(found), dtype=np.int32)

    def node_at(self, position: int) -> HypergraphNode:
        return self._nodes[position]

    def hyperedge_at(self, position: int) -> Hyperedge:
        return self._hyperedges[position]

    def members(self, hyperedge_id: HyperedgeId) -> tuple[NodeId, ...]:
        """Distinct members, ascending by id."""
        position = self._edge_positions[hyperedge_id]
        return tuple(self._nodes[int(p)].id for p in self._index.members_of(position))

    def stats(self) -> HypergraphStats:
        sizes = self._index.edge_sizes()
        degrees = self._index.node_degrees()
        return HypergraphStats(
            node_count=len(self._nodes),
            hyperedge_count=len(self._hyperedges),
            incidence_count=self._index.incidence_count,
            relation_count=len({edge.relation for edge in self._hyperedges}),
            mean_hyperedge_size=float(sizes.mean()) if len(sizes) else 0.0,
            max_hyperedge_size=int(sizes.max()) if len(sizes) else 0,
            max_node_degree=int(degrees.max()) if len(degrees) else 0,
            isolated_node_count=int((degrees == 0).sum()),
        )


def _first_duplicate(ids: Iterable[str]) -> str | None:
    seen: set[str] = set()
    for value in ids:
        if value in seen:
            return value
        seen.add(value)
    return None


def _contents_defect(contents: HypergraphContents) -> HypergraphDefect | None:
    duplicate_node = _first_duplicate(node.id for node in contents.nodes)
    if duplicate_node is not None:
        return HypergraphDefect(f"duplicate node id {duplicate_node!r}")
    duplicate_edge = _first_duplicate(edge.id for edge in contents.hyperedges)
    if duplicate_edge is not None:
        return HypergraphDefect(f"duplicate hyperedge id {duplicate_edge!r}")
    if any(not node.id for node in contents.nodes) or any(not edge.id for edge in contents.hyperedges):
        return HypergraphDefect("an id is empty")
    known = {node.id for node in contents.nodes}
    for edge in contents.hyperedges:
        if not edge.members:
            return HypergraphDefect(f"hyperedge {edge.id!r} has no members")
        unknown = next((member for member in edge.members if member not in known), None)
        if unknown is not None:
            return HypergraphDefect(f"hyperedge {edge.id!r} names unknown node {unknown!r}")
    return None


def build_hypergraph_store(contents: HypergraphContents) -> HypergraphStore | HypergraphDefect:
    defect = _contents_defect(contents)
    if defect is not None:
        return defect
    nodes = tuple(sorted(contents.nodes, key=lambda node: node.id))
    hyperedges = tuple(sorted(contents.hyperedges, key=lambda edge: edge.id))
    positions = {node.id: position for position, node in enumerate(nodes)}
    flat = np.fromiter((positions[m] for edge in hyperedges for m in edge.members), dtype=np.int64)
    sizes = np.fromiter((len(edge.members) for edge in hyperedges), dtype=np.int64, count=len(hyperedges))
    owners = np.repeat(np.arange(len(hyperedges), dtype=np.int64), sizes)
    keys = np.unique(owners * max(len(nodes), 1) + flat)  # sorts by (hyperedge, node) and drops repeats
    edge_nodes = (keys % max(len(nodes), 1)).astype(np.int32)
    edge_ptr = np.zeros(len(hyperedges) + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys // max(len(nodes), 1), minlength=len(hyperedges)), out=edge_ptr[1:])
    return HypergraphStore(nodes, hyperedges, build_incidence_index(len(nodes), edge_ptr, edge_nodes))

"""The k shortest loopless hyperpaths from a set of start nodes to a set of end nodes.

Definitions (also in docs/hkg.md):
    - A hyperpath of length m from S to T with intersection size s (IS) is a sequence of m distinct
      hyperedges e1..em with |e_i ∩ e_{i+1}| >= s, where e1 is the only one holding a node of S and
      em the only one holding a node of T. (The end conditions make a path stop where it first
      reaches T and start where it last leaves S; a walk that touched T earlier has a shorter prefix
      that is itself a path.) Nodes may recur in non-consecutive hyperedges; hyperedges may not.
    - Equivalently: a simple path σ → e1 → … → em → τ in the s-line graph (hyperedges adjacent when
      they share >= s nodes) with σ joined to the hyperedges holding S and τ to those holding T,
      visiting no other σ- or τ-neighbour on the way.
    - For s = 1 and disjoint S, T the shortest length m* relates to the bipartite incidence graph
      (nodes + hyperedges, node–hyperedge links): d(S, T) = 2·m*. A node in both S and T gives
      m* = 1 (a hyperedge holding it is a path of one hyperedge); a node with no hyperedge is never
      on a path.
    - Order: ascending length, then ascending hyperedge-id sequence (lexicographic). The first k in
      that order are returned; ties are therefore broken the same way on every run.

Invariants:
    - Exact within a work bound: the paths returned are the first k valid hyperpaths of length
      <= max_len in that order, unless the enumeration stepped onto MAX_EXPANDED_PATHS partial
      paths first; then the result says so (`SearchExtent.WORK_BOUND`) and holds the valid paths
      found until then (PATH_NOT_FOUND if none: not found within the bound, not proven absent).
    - PATH_NOT_FOUND carries no path; NO_MATCH means a side named no known node. A path is never
      fabricated: every returned hyperedge sequence is re-checkable with `is_valid_hyperpath`.

Design decisions:
    - Every IS runs as IS = 1 on the store's shared-subset index (hyperedges over their s-member
      subsets, see shared_subset_index): one traversal algorithm, and no pair counting per query.
    - Two BFS balls meet to give m* (hyperpath_search_balls), then one lexicographic, pruned
      depth-first pass per length L = m*, m*+1, … (hyperpath_enumeration) until k paths are found.
      This replaces Yen's repeated full searches: no work is repeated across the k paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

import numpy as np

from forge.core.hkg.hypergraph_records import HyperedgeId, NodeId
from forge.core.hkg.hypergraph_store import HypergraphStore
from forge.core.hkg.hyperpath_enumeration import (
    HOLDS_END,
    HOLDS_START,
    MAX_EXPANDED_PATHS,
    EndClasses,
    RoundRules,
    enumerate_length,
)
from forge.core.hkg.hyperpath_search_balls import grow_to_total_radius, meet
from forge.core.hkg.incidence_index import IncidenceIndex, PositionArray


class TraversalStatus(str, Enum):
    FOUND = "path_found"
    PATH_NOT_FOUND = "path_not_found"
    NO_MATCH = "no_match"


class SearchExtent(str, Enum):
    """How far a traversal looked: all of the hypergraph up to max_len, or up to the work bound."""

    EXHAUSTIVE = "exhaustive"
    WORK_BOUND = "work_bound"


MAX_K = 100
MAX_INTERSECTION_SIZE = 8
MAX_PATH_LENGTH = 16


def query_limits_problem(k: int, intersection_size: int, max_len: int) -> str | None:
    """Why these settings cannot make a query (None when they can); callers check before building."""
    if not 1 <= k <= MAX_K:
        return f"k must be between 1 and {MAX_K}"
    if not 1 <= intersection_size <= MAX_INTERSECTION_SIZE:
        return f"IS must be between 1 and {MAX_INTERSECTION_SIZE}"
    if not 1 <= max_len <= MAX_PATH_LENGTH:
        return f"max_len must be between 1 and {MAX_PATH_LENGTH}"
    return None


@dataclass(frozen=True, slots=True)
class HyperpathQuery:
    """A traversal request; hashable, so it is also the traversal cache key. Building one with settings
    outside the limits is a programming error (ValueError): check `query_limits_problem` first."""

    start_nodes: frozenset[NodeId]
    end_nodes: frozenset[NodeId]
    k: int = 3
    intersection_size: int = 1
    max_len: int = 6

    def __post_init__(self) -> None:
        problem = query_limits_problem(self.k, self.intersection_size, self.max_len)
        if problem is not None:
            raise ValueError(problem)


@dataclass(frozen=True, slots=True)
class Hyperpath:
    """Hyperedges in order; the start/end node reached (lowest id) and the shared nodes between steps."""

    hyperedges: tuple[HyperedgeId, ...]
    start_node: NodeId
    end_node: NodeId
    joints: tuple[tuple[NodeId, ...], ...]

    @property
    def length(self) -> int:
        return len(self.hyperedges)


@dataclass(frozen=True, slots=True)
class HyperpathResult:
    query: HyperpathQuery
    status: TraversalStatus
    paths: tuple[Hyperpath, ...] = ()
    extent: SearchExtent = SearchExtent.EXHAUSTIVE

    @property
    def shortest_length(self) -> int | None:
        return self.paths[0].length if self.paths else None


def _end_classes(index: IncidenceIndex, start_edges: PositionArray, end_edges: PositionArray) -> EndClasses:
    bits = np.zeros(index.edge_count, dtype=np.int8)
    bits[start_edges] = HOLDS_START
    bits[end_edges] |= HOLDS_END
    return EndClasses(bits)


@dataclass(frozen=True, slots=True)
class PositionPaths:
    """Hyperpaths as hyperedge positions, ascending (length, sequence), and how far the search looked."""

    paths: tuple[tuple[int, ...], ...]
    extent: SearchExtent = SearchExtent.EXHAUSTIVE


def k_shortest_positions(
    index: IncidenceIndex, walk_index: IncidenceIndex, starts: PositionArray, ends: PositionArray, k: int, max_len: int
) -> PositionPaths:
    """The first k hyperpaths as hyperedge positions (none if there is none), within one work bound
    (MAX_EXPANDED_PATHS partial paths, shared by all lengths).

    `index` is the store's incidence index, `walk_index` its shared-subset index for the IS."""
    start_edges = np.unique(index.incident_edges(starts))
    end_edges = np.unique(index.incident_edges(ends))
    if len(start_edges) == 0 or len(end_edges) == 0:
        return PositionPaths(())
    balls = meet(walk_index, start_edges, end_edges, max_len)
    if balls.shortest is None:
        return PositionPaths(())
    ends_masks = _end_classes(index, start_edges, end_edges)
    found: list[tuple[int, ...]] = []
    budget = MAX_EXPANDED_PATHS
    for length in range(balls.shortest, max_len + 1):
        grow_to_total_radius(balls, length)
        rules = RoundRules(walk_index, balls, ends_masks, length)
        enumerated = enumerate_length(walk_index, rules, start_edges, length, k - len(found), budget)
        found += enumerated.paths
        budget -= enumerated.expanded
        if enumerated.cut:
            return PositionPaths(tuple(found), SearchExtent.WORK_BOUND)
        if len(found) == k:
            break
    return PositionPaths(tuple(found))


def _describe(store: HypergraphStore, positions: tuple[int, ...], starts: set[int], ends: set[int]) -> Hyperpath:
    """Ids for a path of hyperedge positions (members are tiny: plain sets beat numpy calls here)."""
    index = store.index
    members = [index.members_of(p).tolist() for p in positions]
    joints = tuple(
        tuple(store.node_at(n).id for n in sorted(set(left) & set(right))) for left, right in pairwise(members)
    )
    return Hyperpath(
        hyperedges=tuple(store.hyperedge_at(p).id for p in positions),
        start_node=store.node_at(min(n for n in members[0] if n in starts)).id,
        end_node=store.node_at(min(n for n in members[-1] if n in ends)).id,
        joints=joints,
    )


def find_k_shortest_hyperpaths(store: HypergraphStore, query: HyperpathQuery) -> HyperpathResult:
    starts = store.node_positions(query.start_nodes)
    ends = store.node_positions(query.end_nodes)
    if len(starts) == 0 or len(ends) == 0:
        return HyperpathResult(query, TraversalStatus.NO_MATCH)
    index = store.index
    walk_index = store.shared_subset_index(query.intersection_size)
    found = k_shortest_positions(index, walk_index, starts, ends, query.k, query.max_len)
    if not found.paths:
        return HyperpathResult(query, TraversalStatus.PATH_NOT_FOUND, extent=found.extent)
    start_set, end_set = set(starts.tolist()), set(ends.tolist())
    paths = tuple(_describe(store, positions, start_set, end_set) for positions in found.paths)
    return HyperpathResult(query, TraversalStatus.FOUND, paths, found.extent)


def is_valid_hyperpath(store: HypergraphStore, path: Hyperpath, query: HyperpathQuery) -> bool:
    """Re-check a hyperpath against the definition (used by tests and by evidence consumers)."""
    edges = [store.hyperedge(e) for e in path.hyperedges]
    if not edges or any(e is None for e in edges) or len(set(path.hyperedges)) != len(edges):
        return False
    member_sets = [set(store.members(e)) for e in path.hyperedges]
    touches_start = [bool(m & query.start_nodes) for m in member_sets]
    touches_end = [bool(m & query.end_nodes) for m in member_sets]
    ends_ok = touches_start[0] and touches_end[-1] and not any(touches_start[1:]) and not any(touches_end[:-1])
    steps_ok = all(len(a & b) >= query.intersection_size for a, b in pairwise(member_sets))
    return ends_ok and steps_ok and len(edges) <= query.max_len

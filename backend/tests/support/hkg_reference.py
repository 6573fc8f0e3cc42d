"""Independent references for the HKG traversal tests: random small hypergraphs and brute force.

Nothing here imports the traversal code: paths are enumerated by a plain depth-first search over
every hyperedge sequence, and shortest lengths come from networkx on graphs built from the records.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

import networkx as nx

from forge.core.hkg.hypergraph_records import Hyperedge, HyperedgeId, HypergraphContents, HypergraphNode, NodeId


@dataclass(frozen=True)
class RandomCase:
    contents: HypergraphContents
    starts: frozenset[NodeId]
    ends: frozenset[NodeId]


def random_case(rng: random.Random, max_nodes: int = 12, max_edges: int = 12, max_size: int = 4) -> RandomCase:
    """A random hypergraph (some isolated nodes, repeated members allowed) and two small node sets."""
    node_count = rng.randint(2, max_nodes)
    node_ids = [NodeId(f"n{i:02d}") for i in range(node_count)]
    nodes = tuple(HypergraphNode(node_id, f"label {node_id}") for node_id in node_ids)
    edges = []
    for number in range(rng.randint(1, max_edges)):
        members = tuple(rng.choice(node_ids) for _ in range(rng.randint(1, max_size)))
        edges.append(Hyperedge(HyperedgeId(f"e{number:02d}"), "related_to", members))
    starts = frozenset(rng.sample(node_ids, rng.randint(1, min(2, node_count))))
    ends = frozenset(rng.sample(node_ids, rng.randint(1, min(2, node_count))))
    return RandomCase(HypergraphContents(nodes, tuple(edges)), starts, ends)


def member_sets(contents: HypergraphContents) -> dict[HyperedgeId, frozenset[NodeId]]:
    return {edge.id: frozenset(edge.members) for edge in contents.hyperedges}


def is_hyperpath(
    sequence: tuple[HyperedgeId, ...],
    members: dict[HyperedgeId, frozenset[NodeId]],
    case: RandomCase,
    s: int,
) -> bool:
    """The definition in docs/hkg.md, checked literally."""
    sets = [members[e] for e in sequence]
    if not sets or len(set(sequence)) != len(sequence):
        return False
    touches_start = [bool(m & case.starts) for m in sets]
    touches_end = [bool(m & case.ends) for m in sets]
    ends_ok = touches_start[0] and touches_end[-1] and not any(touches_start[1:]) and not any(touches_end[:-1])
    return ends_ok and all(len(a & b) >= s for a, b in pairwise(sets))


def _extensions(
    prefix: tuple[HyperedgeId, ...],
    members: dict[HyperedgeId, frozenset[NodeId]],
    case: RandomCase,
    s: int,
    max_len: int,
) -> Iterator[tuple[HyperedgeId, ...]]:
    """Every hyperpath extending `prefix` (itself a valid prefix), in (length-free) id order."""
    if is_hyperpath(prefix, members, case, s):
        yield prefix
    if len(prefix) == max_len or members[prefix[-1]] & case.ends:
        return  # a hyperedge holding an end node can only be the last one
    for edge in sorted(members):
        if edge not in prefix and len(members[prefix[-1]] & members[edge]) >= s and not members[edge] & case.starts:
            yield from _extensions((*prefix, edge), members, case, s, max_len)


def brute_force_hyperpaths(case: RandomCase, s: int, max_len: int) -> list[tuple[HyperedgeId, ...]]:
    """Every hyperpath of length <= max_len, ordered by (length, hyperedge-id sequence)."""
    members = member_sets(case.contents)
    found: list[tuple[HyperedgeId, ...]] = []
    for first in sorted(members):
        if members[first] & case.starts:
            found.extend(_extensions((first,), members, case, s, max_len))
    return sorted(found, key=lambda path: (len(path), path))


def bipartite_shortest_length(case: RandomCase) -> int | None:
    """IS = 1: half the networkx distance between the start and end sets on the incidence graph."""
    graph = nx.Graph()
    for edge in case.contents.hyperedges:
        for member in edge.members:
            graph.add_edge(("node", member), ("edge", edge.id))
    graph.add_edges_from(("source", ("node", n)) for n in case.starts if ("node", n) in graph)
    graph.add_edges_from((("node", n), "sink") for n in case.ends if ("node", n) in graph)
    if "source" not in graph or "sink" not in graph or not nx.has_path(graph, "source", "sink"):
        return None
    distance = nx.shortest_path_length(graph, "source", "sink")
    return max(1, (distance - 2) // 2)  # a node in both sets: distance 2, one hyperedge holding it


def s_line_graph_shortest_length(case: RandomCase, s: int) -> int | None:
    """IS = s: hyperedges linked when they share >= s members (pairs compared one by one), a source
    joined to those holding a start node and a sink to those holding an end node."""
    members = member_sets(case.contents)
    graph = nx.Graph()
    graph.add_nodes_from(["source", "sink"])
    edge_ids = sorted(members)
    for i, left in enumerate(edge_ids):
        for right in edge_ids[i + 1 :]:
            if len(members[left] & members[right]) >= s:
                graph.add_edge(left, right)
        if members[left] & case.starts:
            graph.add_edge("source", left)
        if members[left] & case.ends:
            graph.add_edge(left, ("sink-of", left))
            graph.add_edge(("sink-of", left), "sink")
    if not nx.has_path(graph, "source", "sink"):
        return None
    return int(nx.shortest_path_length(graph, "source", "sink")) - 2


def hub_trap(hubs: int = 30) -> RandomCase:
    """A dense hypergraph where exact enumeration explodes: from "s" to "t" the only hyperpath is
    B, T (B holds "s" too), yet `hubs` hyperedges {a, hub, c_i}, all sharing "hub" with each other
    and with B, sit one step from B: every ordering of them looks a few steps from the end (B is),
    and each walk dies there, since B, holding a start node, may not stand inside a path."""
    node = NodeId
    rim = [f"c{i:02d}" for i in range(hubs)]
    nodes = tuple(HypergraphNode(node(n), n) for n in ("s", "t", "a", "z", "hub", *rim))

    def edge(name: str, *members: str) -> Hyperedge:
        return Hyperedge(HyperedgeId(name), "related_to", tuple(node(m) for m in members))

    edges = (edge("S", "s", "a"), edge("B", "z", "s", "hub"), edge("T", "t", "z"))
    edges += tuple(edge(f"C{c}", "a", "hub", c) for c in rim)
    return RandomCase(HypergraphContents(nodes, edges), frozenset({node("s")}), frozenset({node("t")}))

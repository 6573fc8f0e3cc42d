"""The HKG around a query: the nodes its words match, then their hyperedge neighbours, within a limit."""

from __future__ import annotations

import numpy as np

from forge.core.hkg.hkg_neighbourhood import hkg_neighbourhood, seed_terms
from forge.core.hkg.hypergraph_records import Hyperedge, HyperedgeId, HypergraphContents, HypergraphNode, NodeId
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.node_matching import NodeMatcher


def _store() -> HypergraphStore:
    nodes = tuple(
        HypergraphNode(NodeId(i), label)
        for i, label in [("q", "queue"), ("u", "utilization"), ("k", "kingman formula"), ("b", "bees"), ("d", "dance")]
    )
    edges = (
        Hyperedge(HyperedgeId("e1"), "explains", (NodeId("q"), NodeId("u"), NodeId("k"))),
        Hyperedge(HyperedgeId("e2"), "does", (NodeId("b"), NodeId("d"))),
    )
    built = build_hypergraph_store(HypergraphContents(nodes, edges))
    assert isinstance(built, HypergraphStore)
    return built


def test_the_matched_node_comes_with_its_hyperedge_and_the_unrelated_part_stays_out() -> None:
    store = _store()
    found = hkg_neighbourhood(store, NodeMatcher(store), "why does the queue grow", 12)
    assert found.seeds == ("q",)
    assert [n for n, _ in found.nodes] == ["q", "u", "k"]
    assert found.hyperedges == (("explains", ("q", "u", "k")),)


def test_the_limit_bounds_the_nodes_and_a_hyperedge_keeps_only_the_kept_members() -> None:
    store = _store()
    found = hkg_neighbourhood(store, NodeMatcher(store), "queue", 2)
    assert [n for n, _ in found.nodes] == ["q", "u"]
    assert found.hyperedges == (("explains", ("q", "u")),)


def test_a_query_that_matches_nothing_gives_an_empty_neighbourhood() -> None:
    store = _store()
    found = hkg_neighbourhood(store, NodeMatcher(store), "photosynthesis", 12)
    assert found.nodes == () and found.hyperedges == () and found.seeds == ()


def test_a_query_word_no_node_holds_seeds_the_node_its_vector_means() -> None:
    store = _store()
    meanings = "qukbd"  # one axis of meaning per node
    one_meaning_per_node = np.array([[float(n.id == axis) for axis in meanings] for n in store.nodes], dtype=np.float32)
    matcher = NodeMatcher(store, one_meaning_per_node)
    query = "why does the line grow"
    assert seed_terms(query) == ["line", "grow"]
    line_means_queue = {"line": [1.0, 0.0, 0.0, 0.0, 0.0], "grow": [0.0, 0.0, 0.0, 0.0, 0.0]}
    assert hkg_neighbourhood(store, matcher, query, 12).seeds == ()
    found = hkg_neighbourhood(store, matcher, query, 12, line_means_queue)
    assert found.seeds == ("q",)
    assert found.hyperedges == (("explains", ("q", "u", "k")),)

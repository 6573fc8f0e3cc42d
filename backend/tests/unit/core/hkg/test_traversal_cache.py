"""TraversalCache: a repeated query is a hit with the same result; the oldest entry is dropped first."""

from __future__ import annotations

import pytest

from forge.core.hkg.hypergraph_records import Hyperedge, HyperedgeId, HypergraphContents, HypergraphNode, NodeId
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.k_shortest_hyperpaths import HyperpathQuery
from forge.core.hkg.traversal_cache import CacheCounts, TraversalCache


@pytest.fixture
def store() -> HypergraphStore:
    nodes = tuple(HypergraphNode(NodeId(n), n) for n in "abcd")
    edges = tuple(
        Hyperedge(HyperedgeId(f"e{i}"), "rel", (NodeId(x), NodeId(y))) for i, (x, y) in enumerate(["ab", "bc", "cd"])
    )
    built = build_hypergraph_store(HypergraphContents(nodes, edges))
    assert isinstance(built, HypergraphStore)
    return built


def _query(start: str, end: str, k: int = 3) -> HyperpathQuery:
    return HyperpathQuery(frozenset({NodeId(start)}), frozenset({NodeId(end)}), k)


def test_a_repeated_query_is_a_hit_returning_the_same_result(store: HypergraphStore) -> None:
    cache = TraversalCache(store)
    first = cache.find(_query("a", "d"))
    assert cache.find(_query("a", "d")) is first
    assert cache.counts() == CacheCounts(hits=1, misses=1, size=1)


def test_queries_differing_only_in_k_do_not_share_an_entry(store: HypergraphStore) -> None:
    cache = TraversalCache(store)
    cache.find(_query("a", "d", k=1))
    cache.find(_query("a", "d", k=2))
    assert cache.counts() == CacheCounts(hits=0, misses=2, size=2)


def test_the_least_recently_used_entry_is_dropped_at_capacity(store: HypergraphStore) -> None:
    cache = TraversalCache(store, capacity=2)
    cache.find(_query("a", "d"))
    cache.find(_query("a", "c"))
    cache.find(_query("a", "d"))  # refreshes a→d
    cache.find(_query("b", "d"))  # evicts a→c
    cache.find(_query("a", "d"))
    cache.find(_query("a", "c"))
    assert cache.counts() == CacheCounts(hits=2, misses=4, size=2)

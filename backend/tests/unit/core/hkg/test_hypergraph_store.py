"""Building a store: validation defects, repeated members, id-ordered positions, stats."""

from __future__ import annotations

from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphDefect,
    HypergraphNode,
    NodeId,
)
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store


def _nodes(*ids: str) -> tuple[HypergraphNode, ...]:
    return tuple(HypergraphNode(NodeId(i), i.upper()) for i in ids)


def _edge(edge_id: str, *members: str) -> Hyperedge:
    return Hyperedge(HyperedgeId(edge_id), "rel", tuple(NodeId(m) for m in members))


def _defect(contents: HypergraphContents) -> str:
    built = build_hypergraph_store(contents)
    assert isinstance(built, HypergraphDefect)
    return built.message


def test_duplicate_ids_unknown_members_and_empty_hyperedges_are_defects_naming_the_record() -> None:
    assert "duplicate node id 'a'" in _defect(HypergraphContents(_nodes("a", "a"), ()))
    assert "duplicate hyperedge id 'e'" in _defect(HypergraphContents(_nodes("a"), (_edge("e", "a"), _edge("e", "a"))))
    assert "unknown node 'zz'" in _defect(HypergraphContents(_nodes("a"), (_edge("e", "a", "zz"),)))
    assert "no members" in _defect(HypergraphContents(_nodes("a"), (_edge("e"),)))
    assert "empty" in _defect(HypergraphContents(_nodes(""), ()))


def test_repeated_members_count_once_and_members_are_listed_by_id() -> None:
    store = build_hypergraph_store(HypergraphContents(_nodes("c", "a", "b"), (_edge("e", "c", "a", "c"),)))
    assert isinstance(store, HypergraphStore)
    assert store.members(HyperedgeId("e")) == ("a", "c")
    assert [node.id for node in store.nodes] == ["a", "b", "c"]


def test_stats_count_nodes_hyperedges_incidences_and_isolated_nodes() -> None:
    contents = HypergraphContents(
        _nodes("a", "b", "c", "d"),
        (_edge("e1", "a", "b", "c"), Hyperedge(HyperedgeId("e2"), "other", (NodeId("a"),))),
    )
    store = build_hypergraph_store(contents)
    assert isinstance(store, HypergraphStore)
    stats = store.stats()
    assert (stats.node_count, stats.hyperedge_count, stats.incidence_count) == (4, 2, 4)
    assert (stats.relation_count, stats.max_hyperedge_size, stats.max_node_degree) == (2, 3, 2)
    assert stats.mean_hyperedge_size == 2.0
    assert stats.isolated_node_count == 1


def test_lookups_return_none_for_unknown_ids_and_positions_skip_them() -> None:
    store = build_hypergraph_store(HypergraphContents(_nodes("a", "b"), (_edge("e", "a", "b"),)))
    assert isinstance(store, HypergraphStore)
    assert store.node(NodeId("zz")) is None
    assert store.hyperedge(HyperedgeId("zz")) is None
    assert store.node_positions([NodeId("b"), NodeId("zz"), NodeId("a")]).tolist() == [0, 1]

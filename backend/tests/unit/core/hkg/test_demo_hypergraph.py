"""The demo hypergraph from the shipped knowledge: valid, deterministic, referenced, connected."""

from __future__ import annotations

from forge.core.hkg.demo_hypergraph import build_demo_hypergraph
from forge.core.hkg.hypergraph_jsonl import dump_hypergraph_jsonl
from forge.core.hkg.hypergraph_records import HypergraphContents, NodeId
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.k_shortest_hyperpaths import HyperpathQuery, TraversalStatus, find_k_shortest_hyperpaths
from forge.knowledge.load_knowledge import load_shipped_knowledge

KNOWLEDGE = load_shipped_knowledge()


def _demo() -> HypergraphContents:
    return build_demo_hypergraph(KNOWLEDGE.domains, KNOWLEDGE.triz.principles, KNOWLEDGE.triz.parameters)


def test_the_demo_is_a_valid_store_with_every_domain_and_triz_entry() -> None:
    store = build_hypergraph_store(_demo())
    assert isinstance(store, HypergraphStore)
    ids = {node.id for node in store.nodes}
    assert {f"domain:{d.id}" for d in KNOWLEDGE.domains} <= ids
    assert {f"triz-principle:{n:02d}" for n in range(1, 41)} <= ids
    assert all(edge.provenance and edge.provenance[0].source.startswith("knowledge/") for edge in store.hyperedges)


def test_the_demo_is_the_same_on_every_build() -> None:
    first, second = _demo(), _demo()
    assert first == second
    assert dump_hypergraph_jsonl(first.nodes, first.hyperedges) == dump_hypergraph_jsonl(
        second.nodes, second.hyperedges
    )


def test_cue_terms_join_distant_domains() -> None:
    store = build_hypergraph_store(_demo())
    assert isinstance(store, HypergraphStore)
    query = HyperpathQuery(frozenset({NodeId("domain:thermodynamics")}), frozenset({NodeId("domain:immunology")}))
    result = find_k_shortest_hyperpaths(store, query)
    assert result.status is TraversalStatus.FOUND
    assert all(
        node.startswith(("term:", "variable:")) for path in result.paths for joint in path.joints for node in joint
    )

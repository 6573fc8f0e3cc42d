"""GraphML from networkx: every edge becomes a 2-node hyperedge with labels and relations kept."""

from __future__ import annotations

from io import BytesIO

import networkx as nx

from forge.core.hkg.hypergraph_graphml import parse_graphml
from forge.core.hkg.hypergraph_records import HypergraphContents, HypergraphDefect, Provenance


def _graphml(graph: nx.Graph) -> str:
    buffer = BytesIO()
    nx.write_graphml(graph, buffer)
    return buffer.getvalue().decode("utf-8")


def test_networkx_graphml_becomes_two_node_hyperedges_with_labels_and_relations() -> None:
    graph = nx.MultiGraph()
    graph.add_node("t", label="temperature")
    graph.add_node("p", name="pressure")
    graph.add_node("v")
    graph.add_edge("t", "p", relation="raises")
    graph.add_edge("t", "p")
    graph.add_edge("v", "v", label="self")
    parsed = parse_graphml(_graphml(graph), "gas.graphml")
    assert isinstance(parsed, HypergraphContents)
    assert {n.id: n.label for n in parsed.nodes} == {"t": "temperature", "p": "pressure", "v": "v"}
    edges = sorted((e.relation, e.members) for e in parsed.hyperedges)
    assert edges == [("raises", ("t", "p")), ("related_to", ("t", "p")), ("self", ("v",))]
    assert all(e.provenance == (Provenance("gas.graphml", f"edge {e.id}"),) for e in parsed.hyperedges)
    assert len({e.id for e in parsed.hyperedges}) == 3


def test_not_xml_and_not_graphml_are_defects() -> None:
    assert isinstance(parse_graphml("<graphml", "x"), HypergraphDefect)
    wrong_root = parse_graphml("<svg/>", "x")
    assert isinstance(wrong_root, HypergraphDefect)
    assert "not a GraphML document" in wrong_root.message


def test_an_edge_without_a_target_is_a_defect() -> None:
    text = '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><graph><node id="a"/><edge source="a"/></graph></graphml>'
    parsed = parse_graphml(text, "x")
    assert isinstance(parsed, HypergraphDefect)
    assert parsed.message == "edge edge:0 has no source or no target"

"""The knowledge graph as GraphML: what Gephi or Cytoscape reads back is the graph, attributes included."""

from __future__ import annotations

from io import BytesIO
from uuid import UUID
from xml.etree import ElementTree

import networkx as nx

from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, EdgeId, EdgeType, Phase
from forge.core.graph.claims_graphml import claims_graphml
from forge.core.graph.project_to_flow import project_graph_to_flow
from forge.core.session.records import Claim, ClaimScores, Edge

GRAPHML = "{http://graphml.graphdrawing.org/xmlns}"


def claim(n: int, text: str = "", **kw: object) -> Claim:
    return Claim(
        id=ClaimId(UUID(int=n)),
        text=text or f"claim {n}",
        claim_type=ClaimType.SYNTHESIS,
        round_created=n - 1,
        phase_created=Phase.SYNTHESIZE,
        **kw,  # type: ignore[arg-type]
    )


def link(n: int, source: int, target: int, edge_type: EdgeType) -> Edge:
    return Edge(EdgeId(UUID(int=100 + n)), ClaimId(UUID(int=source)), ClaimId(UUID(int=target)), edge_type)


def read(document: bytes) -> nx.MultiDiGraph:
    return nx.read_graphml(BytesIO(document), force_multigraph=True)


def test_nodes_and_edges_come_back_with_their_attributes() -> None:
    claims = [claim(1, status=ClaimStatus.VALIDATED, scores=ClaimScores(0.9, 0.8, 0.7, 0.6666)), claim(2), claim(3)]
    edges = [link(1, 1, 2, EdgeType.SUPPORTS), link(2, 2, 3, EdgeType.DEPENDS_ON)]
    graph = read(claims_graphml(project_graph_to_flow(claims, edges)))
    one, two = str(UUID(int=1)), str(UUID(int=2))
    assert list(graph.nodes) == [str(c.id) for c in claims]
    assert graph.nodes[one] == {
        "label": "claim 1",
        "claim_type": "synthesis",
        "status": "validated",
        "confidence": "speculative",
        "round": 0,
        "score": 0.767,
    }
    assert "score" not in graph.nodes[two]  # unscored: GraphML has no null
    assert next(iter(graph.edges(keys=True, data=True))) == (
        one,
        two,
        str(UUID(int=101)),
        {"label": "supports", "edge_type": "supports"},
    )
    assert graph.number_of_edges() == 2 and graph.is_directed()


def test_parallel_links_of_two_types_stay_two_edges() -> None:
    edges = [link(1, 1, 2, EdgeType.SUPPORTS), link(2, 1, 2, EdgeType.EXTENDS)]
    graph = read(claims_graphml(project_graph_to_flow([claim(1), claim(2)], edges)))
    assert sorted(d["edge_type"] for _, _, d in graph.edges(data=True)) == ["extends", "supports"]


def test_any_claim_text_gives_well_formed_utf8_xml() -> None:
    text = "a < b & c > d — 论断 「主張」\x0b\x01 end"
    document = claims_graphml(project_graph_to_flow([claim(1, text)], []))
    assert document.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    root = ElementTree.fromstring(document)
    assert root.tag == f"{GRAPHML}graphml"
    assert read(document).nodes[str(UUID(int=1))]["label"] == "a < b & c > d — 论断 「主張」 end"


def test_an_empty_graph_is_a_valid_document_and_output_is_deterministic() -> None:
    assert read(claims_graphml(project_graph_to_flow([], []))).number_of_nodes() == 0
    claims, edges = [claim(1), claim(2)], [link(1, 1, 2, EdgeType.SUPPORTS)]
    assert claims_graphml(project_graph_to_flow(claims, edges)) == claims_graphml(project_graph_to_flow(claims, edges))

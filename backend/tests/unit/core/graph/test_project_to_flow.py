"""Projection of the knowledge graph to React Flow: counts, order, attributes, labels — and no layout
(the browser lays the graph out, in one place)."""

from __future__ import annotations

from dataclasses import fields
from uuid import UUID

from forge.core.domain_types import ClaimConfidence, ClaimId, ClaimStatus, ClaimType, EdgeId, EdgeType, Phase
from forge.core.graph.project_to_flow import FlowEdge, FlowNode, project_graph_to_flow
from forge.core.session.records import Claim, ClaimScores, Edge


def node(n: int, round_created: int = 0, **kw: object) -> Claim:
    return Claim(
        id=ClaimId(UUID(int=n)),
        text=f"claim {n}",
        claim_type=ClaimType.SYNTHESIS,
        round_created=round_created,
        phase_created=Phase.SYNTHESIZE,
        **kw,  # type: ignore[arg-type]
    )


def edge(n: int, source: int, target: int, edge_type: EdgeType = EdgeType.SUPPORTS) -> Edge:
    return Edge(EdgeId(UUID(int=100 + n)), ClaimId(UUID(int=source)), ClaimId(UUID(int=target)), edge_type)


def diamond() -> tuple[list[Claim], list[Edge]]:
    claims = [node(1), node(2), node(3), node(4), node(5)]
    edges = [edge(1, 1, 2), edge(2, 1, 3), edge(3, 2, 4), edge(4, 3, 4, EdgeType.EXTENDS)]
    return claims, edges


def test_empty_graph_projects_to_nothing() -> None:
    flow = project_graph_to_flow([], [])
    assert flow.nodes == ()
    assert flow.edges == ()


def test_one_flow_node_per_claim_and_one_flow_edge_per_edge() -> None:
    claims, edges = diamond()
    flow = project_graph_to_flow(claims, edges)
    assert len(flow.nodes) == 5
    assert len(flow.edges) == 4


def test_nodes_keep_insertion_order_and_ids() -> None:
    claims, edges = diamond()
    assert [n.id for n in project_graph_to_flow(claims, edges).nodes] == [str(c.id) for c in claims]


def test_projection_is_deterministic() -> None:
    claims, edges = diamond()
    assert project_graph_to_flow(claims, edges) == project_graph_to_flow(claims, edges)


def test_nodes_carry_no_position() -> None:
    # One layout, in the browser (frontend/src/graph/layoutGraph.ts): the server sends none to ignore.
    assert {f.name for f in fields(FlowNode)}.isdisjoint({"x", "y", "position"})


def test_node_carries_claim_attributes() -> None:
    claim = node(
        1,
        status=ClaimStatus.VALIDATED,
        confidence=ClaimConfidence.GROUNDED,
        scores=ClaimScores(0.9, 0.8, 0.7, 0.6666),
        round_created=2,
    )
    (flow_node,) = project_graph_to_flow([claim], []).nodes
    assert flow_node.type == "claim"
    assert flow_node.label == "claim 1"
    assert flow_node.claim_type == "synthesis"
    assert flow_node.status == "validated"
    assert flow_node.confidence == "grounded"
    assert flow_node.round == 2
    assert flow_node.score == 0.767  # mean 0.76665, rounded to three places


def test_unscored_node_has_no_score() -> None:
    (flow_node,) = project_graph_to_flow([node(1)], []).nodes
    assert flow_node.score is None


def test_edges_are_labelled_with_their_type() -> None:
    claims, edges = diamond()
    flow = project_graph_to_flow(claims, edges)
    assert flow.edges[3] == FlowEdge(
        id=str(UUID(int=104)), source=str(UUID(int=3)), target=str(UUID(int=4)), label="extends"
    )
    assert [e.label for e in flow.edges] == ["supports", "supports", "supports", "extends"]

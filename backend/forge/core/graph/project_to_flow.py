"""Projection of the knowledge graph to React Flow's `{nodes, edges}` format: what each claim and
link is, not where it is drawn.

Invariants:
    - Pure and deterministic: one node per claim in insertion order, one edge per link.
    - No positions: the graph is laid out in one place, the browser (frontend/src/graph/layoutGraph.ts,
      dagre over the nodes' measured sizes and the edge labels' widths, again after a status filter).
      A server layout could only guess the boxes' sizes, and the SPA threw it away.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.session.records import Claim, Edge


@dataclass(frozen=True, slots=True)
class FlowNode:
    id: str
    type: str
    label: str
    claim_type: str
    status: str
    confidence: str
    round: int
    score: float | None


@dataclass(frozen=True, slots=True)
class FlowEdge:
    id: str
    source: str
    target: str
    label: str


@dataclass(frozen=True, slots=True)
class FlowGraph:
    nodes: tuple[FlowNode, ...]
    edges: tuple[FlowEdge, ...]


def project_graph_to_flow(claims: list[Claim], edges: list[Edge]) -> FlowGraph:
    nodes = tuple(
        FlowNode(
            id=str(claim.id),
            type="claim",
            label=claim.text,
            claim_type=claim.claim_type.value,
            status=claim.status.value,
            confidence=claim.confidence.value,
            round=claim.round_created,
            score=round(claim.scores.mean, 3) if claim.scores else None,
        )
        for claim in claims
    )
    flow_edges = tuple(
        FlowEdge(id=str(e.id), source=str(e.source), target=str(e.target), label=e.edge_type.value) for e in edges
    )
    return FlowGraph(nodes=nodes, edges=flow_edges)

"""Projection of the knowledge graph to React Flow's `{nodes, edges}` format.

Invariants:
    - Pure and deterministic: nodes are laid out in layers by longest-path depth, ordered within a
      layer by their order of insertion, so the same graph always has the same picture.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.graph.knowledge_graph import topological_depths
from forge.core.session.records import Claim, Edge

LAYER_GAP_X = 340
ROW_GAP_Y = 170


@dataclass(frozen=True, slots=True)
class FlowNode:
    id: str
    type: str
    x: float
    y: float
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
    depths = topological_depths([c.id for c in claims], edges)
    rows_used: dict[int, int] = {}
    nodes = []
    for claim in claims:
        layer = depths[claim.id]
        row = rows_used.get(layer, 0)
        rows_used[layer] = row + 1
        nodes.append(
            FlowNode(
                id=str(claim.id),
                type="claim",
                x=float(layer * LAYER_GAP_X),
                y=float(row * ROW_GAP_Y),
                label=claim.text,
                claim_type=claim.claim_type.value,
                status=claim.status.value,
                confidence=claim.confidence.value,
                round=claim.round_created,
                score=round(claim.scores.mean, 3) if claim.scores else None,
            )
        )
    flow_edges = tuple(
        FlowEdge(id=str(e.id), source=str(e.source), target=str(e.target), label=e.edge_type.value) for e in edges
    )
    return FlowGraph(nodes=tuple(nodes), edges=flow_edges)

"""The knowledge graph in React Flow format."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from forge.api.deps import service_of, session_id_of, unwrap
from forge.api.routes.sessions import ERRORS

router = APIRouter(prefix="/api/v1/sessions", tags=["graph"])


@router.get("/{session_id}/graph", responses=ERRORS)
async def get_graph(session_id: str, request: Request) -> dict[str, Any]:
    flow = unwrap(await service_of(request).graph(session_id_of(session_id)))
    nodes = [
        {
            "id": n.id,
            "type": n.type,
            "position": {"x": n.x, "y": n.y},
            "data": {
                "label": n.label,
                "claim_type": n.claim_type,
                "status": n.status,
                "confidence": n.confidence,
                "round": n.round,
                "score": n.score,
            },
        }
        for n in flow.nodes
    ]
    edges = [
        {"id": e.id, "source": e.source, "target": e.target, "label": e.label, "data": {"edge_type": e.label}}
        for e in flow.edges
    ]
    return {"nodes": nodes, "edges": edges}

"""The knowledge graph: claims as nodes (with a layered layout) and typed links as edges.

Invariants:
    - The response is `FlowGraphResponse`, the same object the `review_build` event carries in
      `data.graph` (both come from `core.project_graph_to_flow`).
"""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter

from forge.api.authentication import OwnedSession
from forge.api.deps import SessionServiceDep, unwrap
from forge.api.error_responses import error_responses
from forge.api.schemas.review_payloads import FlowGraphResponse

router = APIRouter(prefix="/api/v1/sessions", tags=["graph"])


@router.get("/{session_id}/graph", response_model=FlowGraphResponse, responses=error_responses(404))
async def get_graph(session_id: OwnedSession, service: SessionServiceDep) -> FlowGraphResponse:
    flow = unwrap(await service.graph(session_id))
    return FlowGraphResponse.model_validate(
        {"nodes": [asdict(n) for n in flow.nodes], "edges": [asdict(e) for e in flow.edges]}
    )

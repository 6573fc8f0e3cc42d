"""The knowledge graph: claims as nodes and typed links as edges, as JSON for the SPA and as GraphML
for graph tools (Gephi, Cytoscape, yEd).

Invariants:
    - The JSON is `FlowGraphResponse`, the same object the `review_build` event carries in
      `data.graph` (both come from `core.project_graph_to_flow`); it has no layout (the browser's).
    - `/graph.graphml` is the same graph (`core.graph.claims_graphml`), as an attachment; 404 like
      `/graph` for a session that does not exist or is not the caller's.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from forge.api.authentication import OwnedSession
from forge.api.deps import SessionServiceDep, unwrap
from forge.api.error_responses import error_responses
from forge.api.schemas.review_payloads import FlowGraphResponse
from forge.core.graph.claims_graphml import GRAPHML_MEDIA_TYPE, claims_graphml

router = APIRouter(prefix="/api/v1/sessions", tags=["graph"])
GRAPHML_OK: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The knowledge graph as GraphML (claims as nodes, typed links as edges), as an attachment.",
        "content": {GRAPHML_MEDIA_TYPE: {"schema": {"type": "string"}}},
    },
}


class GraphmlResponse(Response):
    """GraphML bytes; the class names the media type for the OpenAPI document."""

    media_type = GRAPHML_MEDIA_TYPE


@router.get("/{session_id}/graph", response_model=FlowGraphResponse, responses=error_responses(404))
async def get_graph(session_id: OwnedSession, service: SessionServiceDep) -> FlowGraphResponse:
    flow = unwrap(await service.graph(session_id))
    return FlowGraphResponse.model_validate(
        {"nodes": [asdict(n) for n in flow.nodes], "edges": [asdict(e) for e in flow.edges]}
    )


@router.get(
    "/{session_id}/graph.graphml",
    response_class=GraphmlResponse,
    responses={**GRAPHML_OK, **error_responses(404)},
)
async def download_graphml(session_id: OwnedSession, service: SessionServiceDep) -> GraphmlResponse:
    """The knowledge graph as GraphML, to analyse in Gephi, Cytoscape or yEd."""
    flow = unwrap(await service.graph(session_id))
    filename = f"knowledge-graph-{session_id}.graphml"
    return GraphmlResponse(claims_graphml(flow), headers={"Content-Disposition": f'attachment; filename="{filename}"'})

"""GET /metrics: the process's Prometheus metrics (text format). Not in the OpenAPI document: it is
for a scraper, not for integrations. Behind authentication like the API when FORGE_AUTH=on (a scraper
sends a personal API token)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from forge.metrics import CONTENT_TYPE

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    return Response(request.app.state.container.metrics.exposition(), media_type=CONTENT_TYPE)

"""GET /metrics: the process's Prometheus metrics (text format). Not in the OpenAPI document: it is
for a scraper, not for integrations. Behind authentication like the API when FORGE_AUTH=on (a scraper
sends a personal API token). With workers on, the run queue's depth is read at each scrape."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Response

from forge.api.deps import ContainerDep
from forge.observability.metrics import CONTENT_TYPE

log = logging.getLogger(__name__)

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(container: ContainerDep) -> Response:
    try:
        depth = await container.queue_depth()
    except Exception:
        log.warning("the run queue is not readable for /metrics", exc_info=True)
        container.metrics.queue_read(-1, -1, -1)
    else:
        if depth is not None:  # None: no run queue (FORGE_RUNNER is not workers)
            container.metrics.queue_read(depth.waiting, depth.running, depth.live_workers)
    return Response(container.metrics.exposition(), media_type=CONTENT_TYPE)

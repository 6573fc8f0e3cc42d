"""Liveness and readiness probes.

Readiness: the database answers; with workers on (FORGE_RUNNER=workers) the run queue is readable
too (the task engine's schema is there). The count of live workers is reported, not required: an
API replica can accept commands while workers restart (jobs wait in the queue).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from forge.api.deps import ContainerDep
from forge.api.schemas.health import QueueReadiness, Readiness
from forge.bootstrap.container import Container

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/v1/health", tags=["health"])


NOT_READY: dict[int | str, dict[str, Any]] = {
    503: {"model": Readiness, "description": "The database (or, with workers, the run queue) is not reachable."}
}


@router.get("/")
async def liveness() -> dict[str, str]:
    return {"status": "ok"}


async def _queue_readiness(container: Container) -> QueueReadiness | None:
    try:
        depth = await container.queue_depth()
    except Exception:
        log.warning("the run queue is not readable", exc_info=True)
        return QueueReadiness(state="unreachable")
    if depth is None:  # no run queue: FORGE_RUNNER is not workers
        return None
    return QueueReadiness(
        state="reachable", waiting=depth.waiting, running=depth.running, live_workers=depth.live_workers
    )


@router.get("/ready", response_model=Readiness, responses=NOT_READY)
async def readiness(container: ContainerDep) -> JSONResponse:
    database = await container.database_ready()
    queue = await _queue_readiness(container) if database else None
    ready = database and (queue is None or queue.state == "reachable")
    body = Readiness(
        status="ready" if ready else "unavailable",
        database="reachable" if database else "unreachable",
        queue=queue,
    )
    return JSONResponse(body.model_dump(exclude_none=True), status_code=200 if ready else 503)

"""Liveness and readiness probes.

Readiness: the database answers; with workers on (FORGE_RUNNER=workers) the run queue is readable
too (the task engine's schema is there). The count of live workers is reported, not required: an
API replica can accept commands while workers restart (jobs wait in the queue).
"""

from __future__ import annotations

import logging
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/v1/health", tags=["health"])


class QueueReadiness(BaseModel):
    state: Literal["reachable", "unreachable"]
    waiting: int | None = None
    running: int | None = None
    live_workers: int | None = None


class Readiness(BaseModel):
    status: Literal["ready", "unavailable"]
    database: Literal["reachable", "unreachable"]
    queue: QueueReadiness | None = None  # only with FORGE_RUNNER=workers


NOT_READY: dict[int | str, dict[str, Any]] = {
    503: {"model": Readiness, "description": "The database (or, with workers, the run queue) is not reachable."}
}


@router.get("/")
async def liveness() -> dict[str, str]:
    return {"status": "ok"}


async def _queue_readiness(request: Request) -> QueueReadiness | None:
    container = request.app.state.container
    if container.queue is None:
        return None
    try:
        depth = await container.queue_depth()
    except Exception:
        log.warning("the run queue is not readable", exc_info=True)
        return QueueReadiness(state="unreachable")
    return QueueReadiness(
        state="reachable", waiting=depth.waiting, running=depth.running, live_workers=depth.live_workers
    )


@router.get("/ready", response_model=Readiness, responses=NOT_READY)
async def readiness(request: Request) -> JSONResponse:
    database = await request.app.state.container.database_ready()
    queue = await _queue_readiness(request) if database else None
    ready = database and (queue is None or queue.state == "reachable")
    body = Readiness(
        status="ready" if ready else "unavailable",
        database="reachable" if database else "unreachable",
        queue=queue,
    )
    return JSONResponse(body.model_dump(exclude_none=True), status_code=200 if ready else 503)

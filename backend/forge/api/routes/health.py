"""Liveness and readiness probes."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

router = APIRouter(prefix="/api/v1/health", tags=["health"])


class Readiness(BaseModel):
    status: Literal["ready", "unavailable"]
    database: Literal["reachable", "unreachable"]


NOT_READY: dict[int | str, dict[str, Any]] = {
    503: {"model": Readiness, "description": "The database is not reachable."}
}


@router.get("/")
async def liveness() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/ready", response_model=Readiness, responses=NOT_READY)
async def readiness(request: Request) -> JSONResponse:
    ready = await request.app.state.container.database_ready()
    body = {"status": "ready" if ready else "unavailable", "database": "reachable" if ready else "unreachable"}
    return JSONResponse(body, status_code=200 if ready else 503)

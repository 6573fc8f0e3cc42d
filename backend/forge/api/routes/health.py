"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

router = APIRouter(prefix="/api/v1/health", tags=["health"])


@router.get("/")
async def liveness() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/ready")
async def readiness(request: Request) -> JSONResponse:
    ready = await request.app.state.container.database_ready()
    body = {"status": "ready" if ready else "unavailable", "database": "reachable" if ready else "unreachable"}
    return JSONResponse(body, status_code=200 if ready else 503)

"""Response models of the readiness probe (GET /health/ready)."""

from __future__ import annotations

import logging
from typing import Literal

from pydantic import BaseModel

log = logging.getLogger(__name__)


class QueueReadiness(BaseModel):
    state: Literal["reachable", "unreachable"]
    waiting: int | None = None
    running: int | None = None
    live_workers: int | None = None


class Readiness(BaseModel):
    status: Literal["ready", "unavailable"]
    database: Literal["reachable", "unreachable"]
    queue: QueueReadiness | None = None  # only with FORGE_RUNNER=workers

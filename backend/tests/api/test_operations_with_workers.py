"""With workers (FORGE_RUNNER=workers, PostgreSQL): readiness reads the run queue, /metrics shows its depth."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from support.api_client import api_client
from support.fresh_database import fresh_database_url, migrated_database_url

from forge.config import Settings

pytestmark = pytest.mark.postgres

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


@asynccontextmanager
async def _api(tmp_path: Path, migrate: bool) -> AsyncIterator[httpx.AsyncClient]:
    database = migrated_database_url if migrate else fresh_database_url
    async with database("postgresql", tmp_path, prefix="forge_test_ops") as url:
        settings = Settings(embedder="hashed", database_url=url, runner="workers", data_dir=tmp_path)
        async with api_client(settings, spa_dir=tmp_path / "no-build") as http:
            yield http


async def _with_api(tmp_path: Path, migrate: bool, check: Callable[[httpx.AsyncClient], Awaitable[None]]) -> None:
    async with _api(tmp_path, migrate) as http:
        await check(http)


async def test_ready_reports_the_queue_and_metrics_count_a_queued_run(tmp_path: Path) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        ready = await http.get("/api/v1/health/ready")
        assert ready.status_code == 200
        assert ready.json() == {
            "status": "ready",
            "database": "reachable",
            "queue": {"state": "reachable", "waiting": 0, "running": 0, "live_workers": 0},
        }
        sid = (await http.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"]
        assert (await http.post(f"/api/v1/sessions/{sid}/run")).status_code == 200
        assert (await http.get("/api/v1/health/ready")).json()["queue"]["waiting"] == 1
        exposition = (await http.get("/metrics")).text
        assert 'forge_queue_jobs{state="waiting"} 1.0' in exposition
        assert 'forge_queue_jobs{state="running"} 0.0' in exposition
        assert "forge_queue_live_workers 0.0" in exposition

    await _with_api(tmp_path, True, check)


async def test_ready_is_503_when_the_queue_schema_is_missing(tmp_path: Path) -> None:
    async def check(http: httpx.AsyncClient) -> None:
        ready = await http.get("/api/v1/health/ready")
        assert ready.status_code == 503
        assert ready.json() == {"status": "unavailable", "database": "reachable", "queue": {"state": "unreachable"}}
        assert "forge_queue_live_workers -1.0" in (await http.get("/metrics")).text

    await _with_api(tmp_path, False, check)

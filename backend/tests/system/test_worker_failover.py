"""Scale-out on PostgreSQL: two API replicas and two workers (real `forge serve` / `forge worker`
processes, FORGE_RUNNER=workers). A session is started and reviewed through replica A and streamed
through replica B; mid-EXPLORE the worker running it is killed with SIGKILL. With no client action
(nobody POSTs /run again), the other worker resumes the session from its last committed step once the
dead worker's lease has expired, and the session reaches its document with every event exactly once.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from httpx_sse import aconnect_sse
from support.event_log import describe, is_resume_marker, log_problems, read_event_log, tail
from support.forge_server import ForgeProcess
from support.fresh_database import fresh_database_url
from support.sse_client import LIVE_TYPES, Received

pytestmark = pytest.mark.postgres
PROBLEM = "How can a hospital cut emergency wait times without more staff?"
STEP_DELAY_MS = 100
DRIVE_SECONDS = 240.0
TIMEOUT = httpx.Timeout(60.0)
# Workers: a short lease, a fast heartbeat and a stalled timeout below the lease, so the dead worker's
# job is retried before its lease expires and the retried job claims the session the moment it does.
WORKER_ENV = {
    "FORGE_RUNNER": "workers",
    "FORGE_RUN_LEASE_SECONDS": "4",
    "FORGE_WORKER_HEARTBEAT_SECONDS": "0.5",
    "FORGE_WORKER_STALLED_SECONDS": "2",
    "FORGE_WORKER_CONCURRENCY": "2",
}
STARTED_JOB = re.compile(r"Starting job forge\.run_session\[(\d+)\]")


@dataclass
class Cluster:
    api_a: ForgeProcess
    api_b: ForgeProcess
    workers: list[ForgeProcess] = field(default_factory=list)

    def worker_running_latest_job(self) -> ForgeProcess:
        """The worker whose log started the newest run job (job ids grow)."""

        def newest(worker: ForgeProcess) -> int:
            text = worker.log_path.read_text(encoding="utf-8", errors="replace")
            return max((int(m) for m in STARTED_JOB.findall(text)), default=-1)

        return max(self.workers, key=newest)


async def _wait_for_live_workers(api: ForgeProcess, count: int) -> None:
    async with httpx.AsyncClient(base_url=api.base_url, timeout=5) as http, asyncio.timeout(90):
        while True:
            queue = (await http.get("/api/v1/health/ready")).json().get("queue", {})
            if queue.get("live_workers", 0) >= count:
                return
            await asyncio.sleep(0.2)


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    async with fresh_database_url("postgresql", tmp_path, prefix="forge_test_workers") as url:
        started: list[ForgeProcess] = []
        try:
            for name in ("api_a", "api_b"):
                started.append(
                    await ForgeProcess.start(
                        url, tmp_path, step_delay_ms=STEP_DELAY_MS, name=name, extra_env=WORKER_ENV
                    )
                )
            for name in ("worker_1", "worker_2"):
                started.append(
                    await ForgeProcess.start_worker(
                        url, tmp_path, step_delay_ms=STEP_DELAY_MS, name=name, extra_env=WORKER_ENV
                    )
                )
            await _wait_for_live_workers(started[0], 2)
            yield Cluster(started[0], started[1], started[2:])
        finally:
            for process in started:
                process.kill()
            for process in started:
                await process.wait_exit()


def _in_explore_after_two_tool_calls(seen: list[Received]) -> bool:
    changes = [i for i, e in enumerate(seen) if e.type == "phase_change"]
    if not changes or seen[changes[-1]].data["phase"] != "explore":
        return False
    return seen[-1].type == "tool_call" and sum(e.type == "tool_call" for e in seen[changes[-1] :]) == 2


async def _follow(http: httpx.AsyncClient, sid: str, after: int, seen: list[Received], on_event: object) -> None:
    """GET /stream on replica B after `after` until the stream ends (a pause, the document, an error)."""
    headers = {"Last-Event-ID": str(after)}
    async with aconnect_sse(http, "GET", f"/api/v1/sessions/{sid}/stream", headers=headers) as source:
        assert source.response.status_code == 200, await source.response.aread()
        async for sse in source.aiter_sse():
            if sse.event == "heartbeat" or sse.event in LIVE_TYPES:
                continue
            seen.append(Received(int(sse.id), sse.event, json.loads(sse.data)))
            if callable(on_event):
                on_event(seen)


async def _review_through_a(http: httpx.AsyncClient, sid: str) -> None:
    """POST /autopilot on replica A; its own stream is closed at once (replica B streams)."""
    async with http.stream("POST", f"/api/v1/sessions/{sid}/autopilot") as response:
        assert response.status_code == 200, await response.aread()


async def test_a_killed_worker_loses_nothing_another_worker_resumes_its_session(cluster: Cluster) -> None:
    seen: list[Received] = []
    killed: list[ForgeProcess] = []

    def kill_mid_explore(events: list[Received]) -> None:
        if not killed and _in_explore_after_two_tool_calls(events):
            victim = cluster.worker_running_latest_job()
            victim.kill()
            killed.append(victim)

    async with (
        httpx.AsyncClient(base_url=cluster.api_a.base_url, timeout=TIMEOUT) as a,
        httpx.AsyncClient(base_url=cluster.api_b.base_url, timeout=TIMEOUT) as b,
    ):
        created = await a.post("/api/v1/sessions", json={"problem": PROBLEM})
        assert created.status_code == 201, created.text
        sid = created.json()["id"]
        started = await a.post(f"/api/v1/sessions/{sid}/run")
        assert started.status_code == 200 and started.json()["started"], started.text
        async with asyncio.timeout(DRIVE_SECONDS):
            await _follow(b, sid, 0, seen, kill_mid_explore)
            while not any(e.type == "knowledge_document" for e in seen):
                last = seen[-1]
                assert last.type == "done" and last.data == {"error": False, "awaiting_input": True}, (
                    f"a stream through replica B ended in {describe(last)}: {tail(seen)}"
                )
                await _review_through_a(a, sid)
                await _follow(b, sid, last.id, seen, kill_mid_explore)
        log = await read_event_log(a, sid)
        session = (await b.get(f"/api/v1/sessions/{sid}")).json()
        document = await b.get(f"/api/v1/sessions/{sid}/document")

    assert killed, "the session finished before its worker could be killed mid-EXPLORE"
    survivor = next(w for w in cluster.workers if w is not killed[0])
    problems = log_problems(log)
    if [(e.id, e.type) for e in seen] != [(e.id, e.type) for e in log]:
        problems.append(f"replica B streamed {len(seen)} events, the log has {len(log)}: not each exactly once")
    resumes = [describe(e) for e in log if is_resume_marker(e)]
    if len(resumes) != 1:
        problems.append(f"expected one resume marker (the takeover), got {resumes}")
    if (session["status"], session["running"], document.status_code) != ("crystallized", False, 200):
        problems.append(
            f"at the end: {session['status']}, running {session['running']}, document {document.status_code}"
        )
    if not STARTED_JOB.search(survivor.log_path.read_text(encoding="utf-8", errors="replace")):
        problems.append("the surviving worker never ran a job")
    assert not problems, "\n".join([*problems, f"survivor's log:\n{survivor.log_tail(15)}"])

"""Workers benchmark (FORGE_RUNNER=workers, PostgreSQL): throughput with 1 vs 2 workers, and failover.

Real processes: one `forge serve` (FORGE_RUNNER=workers: it only enqueues and streams) and 1 or 2
`forge worker` processes, on a fresh PostgreSQL database per part, the offline model. Prints numbers;
no assertions, no pass/fail.

  A. --sessions (40) concurrent autopilot sessions, with 1 worker, then (fresh database) with 2: each
     session is created, POST /run, its stream followed to `done`, then POST /autopilot (its SSE
     followed) at each review, until the document. Per part: wall time (first create -> last
     document), sessions/minute = finished sessions / wall minutes, and phase latency p50/p95 (a
     command -> the `done` that ends its phase, queueing time included), errors (non-2xx, `error`
     events, sessions without a document).
  B. Failover: 2 workers, one session with FORGE_OFFLINE_STEP_DELAY_MS (default 100) so a phase
     lasts; once EXPLORE has committed two tool calls, the worker running the session (the one
     whose log started the newest run job) is SIGKILLed. failover_s = kill -> the first event
     the other worker commits for the session (its resume marker), seen on the stream. It is
     bounded below by the dead worker's lease (FORGE_RUN_LEASE_SECONDS) and by procrastinate's
     stalled-worker detection (FORGE_WORKER_STALLED_SECONDS + a heartbeat); both are printed.

Each worker runs --concurrency (4) sessions at once; the offline model's steps wait --step-delay-ms
(default 100 ms, standing in for a real model's latency: a run then mostly waits, as with a real
provider, and a second worker adds run slots; with 0 the offline model is CPU-bound and a second
worker can only add what a free CPU gives). The machine has 2 CPUs shared with other work: the
whole machine's load average is printed with each part.

Ends with: RESULT sessions_per_min_1w=<float> sessions_per_min_2w=<float> failover_s=<float>

Run: make bench-workers
     backend/.venv/bin/python bench/bench_workers.py [--sessions 40] [--concurrency 4] [--step-delay-ms 0]
         [--pg postgresql://postgres@127.0.0.1:5432]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import aconnect_sse

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))

from forge.core.session.events import LIVE_EVENT_TYPES

FORGE = Path(sys.executable).parent / "forge"
LIVE = frozenset(t.value for t in LIVE_EVENT_TYPES)  # never stored; sent with the last stored event's id
PROBLEM = "How can a hospital cut emergency wait times without more staff? Case {n}."
STARTED_JOB = re.compile(r"Starting job forge\.run_session\[(\d+)\]")
TIMEOUT = httpx.Timeout(300.0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def _pg_execute(dsn: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Cluster:
    """One API replica and `workers` worker processes on a fresh PostgreSQL database."""

    def __init__(self, pg: str, workers: int, env: dict[str, str]) -> None:
        self.pg = pg.rstrip("/")
        self.workers = workers
        self.extra = env
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.dir = Path(tempfile.mkdtemp(prefix="forge-bench-workers-"))
        self.db = f"forge_bench_{uuid.uuid4().hex[:12]}"
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def _env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("FORGE_", "ANTHROPIC_", "OPENAI_")) and k not in ("DATABASE_URL", "PORT", "HOST")
        }
        url = f"{self.pg.replace('postgresql://', 'postgresql+asyncpg://', 1)}/{self.db}"
        return env | {"DATABASE_URL": url, "FORGE_DATA_DIR": str(self.dir), "FORGE_RUNNER": "workers"} | self.extra

    def _spawn(self, name: str, *argv: str, env: dict[str, str]) -> None:
        log = (self.dir / f"{name}.log").open("wb")
        self.procs[name] = subprocess.Popen(
            [str(FORGE), *argv], env=env, cwd=self.dir, stdout=log, stderr=subprocess.STDOUT
        )

    def log(self, name: str) -> str:
        return (self.dir / f"{name}.log").read_text(errors="replace")

    def __enter__(self) -> Cluster:
        asyncio.run(_pg_execute(f"{self.pg}/postgres", f'CREATE DATABASE "{self.db}"'))
        env = self._env()
        subprocess.run([str(FORGE), "migrate"], env=env, cwd=self.dir, check=True, capture_output=True, timeout=180)
        self._spawn("api", "serve", env=env | {"PORT": str(self.port), "LOG_LEVEL": "warning"})
        for i in range(1, self.workers + 1):
            self._spawn(f"worker_{i}", "worker", env=env | {"LOG_LEVEL": "info"})
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                ready = httpx.get(f"{self.base}/api/v1/health/ready", timeout=2)
                if ready.status_code == 200 and ready.json()["queue"]["live_workers"] >= self.workers:
                    return self
            except (httpx.HTTPError, KeyError, ValueError):
                pass
            time.sleep(0.3)
        self.__exit__()
        raise RuntimeError("the cluster was not ready in 120 s")

    def kill(self, name: str) -> None:
        self.procs[name].send_signal(signal.SIGKILL)
        self.procs[name].wait(10)

    def newest_job_worker(self) -> str:
        def newest(name: str) -> int:
            return max((int(m) for m in STARTED_JOB.findall(self.log(name))), default=-1)

        return max((n for n in self.procs if n.startswith("worker_")), key=newest)

    def __exit__(self, *_: object) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        try:
            asyncio.run(_pg_execute(f"{self.pg}/postgres", f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)'))
        except Exception as error:
            print(f"  warning: could not drop {self.db}: {error!r}")
        shutil.rmtree(self.dir, ignore_errors=True)


@dataclass
class SessionRun:
    phases: list[float] = field(default_factory=list)  # command -> done, per phase
    errors: list[str] = field(default_factory=list)
    document: bool = False
    events: list[tuple[int, str, float]] = field(default_factory=list)  # id, type, receive time


async def _follow(http: httpx.AsyncClient, method: str, url: str, run: SessionRun, **kw: Any) -> dict[str, Any] | None:
    """Read one SSE response; the `done` event's data (None when it ended without one)."""
    async with aconnect_sse(http, method, url, **kw) as source:
        if source.response.status_code != 200:
            run.errors.append(f"{method} {url} -> {source.response.status_code}")
            return None
        async for sse in source.aiter_sse():
            if not sse.id or sse.event == "heartbeat":
                continue
            run.events.append((int(sse.id), sse.event, time.monotonic()))
            if sse.event == "error":
                run.errors.append(f"error event {sse.data[:200]}")
            if sse.event == "knowledge_document":
                run.document = True
            if sse.event == "done":
                return dict(json.loads(sse.data))
    return None


async def autopilot_session(base: str, n: int, run: SessionRun, step: asyncio.Event | None = None) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT) as http:
        created = await http.post("/api/v1/sessions", json={"problem": PROBLEM.format(n=n)})
        if created.status_code != 201:
            run.errors.append(f"create -> {created.status_code}")
            return
        sid = created.json()["id"]
        began = time.monotonic()
        started = await http.post(f"/api/v1/sessions/{sid}/run")
        if started.status_code != 200:
            run.errors.append(f"run -> {started.status_code}")
            return
        done = await _follow(http, "GET", f"/api/v1/sessions/{sid}/stream", run)
        while True:
            run.phases.append(time.monotonic() - began)
            if done is None or not done.get("awaiting_input"):
                return
            began = time.monotonic()
            done = await _follow(http, "POST", f"/api/v1/sessions/{sid}/autopilot", run, json={"rounds": 1})


async def throughput(base: str, sessions: int) -> dict[str, Any]:
    runs = [SessionRun() for _ in range(sessions)]
    began = time.monotonic()
    await asyncio.gather(*(autopilot_session(base, n, run) for n, run in enumerate(runs)))
    wall = time.monotonic() - began
    finished = sum(r.document for r in runs)
    phases = [p for r in runs for p in r.phases]
    return {
        "wall_s": wall,
        "finished": finished,
        "per_min": finished / (wall / 60) if wall else 0.0,
        "phase_p50": _percentile(phases, 0.5),
        "phase_p95": _percentile(phases, 0.95),
        "errors": [e for r in runs for e in r.errors],
    }


async def failover(cluster: Cluster) -> dict[str, Any]:
    run = SessionRun()
    killed: dict[str, Any] = {}

    async def watch() -> None:
        while "at" not in killed:
            await asyncio.sleep(0.02)
            changes = [i for i, e in enumerate(run.events) if e[1] == "phase_change"]
            if len(changes) != 2:  # EXPLORE is the second phase (a step commits a tool_call with its result)
                continue
            if sum(e[1] == "tool_call" for e in run.events[changes[-1] :]) >= 2:
                name = cluster.newest_job_worker()
                killed.update(name=name, at=time.monotonic(), last_id=run.events[-1][0])
                cluster.kill(name)

    watcher = asyncio.create_task(watch())
    await autopilot_session(cluster.base, 0, run)
    watcher.cancel()
    if "at" not in killed:
        return {"failover_s": float("nan"), "note": "the session ended before the kill point", "errors": run.errors}
    after = [e for e in run.events if e[0] > killed["last_id"]]
    stored = [e for e in run.events if e[1] not in LIVE]
    first = after[0] if after else None
    return {
        "failover_s": (first[2] - killed["at"]) if first else float("nan"),
        "first_event": first[1] if first else None,
        "killed": killed["name"],
        "document": run.document,
        "errors": run.errors,
        # Stored events only: live ones (text deltas, engine progress) carry the id of the last stored event.
        "ids_once": [e[0] for e in stored] == list(range(1, len(stored) + 1)),
    }


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=4, help="sessions one worker runs at once")
    parser.add_argument("--step-delay-ms", type=int, default=100, help="offline model step delay for part A")
    parser.add_argument("--failover-step-delay-ms", type=int, default=100)
    parser.add_argument("--lease-seconds", type=float, default=15.0)
    parser.add_argument("--stalled-seconds", type=float, default=5.0)
    parser.add_argument("--heartbeat-seconds", type=float, default=1.0)
    parser.add_argument("--pg", default=os.environ.get("FORGE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432"))
    args = parser.parse_args()
    env = {
        "FORGE_WORKER_CONCURRENCY": str(args.concurrency),
        "FORGE_RUN_LEASE_SECONDS": str(args.lease_seconds),
        "FORGE_WORKER_STALLED_SECONDS": str(args.stalled_seconds),
        "FORGE_WORKER_HEARTBEAT_SECONDS": str(args.heartbeat_seconds),
    }
    print(f"machine: {os.cpu_count()} CPUs, load average {_load()} (shared with other work)")
    print(f"settings: {args.sessions} sessions, {args.concurrency} per worker, step delay {args.step_delay_ms} ms, "
          f"lease {args.lease_seconds} s, stalled after {args.stalled_seconds} s, heartbeat {args.heartbeat_seconds} s")
    per_min: dict[int, float] = {}
    for workers in (1, 2):
        with Cluster(args.pg, workers, env | {"FORGE_OFFLINE_STEP_DELAY_MS": str(args.step_delay_ms)}) as cluster:
            res = asyncio.run(throughput(cluster.base, args.sessions))
        per_min[workers] = res["per_min"]
        print(
            f"A. {workers} worker(s): {res['finished']}/{args.sessions} documents in {res['wall_s']:.1f} s = "
            f"{res['per_min']:.2f} sessions/min; phase latency p50 {res['phase_p50']:.2f} s, "
            f"p95 {res['phase_p95']:.2f} s; errors {len(res['errors'])} {res['errors'][:3]}; load {_load()}"
        )
    delay = {"FORGE_OFFLINE_STEP_DELAY_MS": str(args.failover_step_delay_ms)}
    with Cluster(args.pg, 2, env | delay) as cluster:
        fo = asyncio.run(failover(cluster))
    print(
        f"B. failover: killed {fo.get('killed')} mid-EXPLORE; first event after the kill ({fo.get('first_event')}) "
        f"after {fo['failover_s']:.2f} s; document {fo.get('document')}; ids 1..n each once {fo.get('ids_once')}; "
        f"errors {fo['errors'][:3]}"
    )
    print(
        f"RESULT sessions_per_min_1w={per_min[1]:.2f} sessions_per_min_2w={per_min[2]:.2f} "
        f"failover_s={fo['failover_s']:.2f}"
    )


if __name__ == "__main__":
    main()

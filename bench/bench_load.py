"""Load benchmark: concurrent autopilot sessions, and one live phase fanned out to N SSE listeners.

Runs the real server (`forge serve`, uvicorn in a subprocess) on SQLite and/or PostgreSQL and prints
numbers — no assertions, no pass/fail. Per backend:

  A. --sessions (20) concurrent autopilot sessions (FORGE_OFFLINE_STEP_DELAY_MS=0), each on its own
     problem (PROBLEMS: twenty different ones, so no per-text cache serves one session from another): each is created,
     its stream opened, and every stream that ends with `done` awaiting input is answered with
     POST /autopilot {"rounds": 1} (the schema's default) whose SSE is followed, until a
     `knowledge_document` / `done` without awaiting input. Prints wall time (first create -> last
     session finished), events persisted (counted from GET /events pages afterwards), events/s =
     events / wall time, and errors: non-2xx responses, `error` events, streams cut before `done`
     (resumed with last_event_id), sessions without a document.
  B. A live phase watched by N listeners, for each N in --listeners (1,300,1000): a FRESH server
     (and fresh database) with FORGE_OFFLINE_STEP_DELAY_MS=100, one session, N listeners on
     GET /stream, all connected (response headers received; GET starts nothing) before POST /run
     starts the DECOMPOSE run. Per received frame that has an `id:` and is not a `heartbeat`:
     lag = receive time (time.time() when the frame is parsed) - the event's `created_at` (from
     GET /events after the phase; same machine, same clock). Prints lag p50/p99/max over all
     listeners x events ("all") and over only the events committed after the listener had sent its
     request ("live"; RESULT uses this: every event of the phase, not the session's opening
     phase_change committed before anyone connected), connect time (request sent -> response headers),
     phase duration (POST /run -> `done` seen by listener 1) and its ratio to N=1, stream cuts (no
     200, ended without `done`, an `error` event, or still open when the phase timed out), server
     RSS (VmRSS before the listeners, VmRSS after the phase, peak VmHWM — from /proc/<pid>/status;
     a server per N makes VmHWM that N's peak), and the CPU used by the server and by this client
     process during the phase.
  C. With --join-during, the same but the listeners connect while the phase runs (listener 1
     right after POST /run, then the other N-1 at once): a connection storm during the phase, whose
     late joiners also get the phase's start as replay. Phase duration there is listener 1's first
     event -> its `done`. Printed only; not in RESULT.

Design: the SSE client is an asyncio.Protocol (raw HTTP/1.1, chunked transfer-encoding, SSE lines),
~a few microseconds per frame, so one client process holds 1,000 streams; the printed client CPU %
and its largest event-loop stall show whether the client could be the bottleneck. One client process
is used on purpose: the machine has 2 cores and the server (one uvicorn process, plus PostgreSQL's
backends) needs the other one. RLIMIT_NOFILE is raised to its hard limit for this process and the
server. A phase that exceeds --phase-timeout (300 s) is reported as TIMEOUT (its duration then a lower
bound), its listeners are closed, and each event a still-open listener never received counts with
lag = cut-off - commit; part A stops after --sessions-timeout (600 s). PostgreSQL: a throwaway
database per server start (created through --pg, dropped afterwards). Numbers depend on what else
runs on the machine: the whole machine's CPU use is printed next to the server's.

Machine speed: `reference_loop_ms` (the fastest of three runs of 2M additions in a Python loop) is
printed before and after the run; the same commit's events/s moved ~1.5x between days here, and this
number moved with it, so compare runs by it (or alternate the commits in one sitting).

Ends with one line per backend and a combined line (the worse of the backends: min events/s, max p99,
max slowdown); fanout1000_p99_ms is the "live" lag p99 at the largest N (every event of the phase;
the session's opening phase_change, committed before anyone connected, is replay, and its "lag" is
mostly the time the 1,000 connections took), fanout_slowdown its phase duration / the N=1 phase duration:
    RESULT backend=<sqlite|postgresql> events_per_s=<float> fanout1000_p99_ms=<float> fanout_slowdown=<float>
    RESULT events_per_s=<float> fanout1000_p99_ms=<float> fanout_slowdown=<float>

With --pg-workers N, PostgreSQL runs as docker-compose.yml deploys it: FORGE_RUNNER=workers, the API
process enqueues and streams, N `forge worker` processes run the sessions (each up to
ceil(sessions / N) at once); "server CPU" is then the API's and the workers' together, and the RESULT
line says `backend=postgresql workers=N`. Otherwise sessions run in `forge serve`'s run processes
(FORGE_RUN_PROCESSES; --run-processes N sets it, "auto", the product's default, leaves it unset) and
"server CPU" is the API process's and its run processes' together.

Run: make bench-load
     backend/.venv/bin/python bench/bench_load.py [--backend sqlite|postgresql|both]
         [--sessions 20] [--listeners 1,300,1000] [--quick]   (--quick: 5 sessions, listeners 1,100)
         [--pg-workers N] [--run-processes auto|N]
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import json
import math
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

FORGE = Path(sys.executable).parent / "forge"
PROBLEM = "How can a hospital cut emergency wait times without more staff?"
# Part A gives each concurrent session its own problem: twenty copies of one problem would let
# per-text caches (term sets, domain scores, token counts) answer later sessions from earlier ones,
# which no real deployment sees.
PROBLEMS = (
    PROBLEM,
    "How can a small bakery reduce food waste at the end of each day?",
    "How can a city keep heat-wave deaths down among elderly people living alone?",
    "How can a regional airline cut delays caused by late baggage loading?",
    "How can a school district keep substitute teachers from quitting?",
    "How can a water utility find leaks in old pipes before they burst?",
    "How can a warehouse cut picking errors without slowing order fulfilment?",
    "How can a rural clinic keep vaccines cold during power cuts?",
    "How can an open-source project keep maintainers from burning out?",
    "How can a farm reduce soil erosion on steep fields without losing yield?",
    "How can a call centre shorten hold times during billing-cycle peaks?",
    "How can a museum attract teenagers without alienating its regular visitors?",
    "How can a bus network stay reliable when drivers call in sick?",
    "How can a hospital pharmacy prevent dispensing the wrong drug dose?",
    "How can a software team reduce incidents caused by configuration changes?",
    "How can a fishing cooperative avoid overfishing while keeping incomes stable?",
    "How can a library keep its study rooms fairly shared during exam weeks?",
    "How can a factory reduce energy use of compressed-air systems?",
    "How can a food bank match donations to what families actually need?",
    "How can a marathon organiser prevent heat stroke among runners?",
)
KEEP_DATA = frozenset(
    {"done", "error"}
)  # frames whose data the bench reads; others keep only type/id/time
MAX_STREAMS_PER_SESSION = 40
CLK_TCK = os.sysconf("SC_CLK_TCK")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Timeout|Exit)(: .*)?$")


# ---------------------------------------------------------------- a cheap SSE client (raw HTTP/1.1)


@dataclass(slots=True)
class Frame:
    t: float  # time.time() when the frame was parsed
    id: int | None  # None: the frame had no `id:` line
    type: str
    data: str | None  # kept only for KEEP_DATA types


class SSEConnection(asyncio.Protocol):
    """One HTTP/1.1 request; a 200 text/event-stream body is parsed into frames as bytes arrive."""

    def __init__(self, request: bytes, loop: asyncio.AbstractEventLoop) -> None:
        self.request = request
        self.status = 0
        self.frames: list[Frame] = []
        self.body = (
            bytearray()
        )  # the body when it is not an event stream (error responses)
        self.error: str | None = None
        self.complete = False  # the response ended properly (chunk terminator / full content-length)
        self.t_sent = 0.0
        self.t_headers: float | None = None
        self.headers_received: asyncio.Future[None] = loop.create_future()
        self.ended: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self._raw = bytearray()
        self._head_done = False
        self._sse = False
        self._chunked = False
        self._length: int | None = None
        self._chunk_state = "size"
        self._chunk_left = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._text = ""
        self._f_id: str | None = None
        self._f_event: str | None = None
        self._f_data: list[str] = []

    # asyncio callbacks
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.t_sent = time.time()
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        self._raw += data
        if not self._head_done:
            end = self._raw.find(b"\r\n\r\n")
            if end < 0:
                return
            self._parse_head(bytes(self._raw[:end]).decode("latin-1"))
            del self._raw[: end + 4]
        if self._chunked:
            self._dechunk()
        else:
            body = bytes(self._raw)
            self._raw.clear()
            if self._length is not None:
                body = body[: self._length]
                self._length -= len(body)
            self._body(body)
            if self._length == 0:
                self.complete = True
                self._finish()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.complete and self.error is None:
            self.error = (
                f"connection lost ({exc!r})"
                if exc
                else "connection closed before the response ended"
            )
        self._finish(close=False)

    # parsing
    def _parse_head(self, head: str) -> None:
        lines = head.split("\r\n")
        parts = lines[0].split(" ", 2)
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        self._chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        if "content-length" in headers:
            self._length = int(headers["content-length"])
        self._sse = self.status == 200 and headers.get("content-type", "").startswith(
            "text/event-stream"
        )
        self._head_done = True
        self.t_headers = time.time()
        if not self.headers_received.done():
            self.headers_received.set_result(None)
        if self._length == 0:
            self.complete = True
            self._finish()

    def _dechunk(self) -> None:
        raw = self._raw
        pos = 0
        while True:
            if self._chunk_state == "size":
                eol = raw.find(b"\r\n", pos)
                if eol < 0:
                    break
                size = int(bytes(raw[pos:eol]).split(b";")[0].strip() or b"0", 16)
                pos = eol + 2
                if size == 0:  # the last chunk (trailers, if any, are ignored)
                    del raw[:]
                    self.complete = True
                    self._finish()
                    return
                self._chunk_left, self._chunk_state = size, "data"
            elif self._chunk_state == "data":
                take = min(self._chunk_left, len(raw) - pos)
                if take <= 0:
                    break
                self._body(bytes(raw[pos : pos + take]))
                pos += take
                self._chunk_left -= take
                if self._chunk_left == 0:
                    self._chunk_state = "crlf"
            else:  # the CRLF after a chunk's data
                if len(raw) - pos < 2:
                    break
                pos += 2
                self._chunk_state = "size"
        del raw[:pos]

    def _body(self, data: bytes) -> None:
        if not data:
            return
        if not self._sse:
            self.body += data
            return
        buf = self._text + self._decoder.decode(data)
        hold = ""
        if buf.endswith("\r"):  # maybe the first half of a CRLF
            buf, hold = buf[:-1], "\r"
        lines = _LINE_BREAK.split(buf)
        self._text = lines.pop() + hold
        for line in lines:
            self._line(line)

    def _line(self, line: str) -> None:
        if not line:
            if self._f_data or self._f_event is not None or self._f_id is not None:
                t = time.time()
                kind = self._f_event or "message"
                fid = self._f_id
                self.frames.append(
                    Frame(
                        t,
                        int(fid) if fid is not None and fid.isdigit() else None,
                        kind,
                        "\n".join(self._f_data) if kind in KEEP_DATA else None,
                    )
                )
            self._f_id, self._f_event, self._f_data = None, None, []
            return
        if line[0] == ":":
            return
        name, _, value = line.partition(":")
        if value[:1] == " ":
            value = value[1:]
        if name == "data":
            self._f_data.append(value)
        elif name == "event":
            self._f_event = value
        elif name == "id":
            self._f_id = value

    def _finish(self, close: bool = True) -> None:
        if close and self.transport is not None:
            self.transport.close()
        if not self.headers_received.done():
            self.headers_received.set_result(None)
        if not self.ended.done():
            self.ended.set_result(None)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.abort()
        if self.error is None and not self.complete:
            self.error = "closed by the bench"
        self._finish(close=False)

    # results
    def event_frames(self) -> Iterator[Frame]:
        """Frames that carry an id and are not heartbeats (the ones that have a commit time)."""
        return (f for f in self.frames if f.id is not None and f.type != "heartbeat")

    def last(self, kind: str) -> Frame | None:
        for f in reversed(self.frames):
            if f.type == kind:
                return f
        return None


async def open_sse(
    host: str, port: int, method: str, path: str, body: bytes | None = None
) -> SSEConnection:
    loop = asyncio.get_running_loop()
    head = [
        f"{method} {path} HTTP/1.1",
        f"Host: {host}:{port}",
        "Accept: text/event-stream",
        "Connection: close",
    ]
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    request = ("\r\n".join(head) + "\r\n\r\n").encode() + (body or b"")
    conn = SSEConnection(request, loop)
    try:
        await loop.create_connection(lambda: conn, host, port)
    except OSError as exc:
        conn.error = f"connect failed: {exc!r}"
        conn._finish(close=False)
    return conn


# ---------------------------------------------------------------- helpers


def _raise_nofile() -> None:
    """Soft RLIMIT_NOFILE up to the hard limit (this process; the server gets it again in preexec_fn)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(
        resource.RLIMIT_NOFILE,
        (1 << 20 if hard == resource.RLIM_INFINITY else hard, hard),
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def _proc_status(pid: int) -> dict[str, int]:
    """VmRSS / VmHWM in kB from /proc/<pid>/status (empty when the process is gone)."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(("VmRSS:", "VmHWM:")):
                    name, value = line.split(":", 1)
                    out[name] = int(value.split()[0])
    except OSError:
        pass
    return out


def _proc_cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime
    except (OSError, IndexError, ValueError):
        return math.nan


def _run_process_pids(server_pid: int) -> list[int]:
    """The server's run processes (children running `forge.run_processes.child`)."""
    try:
        with open(f"/proc/{server_pid}/task/{server_pid}/children") as fh:
            children = [int(pid) for pid in fh.read().split()]
    except OSError:
        return []
    found = []
    for pid in children:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if b"forge.run_processes.child" in fh.read():
                    found.append(pid)
        except OSError:
            continue
    return found


def _machine_cpu_seconds() -> float:
    """Busy CPU seconds of the whole machine, all cores (from /proc/stat: everything but idle and iowait)."""
    try:
        with open("/proc/stat") as fh:
            ticks = [int(x) for x in fh.readline().split()[1:]]
        return (sum(ticks[:8]) - ticks[3] - ticks[4]) / CLK_TCK
    except (OSError, ValueError, IndexError):
        return math.nan


def _epoch(created_at: str) -> float:
    return datetime.fromisoformat(created_at.replace("Z", "+00:00")).timestamp()


def _mb(kb: int | None) -> str:
    return "n/a" if kb is None else f"{kb / 1024:.1f} MB"


async def _pg_execute(dsn: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class Server:
    """`forge serve` in a subprocess on a fresh database (temp dir for SQLite, a new PostgreSQL db);
    with `workers` (PostgreSQL), FORGE_RUNNER=workers and that many `forge worker` processes, each
    running up to `concurrency` sessions at once (the topology docker-compose.yml ships)."""

    def __init__(
        self,
        backend: str,
        step_delay_ms: int,
        pg: str,
        workers: int = 0,
        concurrency: int = 4,
        run_processes: str = "auto",
    ) -> None:
        self.backend = backend
        self.run_processes = run_processes
        self.workers = workers if backend == "postgresql" else 0
        self.concurrency = concurrency
        self.worker_procs: list[subprocess.Popen[bytes]] = []
        self.step_delay_ms = step_delay_ms
        self.pg = pg.rstrip("/")
        self.port = _free_port()
        self.host = "127.0.0.1"
        self.base = f"http://{self.host}:{self.port}"
        self.db_name: str | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.data_dir = Path(tempfile.mkdtemp(prefix="forge-bench-load-"))
        self._logs: list[Any] = []

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def cpu_seconds(self) -> float:
        """CPU used so far by the API process, its run processes (FORGE_RUN_PROCESSES) and every worker."""
        pids = [p.pid for p in [*([self.proc] if self.proc else []), *self.worker_procs]]
        pids += _run_process_pids(self.proc.pid) if self.proc else []
        return sum(_proc_cpu_seconds(pid) for pid in pids)

    def __enter__(self) -> Server:
        try:
            self._start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self) -> None:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("FORGE_", "ANTHROPIC_", "OPENAI_"))
            and k not in ("DATABASE_URL", "PORT", "HOST")
        }
        env.update(
            FORGE_DATA_DIR=str(self.data_dir),
            PORT=str(self.port),
            LOG_LEVEL="warning",
            FORGE_OFFLINE_STEP_DELAY_MS=str(self.step_delay_ms),
        )
        if self.backend == "postgresql":
            self.db_name = f"forge_bench_{uuid.uuid4().hex[:12]}"
            asyncio.run(
                _pg_execute(f"{self.pg}/postgres", f'CREATE DATABASE "{self.db_name}"')
            )
            env["DATABASE_URL"] = (
                f"{self.pg.replace('postgresql://', 'postgresql+asyncpg://', 1)}/{self.db_name}"
            )
        if self.workers:
            env.update(FORGE_RUNNER="workers", FORGE_WORKER_CONCURRENCY=str(self.concurrency))
        if self.run_processes != "auto" and not self.workers:
            env["FORGE_RUN_PROCESSES"] = self.run_processes
        migrated = subprocess.run(
            [str(FORGE), "migrate"],
            env=env,
            cwd=self.data_dir,
            capture_output=True,
            timeout=180,
            check=False,
        )
        if migrated.returncode != 0:
            raise RuntimeError(
                f"forge migrate failed: {migrated.stderr.decode(errors='replace')[-2000:]}"
            )
        self.proc = self._spawn("serve", "server.log", env)
        self.worker_procs = [self._spawn("worker", f"worker-{n}.log", env) for n in range(self.workers)]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"forge serve exited early: {self.log_tail()}")
            if any(w.poll() is not None for w in self.worker_procs):
                raise RuntimeError("a forge worker exited early (see worker-*.log)")
            try:
                if (
                    httpx.get(f"{self.base}/api/v1/health/ready", timeout=1).status_code
                    == 200
                ):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("forge serve did not become ready in 60 s")

    def _spawn(self, command: str, log_name: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
        """`forge <command>` with its output in `log_name` (closed with the server)."""
        log = open(self.data_dir / log_name, "wb")  # noqa: SIM115 - closed in __exit__
        self._logs.append(log)
        return subprocess.Popen(
            [str(FORGE), command],
            env=env,
            cwd=self.data_dir,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_raise_nofile,
        )

    def log_tail(self, chars: int = 1500) -> str:
        try:
            return (self.data_dir / "server.log").read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def exceptions(self, limit: int = 3) -> list[str]:
        """Distinct exception lines (the last line of each traceback) in the server's log, newest last."""
        seen: dict[str, None] = {}
        for line in self.log_tail(2_000_000).splitlines():
            if _EXCEPTION_LINE.match(line):
                seen[line.strip()[:200]] = None
        return list(seen)[-limit:]

    def __exit__(self, *_: object) -> None:
        for proc in [*self.worker_procs, *([self.proc] if self.proc else [])]:
            if proc.poll() is None:
                proc.terminate()
        for proc in [*self.worker_procs, *([self.proc] if self.proc else [])]:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        for log in self._logs:
            log.close()
        if self.db_name is not None:
            try:
                asyncio.run(
                    _pg_execute(
                        f"{self.pg}/postgres",
                        f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)',
                    )
                )
            except Exception as exc:
                print(
                    f"  warning: could not drop database {self.db_name}: {exc!r}",
                    flush=True,
                )
        shutil.rmtree(self.data_dir, ignore_errors=True)


async def _count_events(
    client: httpx.AsyncClient, sid: str
) -> tuple[int, dict[int, float], int]:
    """(events persisted, {id: created_at epoch}, non-2xx pages) from GET /events pages."""
    after, bad = 0, 0
    times: dict[int, float] = {}
    while True:
        r = await client.get(
            f"/api/v1/sessions/{sid}/events", params={"after": after, "limit": 500}
        )
        if r.status_code // 100 != 2:
            return len(times), times, bad + 1
        page = r.json()
        for e in page["events"]:
            times[int(e["id"])] = _epoch(e["created_at"])
        if not page["has_more"] or not page["events"]:
            return len(times), times, bad
        after = page["next_after"]


# ---------------------------------------------------------------- A: concurrent autopilot sessions


@dataclass
class SessionsStats:
    sids: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)
    error_events: list[str] = field(default_factory=list)
    cuts: int = 0
    without_document: int = 0
    finished: int = 0


async def _one_autopilot_session(
    srv: Server, client: httpx.AsyncClient, stats: SessionsStats, problem: str
) -> None:
    r = await client.post("/api/v1/sessions", json={"problem": problem})
    if r.status_code // 100 != 2:
        stats.http_errors.append(f"POST /sessions -> {r.status_code}")
        stats.without_document += 1
        return
    sid = r.json()["id"]
    stats.sids.append(sid)
    run = await client.post(f"/api/v1/sessions/{sid}/run")  # GET /stream only follows
    if run.status_code // 100 != 2:
        stats.http_errors.append(f"POST /run -> {run.status_code}")
        stats.without_document += 1
        stats.finished += 1
        return
    method, path, body = "GET", f"/api/v1/sessions/{sid}/stream", None
    last_id, got_document = 0, False
    try:
        for _ in range(MAX_STREAMS_PER_SESSION):
            conn = await open_sse(srv.host, srv.port, method, path, body)
            try:
                await conn.ended
            finally:
                conn.close()
            if conn.status // 100 != 2:
                detail = conn.error or bytes(conn.body[:200]).decode(errors="replace")
                stats.http_errors.append(
                    f"{method} {path.rsplit('/', 1)[-1]} -> {conn.status} {detail}"
                )
                break
            for f in conn.event_frames():
                last_id = max(last_id, f.id or 0)
                if f.type == "error":
                    stats.error_events.append(f.data or "")
                elif f.type == "knowledge_document":
                    got_document = True
            done = conn.last("done")
            if done is None:  # cut before `done`: resume after the last event seen
                stats.cuts += 1
                method, path, body = (
                    "GET",
                    f"/api/v1/sessions/{sid}/stream?last_event_id={last_id}",
                    None,
                )
                continue
            if json.loads(done.data or "{}").get("awaiting_input"):
                method, path, body = (
                    "POST",
                    f"/api/v1/sessions/{sid}/autopilot",
                    b'{"rounds": 1}',
                )
                continue
            break
    finally:
        stats.finished += 1
        if not got_document:
            stats.without_document += 1


async def run_sessions(srv: Server, n: int, limit_s: float) -> dict[str, Any]:
    stats = SessionsStats()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=50)
    async with httpx.AsyncClient(
        base_url=srv.base, timeout=120, limits=limits
    ) as client:
        cpu0 = (srv.cpu_seconds(), _machine_cpu_seconds())
        started = time.perf_counter()
        tasks = [
            asyncio.create_task(
                _one_autopilot_session(srv, client, stats, PROBLEMS[i % len(PROBLEMS)])
            )
            for i in range(n)
        ]
        _, pending = await asyncio.wait(tasks, timeout=limit_s)
        wall = time.perf_counter() - started
        cpu = (
            (srv.cpu_seconds() - cpu0[0]) / wall,
            (_machine_cpu_seconds() - cpu0[1]) / wall,
        )
        for t in pending:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for t in tasks:
            if not t.cancelled() and t.exception() is not None:
                stats.http_errors.append(f"client exception: {t.exception()!r}")
        events = 0
        for sid in stats.sids:
            count, _, bad = await _count_events(client, sid)
            events += count
            stats.http_errors += [f"GET /events -> non-2xx ({sid})"] * bad
    return {
        "stats": stats,
        "wall": wall,
        "events": events,
        "timed_out": len(pending),
        "n": n,
        "cpu": cpu,
        "workers_label": f" + {srv.workers} workers" if srv.workers else "",
        "server_exceptions": srv.exceptions(),
    }


def print_sessions(res: dict[str, Any]) -> float:
    s: SessionsStats = res["stats"]
    rate = res["events"] / res["wall"] if res["wall"] > 0 else math.nan
    errors = len(s.http_errors) + len(s.error_events) + s.without_document
    print(f"  A. {res['n']} concurrent autopilot sessions (step delay 0)")
    timeout_note = (
        f"  TIMEOUT: {res['timed_out']} sessions unfinished" if res["timed_out"] else ""
    )
    print(f"     wall time            {res['wall']:.2f} s{timeout_note}")
    print(
        f"     events persisted     {res['events']}  ({res['events'] / max(1, len(s.sids)):.0f} per session)"
    )
    print(f"     events/s             {rate:.1f}")
    print(
        f"     errors               {errors}  (non-2xx {len(s.http_errors)}, error events {len(s.error_events)}, "
        f"sessions without document {s.without_document}; streams cut and resumed {s.cuts})"
    )
    print(
        f"     CPU                  server{res['workers_label']} (+ run processes) {res['cpu'][0] * 100:.0f}% of a core, whole machine "
        f"{res['cpu'][1] * 100:.0f}% of {os.cpu_count()} cores"
    )
    if res["events"]:
        # The budget the rate lives in: CPU ms per event of the server with its run processes (and
        # workers); one process on one core persists at most 1000 / that many events per second.
        per_event = res["cpu"][0] * res["wall"] * 1000 / res["events"]
        print(
            f"     server CPU/event     {per_event:.2f} ms, run processes included  "
            f"(one core's ceiling: {1000 / per_event:.0f} events/s)"
        )
    for msg in (s.http_errors + s.error_events)[:5]:
        print(f"       - {msg[:200]}")
    for line in res["server_exceptions"]:
        print(f"     server log: {line}")
    return rate


# ---------------------------------------------------------------- B: one live phase, N listeners


async def _loop_stall_probe(stop: asyncio.Event, out: list[float]) -> None:
    """Largest oversleep of a 10 ms sleep: how late this client's event loop got to anything."""
    worst = 0.0
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        worst = max(worst, time.perf_counter() - t - 0.01)
    out.append(worst)


async def _rss_sampler(pid: int, stop: asyncio.Event, out: list[int]) -> None:
    while not stop.is_set():
        rss = _proc_status(pid).get("VmRSS")
        if rss is not None:
            out.append(rss)
        await asyncio.sleep(0.25)


async def run_fanout(srv: Server, n: int, phase_timeout: float, attach_first: bool) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=srv.base, timeout=120) as client:
        r = await client.post("/api/v1/sessions", json={"problem": PROBLEM})
        r.raise_for_status()
        sid = r.json()["id"]
        path = f"/api/v1/sessions/{sid}/stream"
        rss_before = _proc_status(srv.pid).get("VmRSS")
        stop = asyncio.Event()
        stall: list[float] = []
        rss_samples: list[int] = []
        probes = [
            asyncio.create_task(_loop_stall_probe(stop, stall)),
            asyncio.create_task(_rss_sampler(srv.pid, stop, rss_samples)),
        ]
        cpu_server0, cpu_client0, t0 = (
            srv.cpu_seconds(),
            time.process_time(),
            time.perf_counter(),
        )
        cpu_machine0 = _machine_cpu_seconds()
        t0_wall = time.time()
        deadline = t0 + phase_timeout

        if attach_first:  # every listener is connected and waiting before the run starts
            conns = list(await asyncio.gather(*(open_sse(srv.host, srv.port, "GET", path) for _ in range(n))))
            await asyncio.wait([c.headers_received for c in conns], timeout=phase_timeout)
            first = conns[0]
            run_started = time.time()
            (await client.post(f"/api/v1/sessions/{sid}/run")).raise_for_status()
        else:  # listeners join while the phase runs (a connection storm during the phase)
            run_started = time.time()
            (await client.post(f"/api/v1/sessions/{sid}/run")).raise_for_status()  # GET /stream only follows
            first = await open_sse(srv.host, srv.port, "GET", path)
            await asyncio.wait([first.headers_received], timeout=phase_timeout)
            conns = [first]
            if n > 1:
                conns += await asyncio.gather(
                    *(open_sse(srv.host, srv.port, "GET", path) for _ in range(n - 1))
                )
        await asyncio.wait(
            [c.ended for c in conns], timeout=max(0.0, deadline - time.perf_counter())
        )
        window = time.perf_counter() - t0
        cpu_server = srv.cpu_seconds() - cpu_server0
        cpu_client = time.process_time() - cpu_client0
        cpu_machine = _machine_cpu_seconds() - cpu_machine0
        open_at_cutoff = {id(c) for c in conns if not c.ended.done()}
        still_open = len(open_at_cutoff)
        for c in conns:
            c.close()
        stop.set()
        await asyncio.gather(*probes)
        status = _proc_status(srv.pid)
        children_rss = sum(_proc_status(pid).get("VmRSS", 0) for pid in _run_process_pids(srv.pid))
        _, created, _ = await _count_events(client, sid)

    lags_all: list[float] = []
    lags_live: list[float] = []
    unknown_ids = censored = 0
    cutoff = t0_wall + window
    cut_no_done = cut_error = cut_http = 0
    per_listener: list[int] = []
    for c in conns:
        got = 0
        for f in c.event_frames():
            at = created.get(f.id)  # type: ignore[arg-type]
            if at is None:
                unknown_ids += 1
                continue
            got += 1
            lag = f.t - at
            lags_all.append(lag)
            if at >= c.t_sent:
                lags_live.append(lag)
        per_listener.append(got)
        if (
            id(c) in open_at_cutoff
        ):  # timed out: an event it never got counts with lag >= cutoff - commit
            seen = {f.id for f in c.event_frames()}
            for seq, at in created.items():
                if seq not in seen and at <= cutoff:
                    censored += 1
                    lags_all.append(cutoff - at)
                    if at >= c.t_sent:
                        lags_live.append(cutoff - at)
        if id(c) in open_at_cutoff:
            pass  # counted as still open at the timeout
        elif c.status != 200:
            cut_http += 1
        elif any(f.type == "error" for f in c.frames):
            cut_error += 1
        elif c.last("done") is None:
            cut_no_done += 1
    lags_all.sort()
    lags_live.sort()
    connect = sorted(
        c.t_headers - c.t_sent for c in conns if c.t_headers is not None and c.status
    )
    first_events = list(first.event_frames())
    done = first.last("done")
    timed_out = done is None and (still_open > 0 or window >= phase_timeout)
    if (
        not first_events
    ):  # nothing at all: since listener 1's request (a lower bound when timed out)
        phase = cutoff - first.t_sent if timed_out else math.nan
    elif done is not None and attach_first:
        phase = done.t - run_started  # from POST /run to `done` at listener 1
    elif done is not None:
        phase = done.t - first_events[0].t
    else:  # no done for listener 1: up to its last frame (or the cut-off) — a lower bound
        phase = (cutoff if timed_out else first.frames[-1].t) - first_events[0].t
    return {
        "n": n,
        "attach_first": attach_first,
        "events": len(created),
        "lags_all": lags_all,
        "lags_live": lags_live,
        "unknown_ids": unknown_ids,
        "censored": censored,
        "connect": connect,
        "phase": phase,
        "timed_out": timed_out,
        "cuts": cut_no_done + cut_error + cut_http + still_open,
        "cut_detail": (cut_http, cut_no_done, cut_error, still_open),
        "errors_sample": [
            c.error or bytes(c.body[:120]).decode(errors="replace")
            for c in conns
            if c.status != 200 and id(c) not in open_at_cutoff
        ][:3],
        "per_listener": (min(per_listener), max(per_listener))
        if per_listener
        else (0, 0),
        "rss_before": rss_before,
        "rss_now": status.get("VmRSS"),
        "children_rss": children_rss,
        "rss_peak": status.get("VmHWM"),
        "rss_sampled_max": max(rss_samples) if rss_samples else None,
        "window": window,
        "cpu_server": cpu_server / window if window else math.nan,
        "cpu_client": cpu_client / window if window else math.nan,
        "cpu_machine": cpu_machine / window if window else math.nan,
        "stall": stall[0] if stall else math.nan,
        "phase_timeout": phase_timeout,
        "server_exceptions": srv.exceptions(),
    }


def print_fanout(res: dict[str, Any], base_phase: float | None) -> None:
    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.1f}"

    la, ll, cn = res["lags_all"], res["lags_live"], res["connect"]
    slowdown = res["phase"] / base_phase if base_phase else math.nan
    http, no_done, err, still = res["cut_detail"]
    how = "connected before POST /run" if res["attach_first"] else "joining while the phase runs"
    print(
        f"  {'B' if res['attach_first'] else 'C'}. N={res['n']} listeners {how}, one DECOMPOSE phase "
        f"(step delay 100 ms), {res['events']} events persisted"
    )
    print(
        f"     lag all    p50 {ms(_percentile(la, 50))} ms  p99 {ms(_percentile(la, 99))} ms  "
        f"max {ms(la[-1]) if la else 'nan'} ms  ({len(la)} frames)"
    )
    print(
        f"     lag live   p50 {ms(_percentile(ll, 50))} ms  p99 {ms(_percentile(ll, 99))} ms  "
        f"({len(ll)} frames committed after the listener's request; the rest were replay)"
    )
    print(
        f"     connect    p50 {ms(_percentile(cn, 50))} ms  p99 {ms(_percentile(cn, 99))} ms  "
        f"max {ms(cn[-1]) if cn else 'nan'} ms  (request sent -> response headers)"
    )
    if res["timed_out"]:
        print(
            f"     phase      TIMEOUT: no done within {res['phase_timeout']:g} s; >= {res['phase']:.2f} s, "
            f"x{slowdown:.2f}+ of N=1 (lags include {res['censored']} never-received events at cut-off - commit)"
        )
    else:
        print(f"     phase      {res['phase']:.2f} s  x{slowdown:.2f} of N=1")
    lo, hi = res["per_listener"]
    print(
        f"     cuts       {res['cuts']}  (no 200: {http}, ended without done: {no_done}, error event: {err}, "
        f"still open at the timeout: {still}); events received per listener {lo}..{hi}"
        + (
            f"; {res['unknown_ids']} frames with unknown ids"
            if res["unknown_ids"]
            else ""
        )
    )
    for msg in res["errors_sample"]:
        print(f"       - {msg}")
    for line in res["server_exceptions"]:
        print(f"     server log: {line}")
    print(
        f"     server RSS before {_mb(res['rss_before'])}, now {_mb(res['rss_now'])}, peak VmHWM {_mb(res['rss_peak'])}"
        f"; its run processes now {_mb(res['children_rss'])} together"
    )
    print(
        f"     CPU over {res['window']:.2f} s: server {res['cpu_server'] * 100:.0f}% of a core, "
        f"this client {res['cpu_client'] * 100:.0f}%, whole machine {res['cpu_machine'] * 100:.0f}% of "
        f"{os.cpu_count()} cores; client loop max stall {ms(res['stall'])} ms"
    )


# ---------------------------------------------------------------- driver


def _concurrency(args: argparse.Namespace) -> int:
    """Sessions per worker: enough for every session to run at once, as in one in-process server."""
    return max(1, math.ceil(args.sessions / max(1, args.pg_workers)))


def _label(backend: str, args: argparse.Namespace) -> str:
    workers = args.pg_workers if backend == "postgresql" else 0
    if workers:
        return f"{backend} workers={workers}"
    return backend if args.run_processes == "auto" else f"{backend} run_processes={args.run_processes}"


def run_backend(backend: str, args: argparse.Namespace) -> tuple[float, float, float]:
    topology = f" (FORGE_RUNNER=workers: the API + {args.pg_workers} forge worker processes)"
    print(f"== {backend}{topology if backend == 'postgresql' and args.pg_workers else ''}", flush=True)
    started = time.perf_counter()
    rate = p99 = slowdown = math.nan
    try:
        with Server(backend, 0, args.pg, args.pg_workers, _concurrency(args), args.run_processes) as srv:
            print(
                f"  run processes of forge serve: {len(_run_process_pids(srv.pid))} "
                f"(FORGE_RUN_PROCESSES={args.run_processes})"
            )
            rate = print_sessions(
                asyncio.run(run_sessions(srv, args.sessions, args.sessions_timeout))
            )
    except Exception as exc:  # a failed part is reported, the run goes on
        print(f"  A. failed: {exc!r}")
    sys.stdout.flush()
    p99, slowdown = _fanout_part(backend, args, attach_first=True)  # the RESULT: a phase watched live
    if args.join_during:
        _fanout_part(backend, args, attach_first=False)  # listeners connecting mid-phase: reported only
    print(
        f"  ({backend} took {time.perf_counter() - started:.1f} s; loadavg {os.getloadavg()[0]:.2f})",
        flush=True,
    )
    return rate, p99, slowdown


def _fanout_part(backend: str, args: argparse.Namespace, *, attach_first: bool) -> tuple[float, float]:
    """Each N on a fresh server; the largest N's lag p99 (ms) and phase slowdown against N=1."""
    p99 = slowdown = math.nan
    base_phase: float | None = None
    for n in args.listeners:
        try:
            with Server(backend, 100, args.pg, args.pg_workers, _concurrency(args), args.run_processes) as srv:
                res = asyncio.run(run_fanout(srv, n, args.phase_timeout, attach_first))
        except Exception as exc:
            print(f"  N={n} failed: {exc!r}")
            continue
        if n == 1:
            base_phase = res["phase"] if res["phase"] > 0 else None
        print_fanout(res, base_phase)
        sys.stdout.flush()
        if n == args.listeners[-1]:
            # Attached first, every event of the phase is live for every listener; only the session's
            # opening phase_change (committed at creation, before anyone connected) is replay.
            lags = res["lags_live"] if attach_first else res["lags_all"]
            p99 = _percentile(lags, 99) * 1000
            slowdown = res["phase"] / base_phase if base_phase else math.nan
    return p99, slowdown


def _worse(values: list[float], pick: Any) -> float:
    return math.nan if any(math.isnan(v) for v in values) else pick(values)


def _reference_loop_ms(additions: int = 2_000_000) -> float:
    """This machine's speed right now: the fastest of three runs of a plain Python loop, in ms.

    The same code's events/s moved by ~1.5x between days on the same kind of machine (other tenants,
    CPU frequency); printed before and after the run, it lets two runs' numbers be compared."""
    best = math.inf
    for _ in range(3):
        started, total = time.perf_counter(), 0
        for i in range(additions):
            total += i
        best = min(best, time.perf_counter() - started)
    return 1000 * best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--backend", choices=("sqlite", "postgresql", "both"), default="both"
    )
    parser.add_argument(
        "--sessions", type=int, help="concurrent autopilot sessions (20; --quick: 5)"
    )
    parser.add_argument(
        "--listeners",
        help="comma-separated N values (1,300,1000; --quick: 1,100); 1 is always run",
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--join-during",
        action="store_true",
        help="also run part C: listeners connect while the phase runs (not in RESULT)",
    )
    parser.add_argument(
        "--phase-timeout",
        type=float,
        default=300.0,
        help="seconds before a phase is reported TIMEOUT",
    )
    parser.add_argument(
        "--sessions-timeout",
        type=float,
        default=600.0,
        help="seconds before part A stops",
    )
    parser.add_argument(
        "--pg-workers",
        type=int,
        default=0,
        help="PostgreSQL only: run sessions on this many `forge worker` processes (FORGE_RUNNER=workers, "
        "as docker-compose.yml deploys), not in the API process (0, the default)",
    )
    parser.add_argument(
        "--run-processes",
        default="auto",
        help="FORGE_RUN_PROCESSES for `forge serve`: auto (the default: unset, one per core) or a number "
        "(0: sessions run in the server process)",
    )
    parser.add_argument(
        "--pg",
        default="postgresql://postgres@127.0.0.1:5432",
        help="PostgreSQL server (no database)",
    )
    args = parser.parse_args()
    args.sessions = args.sessions or (5 if args.quick else 20)
    listeners = args.listeners or ("1,100" if args.quick else "1,300,1000")
    args.listeners = sorted({1, *(int(x) for x in listeners.split(",") if x.strip())})
    _raise_nofile()
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    started = time.perf_counter()
    print(
        f"bench_load: sessions={args.sessions} listeners={','.join(map(str, args.listeners))} "
        f"RLIMIT_NOFILE={resource.getrlimit(resource.RLIMIT_NOFILE)[0]} cores={os.cpu_count()} "
        f"loadavg={os.getloadavg()[0]:.2f} reference_loop_ms={_reference_loop_ms():.0f}",
        flush=True,
    )
    results = {b: run_backend(b, args) for b in backends}
    print(f"total {time.perf_counter() - started:.1f} s; reference_loop_ms={_reference_loop_ms():.0f} at the end")
    for b, (rate, p99, slowdown) in results.items():
        print(
            f"RESULT backend={_label(b, args)} events_per_s={rate:.1f} fanout1000_p99_ms={p99:.1f} fanout_slowdown={slowdown:.2f}"
        )
    rates, p99s, slows = zip(*results.values(), strict=True)
    print(
        f"RESULT events_per_s={_worse(list(rates), min):.1f} fanout1000_p99_ms={_worse(list(p99s), max):.1f} "
        f"fanout_slowdown={_worse(list(slows), max):.2f}"
    )


if __name__ == "__main__":
    main()

"""`forge serve` with run processes (FORGE_RUN_PROCESSES): sessions run in child processes, whose
events reach the server's streams; a child killed with -9 fails its run at once (RUN_FAILED, done)
and is replaced, and the session resumes to its document on POST /run; the children die with the
server, and a restarted server resumes their sessions.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path

import httpx
from httpx_sse import aconnect_sse
from support.event_log import describe, log_problems, read_event_log, tail
from support.forge_server import ForgeProcess
from support.sse_client import LIVE_TYPES, Received

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
TIMEOUT = httpx.Timeout(60.0)
CHILD_MODULE = b"forge.run_processes.child"


def run_process_pids(server_pid: int) -> list[int]:
    """The server's children that are run processes (by their command line)."""
    try:
        children = Path(f"/proc/{server_pid}/task/{server_pid}/children").read_text().split()
    except FileNotFoundError:
        return []
    found = []
    for pid in map(int, children):
        try:
            if CHILD_MODULE in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except FileNotFoundError:
            continue
    return found


def metric_total(exposition: str, series: str) -> float:
    """The sum of the samples whose line starts with `series` (all label sets when it has none)."""
    return sum(float(line.rsplit(" ", 1)[1]) for line in exposition.splitlines() if line.startswith(series))


def is_alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0]
    except FileNotFoundError:
        return False
    return state != "Z"


async def wait_for(condition_met: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        if condition_met():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"after {seconds:.0f} s: {what}")


async def read_stream(
    http: httpx.AsyncClient,
    method: str,
    url: str,
    into: list[Received],
    after_each: Callable[[list[Received]], None] = lambda seen: None,
    **kw: object,
) -> None:
    """Stored events of one SSE response into `into`; `after_each` sees them as each one arrives."""
    async with aconnect_sse(http, method, url, **kw) as source:
        assert source.response.status_code == 200, await source.response.aread()
        async for sse in source.aiter_sse():
            if sse.event == "heartbeat" or sse.event in LIVE_TYPES:
                continue
            into.append(Received(int(sse.id), sse.event, json.loads(sse.data)))
            after_each(into)


async def drive_to_document(http: httpx.AsyncClient, sid: str, seen: list[Received]) -> None:
    """Answer each review with /autopilot until the document (or a stream that ends otherwise)."""
    base = f"/api/v1/sessions/{sid}"
    while not any(e.type == "knowledge_document" for e in seen):
        last = seen[-1]
        assert last.type == "done" and last.data == {"error": False, "awaiting_input": True}, tail(seen)
        await read_stream(http, "POST", f"{base}/autopilot", seen)


async def serve_with_run_processes(
    database_url: str, tmp_path: Path, processes: int, step_delay_ms: int
) -> ForgeProcess:
    return await ForgeProcess.start(
        database_url,
        tmp_path,
        step_delay_ms=step_delay_ms,
        name="server",
        extra_env={"FORGE_RUN_PROCESSES": str(processes)},
    )


async def test_sessions_run_in_child_processes_that_die_with_the_server(database_url: str, tmp_path: Path) -> None:
    server = await serve_with_run_processes(database_url, tmp_path, 2, step_delay_ms=0)
    try:
        children = run_process_pids(server.process.pid)
        assert len(children) == 2, f"run processes of the server: {children}\n{server.log_tail()}"
        async with httpx.AsyncClient(base_url=server.base_url, timeout=TIMEOUT) as http:
            sids = []
            for n in range(3):
                created = await http.post("/api/v1/sessions", json={"problem": f"{PROBLEM} (ward {n})"})
                assert created.status_code == 201, created.text
                sids.append(created.json()["id"])

            async def one(sid: str) -> list[Received]:
                seen: list[Received] = []
                started = await http.post(f"/api/v1/sessions/{sid}/run")
                assert started.status_code == 200 and started.json()["started"], started.text
                await read_stream(http, "GET", f"/api/v1/sessions/{sid}/stream", seen)
                await drive_to_document(http, sid, seen)
                return seen

            seen_by_session = await asyncio.gather(*(one(sid) for sid in sids))
            for sid, seen in zip(sids, seen_by_session, strict=True):
                log = await read_event_log(http, sid)
                assert not log_problems(log), log_problems(log)
                assert [(e.id, e.type) for e in seen] == [(e.id, e.type) for e in log]  # every event once, in order
                session = (await http.get(f"/api/v1/sessions/{sid}")).json()
                assert (session["status"], session["running"]) == ("crystallized", False)
            # The children's model calls and run durations are the server's metrics, by provider.
            exposition = (await http.get("/metrics")).text
            assert metric_total(exposition, 'forge_model_calls_total{provider="offline"}') > 0, exposition
            runs = sum(1 for seen in seen_by_session for e in seen if e.type == "done")
            assert metric_total(exposition, "forge_phase_run_seconds_count") == runs
        assert run_process_pids(server.process.pid) == children  # the same children ran every session
    finally:
        server.kill()
        await server.wait_exit()
    await wait_for(lambda: not any(map(is_alive, children)), 10, f"run processes {children} outlived the server")


async def test_a_run_process_killed_mid_run_fails_the_run_at_once_and_the_session_resumes(
    database_url: str, tmp_path: Path
) -> None:
    server = await serve_with_run_processes(database_url, tmp_path, 1, step_delay_ms=100)
    try:
        (child,) = run_process_pids(server.process.pid)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=TIMEOUT) as http:
            created = await http.post("/api/v1/sessions", json={"problem": PROBLEM})
            sid = created.json()["id"]
            base = f"/api/v1/sessions/{sid}"
            seen: list[Received] = []
            assert (await http.post(f"{base}/run")).json()["started"]

            def kill_child_at_the_second_tool_call(seen: list[Received]) -> None:
                if seen[-1].type == "tool_call" and sum(e.type == "tool_call" for e in seen) == 2:
                    os.kill(child, signal.SIGKILL)

            await read_stream(http, "GET", f"{base}/stream", seen, kill_child_at_the_second_tool_call)
            ending = [describe(e) for e in seen[-2:]]
            assert [e.type for e in seen[-2:]] == ["error", "done"], f"the stream ended in {ending}"
            assert seen[-2].data["code"] == "RUN_FAILED" and seen[-1].data["error"] is True
            assert (await http.get(base)).json()["running"] is False

            await wait_for(lambda: len(run_process_pids(server.process.pid)) == 1, 15, "no new run process")
            (replacement,) = run_process_pids(server.process.pid)
            assert replacement != child
            resumed = await http.post(f"{base}/run")
            assert resumed.status_code == 200 and resumed.json()["started"], resumed.text
            await read_stream(http, "GET", f"{base}/stream", seen, headers={"Last-Event-ID": str(seen[-1].id)})
            await drive_to_document(http, sid, seen)
            log = await read_event_log(http, sid)
        assert not log_problems(log), log_problems(log)
        assert [(e.id, e.type) for e in seen] == [(e.id, e.type) for e in log]
        assert any(e.type == "phase_change" and e.data.get("resumed") for e in log)
    finally:
        server.kill()
        await server.wait_exit()


async def test_cancel_and_delete_stop_runs_in_a_run_process_which_then_takes_new_runs(
    database_url: str, tmp_path: Path
) -> None:
    server = await serve_with_run_processes(database_url, tmp_path, 1, step_delay_ms=100)
    try:
        (child,) = run_process_pids(server.process.pid)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=TIMEOUT) as http:
            sids = [(await http.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"] for _ in range(3)]
            cancelled, deleted, later = sids
            for sid in (cancelled, deleted):
                assert (await http.post(f"/api/v1/sessions/{sid}/run")).json()["started"]
            await wait_for_tool_call(http, cancelled)

            answer = await http.post(f"/api/v1/sessions/{cancelled}/cancel")
            assert answer.status_code == 200 and answer.json()["status"] == "cancelled", answer.text
            assert answer.json()["running"] is False
            log = await read_event_log(http, cancelled)
            assert [e.type for e in log[-2:]] == ["error", "done"] and log[-2].data["code"] == "CANCELLED", tail(log)
            assert (await http.delete(f"/api/v1/sessions/{deleted}")).status_code == 204
            assert (await http.get(f"/api/v1/sessions/{deleted}")).status_code == 404

            seen: list[Received] = []
            assert (await http.post(f"/api/v1/sessions/{later}/run")).json()["started"]
            await read_stream(http, "GET", f"/api/v1/sessions/{later}/stream", seen)
            assert seen[-1].type == "done" and seen[-1].data == {"error": False, "awaiting_input": True}, tail(seen)
        assert run_process_pids(server.process.pid) == [child]  # the same child: cancelling killed nothing
    finally:
        server.kill()
        await server.wait_exit()


async def wait_for_tool_call(http: httpx.AsyncClient, sid: str) -> None:
    """Until the run's first tool call is committed (the run is under way in the child)."""
    async with aconnect_sse(http, "GET", f"/api/v1/sessions/{sid}/stream") as source:
        async for sse in source.aiter_sse():
            if sse.event == "tool_call":
                return
    raise AssertionError(f"the stream of {sid} ended before a tool call")

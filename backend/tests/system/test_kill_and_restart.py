"""`kill -9` of the server at a bad instant, a restart on the same database, and a reconnect with
Last-Event-ID: the session ends in its next review (then its document), and its log stays whole.

Each test drives a session through the real HTTP API (POST /run, then POST /autopilot at each
review), SIGKILLs `forge serve` the moment the client reads the event of its kill point, starts a new
server on the same database, checks that nothing runs until a client asks (no GET starts work), POSTs
/run (which resumes the interrupted phase, or is a 409 when the session waits for its review),
reopens GET /stream after the last event id the client saw, and drives on to the document.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from httpx_sse import aconnect_sse
from support.event_log import describe, log_problems, read_event_log, tail
from support.forge_server import RUN_LEASE_SECONDS, ForgeProcess
from support.sse_client import LIVE_TYPES, Received

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
STEP_DELAY_MS = 100  # each model step waits this long, so a phase lasts long enough to be killed mid-way
RESTARTED_STEP_DELAY_MS = 0  # nothing is killed after the restart: the model runs at full speed
DRIVE_SECONDS = 120.0
TIMEOUT = httpx.Timeout(60.0)


def _last(seen: list[Received], event_type: str) -> Received | None:
    return next((e for e in reversed(seen) if e.type == event_type), None)


def _phase(seen: list[Received]) -> str | None:
    change = _last(seen, "phase_change")
    return change.data["phase"] if change else None


def _after_decompose_review_accepted(seen: list[Received]) -> bool:
    return seen[-1].type == "user_input" and seen[-1].data["type"] == "decompose_review"


def _after_second_explore_tool_call(seen: list[Received]) -> bool:
    if seen[-1].type != "tool_call" or _phase(seen) != "explore":
        return False
    start = max(i for i, e in enumerate(seen) if e.type == "phase_change")
    return sum(e.type == "tool_call" for e in seen[start:]) == 2


def _during_crystallize(seen: list[Received]) -> bool:
    return seen[-1].type == "phase_change" and seen[-1].data["phase"] == "crystallize"


def _after_explore_pauses(seen: list[Received]) -> bool:
    review = _last(seen, "review_explore")
    return seen[-1].type == "done" and seen[-1].data["awaiting_input"] and review is not None


KILL_POINTS: dict[str, Callable[[list[Received]], bool]] = {
    "after_the_decompose_review_is_accepted": _after_decompose_review_accepted,
    "mid_explore_after_its_second_tool_call": _after_second_explore_tool_call,
    "during_crystallize": _during_crystallize,
    "when_explore_pauses_before_its_review": _after_explore_pauses,
}


@dataclass
class Client:
    """What the client saw: events before the kill, then events after the restart (heartbeats left out)."""

    sid: str = ""
    before: list[Received] = field(default_factory=list)
    after: list[Received] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def seen(self) -> list[Received]:
        return self.before + self.after


async def _stream(
    http: httpx.AsyncClient,
    client: Client,
    into: list[Received],
    method: str,
    url: str,
    kill: Callable[[], bool] = lambda: False,
    **kw: Any,
) -> bool:
    """Read one SSE response into `into`; False when the server refused it (recorded as a problem) or
    `kill()` said it killed the server (reading stops at once)."""
    async with aconnect_sse(http, method, url, **kw) as source:
        response = source.response
        if response.status_code != 200:
            await response.aread()
            client.problems.append(f"{method} {url} -> {response.status_code} {response.text}")
            return False
        async for sse in source.aiter_sse():
            if sse.event == "heartbeat" or sse.event in LIVE_TYPES:
                continue  # live frames carry no id (httpx-sse repeats the last one) and are never stored
            into.append(Received(int(sse.id), sse.event, json.loads(sse.data)))
            if kill():
                return False
    return True


def _finished(seen: list[Received]) -> bool:
    return any(e.type == "knowledge_document" for e in seen)


async def _drive_until_killed(
    server: ForgeProcess, client: Client, kill_point: Callable[[list[Received]], bool]
) -> None:
    def kill() -> bool:
        if kill_point(client.before):
            server.kill()
            return True
        return False

    async with httpx.AsyncClient(base_url=server.base_url, timeout=TIMEOUT) as http:
        created = await http.post("/api/v1/sessions", json={"problem": PROBLEM})
        assert created.status_code == 201, created.text
        client.sid = created.json()["id"]
        base = f"/api/v1/sessions/{client.sid}"
        started = await http.post(f"{base}/run")
        assert started.status_code == 200 and started.json()["started"], started.text
        going = await _stream(http, client, client.before, "GET", f"{base}/stream", kill)
        while going:
            assert not _finished(client.before), "the session finished before its kill point"
            going = await _stream(http, client, client.before, "POST", f"{base}/autopilot", kill)
    assert not client.problems, f"before the kill: {client.problems}; the client saw {tail(client.before)}"
    await server.wait_exit()


async def _check_not_running(http: httpx.AsyncClient, client: Client, when: str) -> None:
    session = await http.get(f"/api/v1/sessions/{client.sid}")
    assert session.status_code == 200, session.text
    if session.json()["running"] is not False:
        client.problems.append(f"GET /sessions/{{id}} says running: true {when}")


async def _wait_lease_expiry(http: httpx.AsyncClient, client: Client, postgresql: bool) -> None:
    """SQLite is one process: a restarted server knows at once that nothing runs. On PostgreSQL the
    dead process's run lease reads as a live run (it could be another replica's) until it expires."""
    if not postgresql:
        return
    deadline = asyncio.get_running_loop().time() + RUN_LEASE_SECONDS + 5
    while asyncio.get_running_loop().time() < deadline:
        if (await http.get(f"/api/v1/sessions/{client.sid}")).json()["running"] is False:
            return
        await asyncio.sleep(0.2)


async def _resume(http: httpx.AsyncClient, client: Client) -> None:
    """POST /run: it resumes an interrupted phase (200, started) and refuses a session that waits for its
    review (409: the next POST /autopilot starts the next phase)."""
    session = (await http.get(f"/api/v1/sessions/{client.sid}")).json()
    resumed = await http.post(f"/api/v1/sessions/{client.sid}/run")
    expected = 409 if session["awaiting_input_type"] is not None else 200
    if resumed.status_code != expected or (expected == 200 and not resumed.json()["started"]):
        client.problems.append(
            f"POST /run after the restart -> {resumed.status_code} {resumed.text}; expected {expected}"
        )


async def _drive_after_restart(server: ForgeProcess, client: Client, postgresql: bool) -> None:
    """POST /run, reopen the stream after the last event seen, then answer each review with /autopilot until the
    document; a stream that ends in anything else is recorded as a problem and ends the drive."""
    cursor = client.before[-1].id
    base = f"/api/v1/sessions/{client.sid}"
    async with httpx.AsyncClient(base_url=server.base_url, timeout=TIMEOUT) as http:
        await _wait_lease_expiry(http, client, postgresql)
        await _check_not_running(
            http, client, "after the restart (and the lease's expiry), before anything reopened the stream"
        )
        await _resume(http, client)
        headers = {"Last-Event-ID": str(cursor)}
        if not await _stream(http, client, client.after, "GET", f"{base}/stream", headers=headers):
            return
        while not _finished(client.seen):
            last = client.seen[-1]
            if not (last.type == "done" and last.data == {"error": False, "awaiting_input": True}):
                client.problems.append(
                    f"a stream after the restart ended in {describe(last)}, not in a review or the document; "
                    f"the client saw after the restart: {tail(client.after)}"
                )
                return
            await _check_not_running(http, client, f"once the stream ended in {describe(last)}")
            if not await _stream(http, client, client.after, "POST", f"{base}/autopilot"):
                return
        last = client.seen[-1]
        if not (last.type == "done" and last.data == {"error": False, "awaiting_input": False}):
            client.problems.append(f"the document's stream ended in {describe(last)}, not done(error: false)")
        await _check_not_running(http, client, "once the document was streamed")


def _history_problems(client: Client, log: list[Received]) -> list[str]:
    """Nothing the client saw is lost; the reconnect gave exactly the log after the client's cursor."""
    problems: list[str] = []
    cursor = client.before[-1].id
    if [e.id for e in client.before] != list(range(1, cursor + 1)):
        problems.append(f"the client's own stream had a gap before the kill: {[e.id for e in client.before]}")
    by_id = {e.id: e.type for e in log}
    lost = [describe(e) for e in client.before if by_id.get(e.id) != e.type]
    if lost:
        problems.append(f"events the client saw before the kill are gone from the log or changed type: {lost}")
    later = [e for e in log if e.id > cursor]
    if [(e.id, e.type) for e in client.after] != [(e.id, e.type) for e in later]:
        problems.append(
            f"after reconnecting with Last-Event-ID {cursor} the client must get exactly the log after it; "
            f"got {[describe(e) for e in client.after]}, the log has {[describe(e) for e in later]}"
        )
    return problems


@pytest.mark.parametrize("kill_point", list(KILL_POINTS))
async def test_a_session_killed_with_sigkill_resumes_to_its_document_with_its_log_whole(
    database_url: str, tmp_path: Path, kill_point: str
) -> None:
    client = Client()
    first = await ForgeProcess.start(database_url, tmp_path, step_delay_ms=STEP_DELAY_MS, name="first")
    try:
        await _drive_until_killed(first, client, KILL_POINTS[kill_point])
    finally:
        first.kill()
        await first.wait_exit()
    second = await ForgeProcess.start(database_url, tmp_path, step_delay_ms=RESTARTED_STEP_DELAY_MS, name="second")
    try:
        try:
            async with asyncio.timeout(DRIVE_SECONDS):
                await _drive_after_restart(second, client, database_url.startswith("postgresql"))
        except TimeoutError:
            client.problems.append(f"no document {DRIVE_SECONDS:.0f} s after the restart: {tail(client.after)}")
        async with httpx.AsyncClient(base_url=second.base_url, timeout=TIMEOUT) as http:
            log = await read_event_log(http, client.sid)
            document = await http.get(f"/api/v1/sessions/{client.sid}/document")
            session = (await http.get(f"/api/v1/sessions/{client.sid}")).json()
    finally:
        second.kill()
        await second.wait_exit()

    problems = list(client.problems)
    if document.status_code != 200:
        problems.append(f"GET /document -> {document.status_code} {document.text}")
    if (session["status"], session["running"]) != ("crystallized", False):
        problems.append(f"at the end the session is {session['status']}, running: {session['running']}")
    markdowns = [e.data["markdown"] for e in log if e.type == "knowledge_document"]
    if document.status_code == 200 and markdowns != [document.text]:
        problems.append(f"the log holds {len(markdowns)} knowledge_document event(s), not exactly the one served")
    problems += _history_problems(client, log) + log_problems(log)
    assert not problems, f"killed {kill_point} (after {describe(client.before[-1])}):\n" + "\n".join(
        [*problems, f"server log after the restart:\n{second.log_tail(12)}"]
    )

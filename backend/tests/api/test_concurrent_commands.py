"""Commands that race each other: exactly one wins, the others are refused with a message (409, or 404
once the session is deleted), nothing is applied twice and nothing answers 5xx; on SQLite and PostgreSQL.

The races run in the in-process ASGI app (`client`): each request runs the app until its response is
complete, so a 500 shows up as the app's exception (collected by `gather`, reported as a failure).
The last test needs responses that really stream, so it serves the app with uvicorn on a free port.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from httpx_sse import EventSource
from support.event_log import describe, read_event_log, rerun_problems, tail, tool_pairing_problems
from support.forge_server import serve_in_process
from support.reviews import REVIEW_EVENTS, review_for
from support.sse_client import Received, parse_sse_body, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
DECOMPOSE_REVIEW = {"type": "decompose_review", "selected_reframings": [0]}


@dataclass(frozen=True)
class Reply:
    status: int
    detail: Any  # the JSON `detail` of a refusal
    events: list[Received]  # the SSE events of a 200


async def _send(client: httpx.AsyncClient, method: str, url: str, **kwargs: Any) -> Reply:
    response = await client.request(method, url, **kwargs)
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        return Reply(response.status_code, None, parse_sse_body(response.text))
    is_json = response.headers.get("content-type", "").startswith("application/json")
    body = response.json() if is_json else response.text
    return Reply(response.status_code, body.get("detail") if isinstance(body, dict) else body, [])


async def _at_once(*requests: Any) -> list[Reply]:
    """Run the requests concurrently; an exception raised by the app (a 500 behind a server) fails the test."""
    results = await asyncio.gather(*requests, return_exceptions=True)
    crashed = [r for r in results if isinstance(r, BaseException)]
    assert not crashed, f"a concurrent command crashed the app (a 500 behind a real server): {crashed!r}"
    replies = [r for r in results if isinstance(r, Reply)]
    assert all(r.status < 500 for r in replies), [(r.status, r.detail) for r in replies]
    return replies


def _refused(reply: Reply, *statuses: int) -> bool:
    return reply.status in statuses and isinstance(reply.detail, str) and bool(reply.detail.strip())


async def _paused_at_decompose_review(client: httpx.AsyncClient) -> str:
    created = await client.post("/api/v1/sessions", json={"problem": PROBLEM})
    assert created.status_code == 201, created.text
    sid = str(created.json()["id"])
    events = await run_and_stream(client, sid)
    assert [e.type for e in events][-2:] == ["review_decompose", "done"], tail(events)
    return sid


def _count(log: list[Received], event_type: str, **data: Any) -> int:
    return sum(e.type == event_type and all(e.data.get(k) == v for k, v in data.items()) for e in log)


def _brief(session: dict[str, Any]) -> dict[str, Any]:
    return {k: session[k] for k in ("status", "current_phase", "running", "awaiting_input_type")}


def _one_review_applied(log: list[Received]) -> None:
    """The decompose review took effect once: one user_input, one EXPLORE run that paused once."""
    assert _count(log, "user_input") == 1, [describe(e) for e in log if e.type == "user_input"]
    assert _count(log, "phase_change", phase="explore") == 1, [describe(e) for e in log if e.type == "phase_change"]
    assert _count(log, "review_explore") == 1 and _count(log, "done", awaiting_input=True) == 2, tail(log)
    problems = tool_pairing_problems(log) + rerun_problems(log)
    assert not problems, problems


@pytest.mark.parametrize("copies", [2, 5])
async def test_the_same_review_posted_at_once_is_applied_once_and_the_copies_get_409(
    client: httpx.AsyncClient, copies: int
) -> None:
    sid = await _paused_at_decompose_review(client)
    url = f"/api/v1/sessions/{sid}/user-input"
    replies = await _at_once(*(_send(client, "POST", url, json=DECOMPOSE_REVIEW) for _ in range(copies)))
    assert sorted(r.status for r in replies) == [200] + [409] * (copies - 1), [(r.status, r.detail) for r in replies]
    assert all(_refused(r, 409) for r in replies if r.status != 200), [r.detail for r in replies]
    winner = next(r for r in replies if r.status == 200)
    assert winner.events[0].type == "user_input" and winner.events[-1].type == "done", tail(winner.events)
    _one_review_applied(await read_event_log(client, sid))


async def test_two_autopilot_posts_at_once_answer_the_review_once(client: httpx.AsyncClient) -> None:
    sid = await _paused_at_decompose_review(client)
    url = f"/api/v1/sessions/{sid}/autopilot"
    replies = await _at_once(_send(client, "POST", url), _send(client, "POST", url))
    assert sorted(r.status for r in replies) == [200, 409], [(r.status, r.detail) for r in replies]
    assert all(_refused(r, 409) for r in replies if r.status != 200), [r.detail for r in replies]
    _one_review_applied(await read_event_log(client, sid))


async def _race(client: httpx.AsyncClient, sid: str, other: tuple[str, str], other_first: bool) -> tuple[Reply, Reply]:
    review = _send(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=DECOMPOSE_REVIEW)
    command = _send(client, *other)
    if other_first:
        command_reply, review_reply = await _at_once(command, review)
    else:
        review_reply, command_reply = await _at_once(review, command)
    return review_reply, command_reply


@pytest.mark.parametrize("cancel_first", [False, True], ids=["review_sent_first", "cancel_sent_first"])
async def test_a_review_racing_a_cancel_is_either_refused_or_applied_before_the_cancel(
    client: httpx.AsyncClient, cancel_first: bool
) -> None:
    """Both orders are fine (a running session can be cancelled); a review applied after the cancel, a
    lost cancel or a run that goes on after it are not."""
    sid = await _paused_at_decompose_review(client)
    review, cancel = await _race(client, sid, ("POST", f"/api/v1/sessions/{sid}/cancel"), cancel_first)
    assert cancel.status == 200, (cancel.status, cancel.detail)
    assert review.status == 200 or _refused(review, 409), (review.status, review.detail)
    applied = review.status == 200
    log = await read_event_log(client, sid)
    session = (await client.get(f"/api/v1/sessions/{sid}")).json()
    assert (session["status"], session["running"]) == ("cancelled", False), (review.status, _brief(session))
    assert session["current_phase"] == ("explore" if applied else "decompose"), (review.status, _brief(session))
    assert _count(log, "user_input") == (1 if applied else 0), tail(log)
    # Nothing runs on after the cancel: the log ends with it, and it is there once.
    assert [e.type for e in log[-2:]] == ["error", "done"] and log[-2].data["code"] == "CANCELLED", tail(log)
    assert _count(log, "error", code="CANCELLED") == 1, tail(log)


@pytest.mark.parametrize("delete_first", [False, True], ids=["review_sent_first", "delete_sent_first"])
async def test_a_review_racing_a_delete_is_refused_or_applied_before_the_delete_and_never_5xx(
    client: httpx.AsyncClient, delete_first: bool
) -> None:
    sid = await _paused_at_decompose_review(client)
    review, delete = await _race(client, sid, ("DELETE", f"/api/v1/sessions/{sid}"), delete_first)
    assert delete.status == 204, (delete.status, delete.detail)
    assert review.status == 200 or _refused(review, 404, 409), (review.status, review.detail)
    if review.status == 200:  # applied first: its stream shows the run start, and no run that failed
        events = review.events
        if events and events[-1].id is None:  # the server ended the stream, saying why: the deletion
            assert events[-1].type == "error" and events[-1].data["code"] == "SESSION_DELETED", tail(events)
            events = events[:-1]
        assert not events or events[0].type == "user_input", tail(review.events)
        failed = [describe(e) for e in events if e.type == "error" or (e.type == "done" and e.data["error"])]
        assert not failed, f"the review's run failed on the deleted session: {failed}"
    assert (await client.get(f"/api/v1/sessions/{sid}")).status_code == 404
    assert (await client.get(f"/api/v1/sessions/{sid}/events")).status_code == 404
    listed = (await client.get("/api/v1/sessions", params={"limit": 100})).json()["items"]
    assert sid not in [s["id"] for s in listed]


async def test_two_runs_posted_at_once_on_a_new_session_start_one_run(client: httpx.AsyncClient) -> None:
    created = await client.post("/api/v1/sessions", json={"problem": PROBLEM})
    sid = str(created.json()["id"])
    run_url = f"/api/v1/sessions/{sid}/run"
    runs = await asyncio.gather(client.post(run_url), client.post(run_url))
    assert [r.status_code for r in runs] == [200, 200], [r.text for r in runs]
    assert sorted(r.json()["started"] for r in runs) == [False, True], "exactly one of them starts the run"
    url = f"/api/v1/sessions/{sid}/stream"
    first, second = await _at_once(_send(client, "GET", url), _send(client, "GET", url))
    assert (first.status, second.status) == (200, 200), [(r.status, r.detail) for r in (first, second)]
    log = await read_event_log(client, sid)
    assert [(e.id, e.type) for e in first.events] == [(e.id, e.type) for e in log], "each stream shows the one run"
    assert [(e.id, e.type) for e in second.events] == [(e.id, e.type) for e in log], "each stream shows the one run"
    assert _count(log, "phase_change") == 1 and _count(log, "review_decompose") == 1, tail(log)
    assert _count(log, "done") == 1 and log[-1].type == "done", tail(log)
    problems = tool_pairing_problems(log) + rerun_problems(log)
    assert not problems, problems


@pytest.fixture
async def live_client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with serve_in_process(database_url) as base_url, httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        yield http


async def _answer_each_review_the_instant_done_is_read(http: httpx.AsyncClient) -> str:
    """Drive a new session, posting each review as soon as `done(awaiting_input)` is parsed (before the
    client reads on); what went wrong, or "" once the document's stream has ended with done."""
    created = await http.post("/api/v1/sessions", json={"problem": PROBLEM})
    sid = str(created.json()["id"])
    assert (await http.post(f"/api/v1/sessions/{sid}/run")).status_code == 200
    response = await http.send(http.build_request("GET", f"/api/v1/sessions/{sid}/stream"), stream=True)
    events: list[Received] = []
    try:
        for _ in range(len(REVIEW_EVENTS) + 1):
            async for sse in EventSource(response).aiter_sse():
                if sse.event != "heartbeat":
                    events.append(Received(int(sse.id), sse.event, json.loads(sse.data)))
                if sse.event == "done":
                    break
            if not events or events[-1].type != "done" or not events[-1].data["awaiting_input"]:
                break
            review = review_for(next(e for e in reversed(events) if e.type in REVIEW_EVENTS))
            posted = http.build_request("POST", f"/api/v1/sessions/{sid}/user-input", json=review)
            answer = await http.send(posted, stream=True)  # the instant `done` was read
            await response.aclose()
            response = answer
            if response.status_code != 200:
                await response.aread()
                return f"{review['type']} posted right after {describe(events[-1])}: {response.status_code} {response.text}"
    finally:
        await response.aclose()
    if not events or events[-1].data != {"error": False, "awaiting_input": False}:
        return f"the session did not end with its document: {tail(events)}"
    return ""


async def test_a_review_posted_the_instant_done_is_read_is_accepted(live_client: httpx.AsyncClient) -> None:
    """Over real sockets, six sessions at once: every review posted as soon as its phase's `done` is read
    finds the session paused and is accepted (200), and every session reaches its document."""
    failures = await asyncio.gather(*(_answer_each_review_the_instant_done_is_read(live_client) for _ in range(6)))
    assert not any(failures), [f for f in failures if f]

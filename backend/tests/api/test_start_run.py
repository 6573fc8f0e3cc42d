"""POST /run is the only way a session's run starts or resumes; GET /stream only follows.

A GET must never spend money (a cross-site `<img src=".../stream">` could otherwise start paid model
calls), so a stream of a session nobody runs ends at its first heartbeat with RUN_NOT_RUNNING, telling
the client to POST /run.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from support.api_client import api_client
from support.event_log import read_event_log
from support.sse_client import read_stream, run_and_stream

from forge.api.schemas.events import ErrorData
from forge.config import Settings

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


@pytest.fixture
async def quick_client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The app with a short SSE heartbeat, so an idle stream reaches its first heartbeat at once."""
    async with api_client(Settings(database_url=database_url), heartbeat_seconds=0.05) as http:
        yield http


async def _create(client: httpx.AsyncClient) -> str:
    created = await client.post("/api/v1/sessions", json={"problem": PROBLEM})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def test_a_stream_of_a_new_session_starts_no_run_and_says_to_post_run(quick_client: httpx.AsyncClient) -> None:
    sid = await _create(quick_client)
    streamed = await read_stream(quick_client, "GET", f"/api/v1/sessions/{sid}/stream")
    assert [e.type for e in streamed if e.type != "heartbeat"] == ["phase_change", "error"], streamed
    closing = streamed[-1]
    assert closing.data["code"] == "RUN_NOT_RUNNING", closing
    assert f"/api/v1/sessions/{sid}/run" in closing.data["message"]
    assert ErrorData.model_validate(closing.data).recoverable, "documented in the OpenAPI, and the app reconnects"
    session = (await quick_client.get(f"/api/v1/sessions/{sid}")).json()
    assert session["running"] is False
    assert [e.type for e in await read_event_log(quick_client, sid)] == ["phase_change"], "nothing ran"


async def test_post_run_starts_the_phase_and_the_stream_follows_it_to_its_review(
    quick_client: httpx.AsyncClient,
) -> None:
    sid = await _create(quick_client)
    started = await quick_client.post(f"/api/v1/sessions/{sid}/run")
    assert started.status_code == 200, started.text
    body = started.json()
    assert body["started"] is True and body["session"]["id"] == sid and body["session"]["running"] is True
    streamed = await read_stream(quick_client, "GET", f"/api/v1/sessions/{sid}/stream")
    assert [e.type for e in streamed if e.type != "heartbeat"][-2:] == ["review_decompose", "done"]


async def test_post_run_while_the_run_is_live_changes_nothing(quick_client: httpx.AsyncClient) -> None:
    sid = await _create(quick_client)
    first = await quick_client.post(f"/api/v1/sessions/{sid}/run")
    again = await quick_client.post(f"/api/v1/sessions/{sid}/run")
    assert first.json()["started"] is True
    # The run may already have paused by the second call (the offline model is fast): then it is a 409.
    assert again.status_code in (200, 409), again.text
    if again.status_code == 200:
        assert again.json()["started"] is False
    await read_stream(quick_client, "GET", f"/api/v1/sessions/{sid}/stream")
    log = await read_event_log(quick_client, sid)
    assert sum(e.type == "phase_change" for e in log) == 1 and sum(e.type == "done" for e in log) == 1, log


async def test_post_run_on_a_session_waiting_for_its_review_is_a_conflict(quick_client: httpx.AsyncClient) -> None:
    sid = await _create(quick_client)
    await run_and_stream(quick_client, sid)
    before = await read_event_log(quick_client, sid)
    refused = await quick_client.post(f"/api/v1/sessions/{sid}/run")
    assert refused.status_code == 409 and "decompose_review" in refused.json()["detail"], refused.text
    assert await read_event_log(quick_client, sid) == before


async def test_post_run_on_a_cancelled_session_is_a_conflict(quick_client: httpx.AsyncClient) -> None:
    sid = await _create(quick_client)
    assert (await quick_client.post(f"/api/v1/sessions/{sid}/cancel")).status_code == 200
    refused = await quick_client.post(f"/api/v1/sessions/{sid}/run")
    assert refused.status_code == 409 and "cancelled" in refused.json()["detail"], refused.text


async def test_post_run_on_an_unknown_session_is_not_found(quick_client: httpx.AsyncClient) -> None:
    missing = await quick_client.post("/api/v1/sessions/00000000-0000-4000-8000-000000000000/run")
    assert missing.status_code == 404 and "does not exist" in missing.json()["detail"]


async def test_get_run_is_not_allowed(quick_client: httpx.AsyncClient) -> None:
    sid = await _create(quick_client)
    response = await quick_client.get(f"/api/v1/sessions/{sid}/run")
    assert response.status_code == 405 and response.headers["allow"] == "POST"
    assert (await quick_client.get(f"/api/v1/sessions/{sid}")).json()["running"] is False

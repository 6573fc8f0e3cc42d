"""POST /sessions/{id}/autopilot answers the awaited review as the CLI's autopilot does and streams on."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from support.sse_client import Received, read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
UNKNOWN = "00000000-0000-0000-0000-00000000abcd"


async def _started(client: httpx.AsyncClient) -> tuple[str, list[Received]]:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    return sid, await run_and_stream(client, sid)


async def _autopilot_to_the_end(
    client: httpx.AsyncClient, sid: str, body: dict[str, Any] | None
) -> tuple[list[Received], list[str]]:
    events: list[Received] = []
    answered: list[str] = []
    for _ in range(20):
        kwargs: dict[str, Any] = {} if body is None else {"json": body}
        streamed = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/autopilot", **kwargs)
        assert streamed[0].type == "user_input" and streamed[-1].type == "done"
        answered.append(streamed[0].data["type"])
        events += streamed
        if any(e.type == "knowledge_document" for e in streamed):
            return events, answered
    raise AssertionError(f"no document after {answered}")


async def test_autopilot_alone_drives_a_session_to_its_document(client: httpx.AsyncClient) -> None:
    sid, _ = await _started(client)
    events, answered = await _autopilot_to_the_end(client, sid, None)
    assert answered == ["decompose_review", "explore_review", "claims_review", "verdicts", "build_decision"]
    summaries = [e.data["summary"] for e in events if e.type == "user_input"]
    assert all(s.startswith("autopilot: ") for s in summaries), summaries
    session = (await client.get(f"/api/v1/sessions/{sid}")).json()
    assert session["status"] == "crystallized" and session["current_round"] == 0
    assert (await client.get(f"/api/v1/sessions/{sid}/document")).status_code == 200
    log = (await client.get(f"/api/v1/sessions/{sid}/events", params={"limit": 500})).json()["events"]
    assert [e["type"] for e in log if e["type"] == "user_input"] == ["user_input"] * 5


async def test_autopilot_runs_the_requested_rounds_with_its_threshold(client: httpx.AsyncClient) -> None:
    sid, _ = await _started(client)
    events, answered = await _autopilot_to_the_end(client, sid, {"accept_threshold": 1.0, "rounds": 2})
    assert answered.count("build_decision") == 2 and answered.count("verdicts") == 2
    verdict_summaries = [e.data["summary"] for e in events if e.type == "user_input" and e.data["type"] == "verdicts"]
    assert all("accept" not in s and "reject" in s for s in verdict_summaries), verdict_summaries
    session = (await client.get(f"/api/v1/sessions/{sid}")).json()
    assert session["status"] == "crystallized" and session["current_round"] == 1


async def test_autopilot_is_refused_when_no_review_is_awaited(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    not_started = await client.post(f"/api/v1/sessions/{sid}/autopilot")
    assert not_started.status_code == 409
    assert "not waiting for a review" in not_started.json()["detail"] and "DECOMPOSE" in not_started.json()["detail"]
    await client.post(f"/api/v1/sessions/{sid}/cancel")
    cancelled = await client.post(f"/api/v1/sessions/{sid}/autopilot", json={})
    assert cancelled.status_code == 409 and "cancelled" in cancelled.json()["detail"]

    done, _ = await _started(client)
    await _autopilot_to_the_end(client, done, {})
    finished = await client.post(f"/api/v1/sessions/{done}/autopilot")
    assert finished.status_code == 409 and "finished" in finished.json()["detail"]


async def test_autopilot_on_an_unknown_session_is_404(client: httpx.AsyncClient) -> None:
    assert (await client.post(f"/api/v1/sessions/{UNKNOWN}/autopilot")).status_code == 404
    assert (await client.post("/api/v1/sessions/not-a-uuid/autopilot")).status_code == 404


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"accept_threshold": 1.5}, "accept_threshold"),
        ({"accept_threshold": -0.1}, "accept_threshold"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 6}, "rounds"),
        ({"threshold": 0.5}, "threshold"),
        ([0.5], "JSON object"),
    ],
)
async def test_bad_autopilot_options_are_422_and_change_nothing(
    client: httpx.AsyncClient, body: Any, says: str
) -> None:
    sid, streamed = await _started(client)
    response = await client.post(f"/api/v1/sessions/{sid}/autopilot", json=body)
    assert response.status_code == 422, response.text
    assert says in response.json()["detail"]
    log = (await client.get(f"/api/v1/sessions/{sid}/events", params={"limit": 500})).json()["events"]
    assert len(log) == len(streamed)

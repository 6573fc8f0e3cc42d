"""Bad input gets a clear 4xx and loses nothing: the session and its events are unchanged."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from support.sse_client import run_and_stream

PROBLEM = "How can a city keep heat-wave deaths down with a fixed budget?"
UNKNOWN = "00000000-0000-0000-0000-00000000abcd"


async def _paused_at_decompose_review(client: httpx.AsyncClient) -> str:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    events = await run_and_stream(client, sid)
    assert events[-2].type == "review_decompose"
    return sid


async def _snapshot(client: httpx.AsyncClient, sid: str) -> tuple[Any, Any]:
    session = (await client.get(f"/api/v1/sessions/{sid}")).json()
    events = (await client.get(f"/api/v1/sessions/{sid}/events", params={"limit": 500})).json()["events"]
    return session, events


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"type": "explore_review", "starred_analogies": [0]}, 409, "decompose_review"),
        ({"type": "verdicts", "verdicts": []}, 409, "decompose_review"),
        ({"type": "decompose_review"}, 422, "selected_reframings"),
        ({"type": "decompose_review", "selected_reframings": [99]}, 422, "out-of-range"),
        ({"type": "decompose_review", "selected_reframings": [0], "confirmed_assumptions": [-1]}, 422, "out-of-range"),
        ({"type": "no_such_review"}, 422, "type"),
        ({"type": "build_decision"}, 422, "decision"),
    ],
)
async def test_wrong_or_malformed_review_is_refused_and_changes_nothing(
    client: httpx.AsyncClient, body: dict[str, Any], status: int, says: str
) -> None:
    sid = await _paused_at_decompose_review(client)
    before = await _snapshot(client, sid)
    response = await client.post(f"/api/v1/sessions/{sid}/user-input", json=body)
    assert response.status_code == status, response.text
    assert says in response.json()["detail"]
    assert await _snapshot(client, sid) == before


async def test_review_before_the_agent_has_run_is_a_conflict(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    response = await client.post(
        f"/api/v1/sessions/{sid}/user-input", json={"type": "decompose_review", "selected_reframings": [0]}
    )
    assert response.status_code == 409 and "not waiting" in response.json()["detail"]


@pytest.mark.parametrize(
    ("problem", "says"),
    [("x" * 20_001, "20000"), ("short", "10"), ("          ", "characters")],
)
async def test_problem_outside_the_limits_is_refused_with_the_limit(
    client: httpx.AsyncClient, problem: str, says: str
) -> None:
    response = await client.post("/api/v1/sessions", json={"problem": problem})
    assert response.status_code == 422 and says in response.json()["detail"]
    assert (await client.get("/api/v1/sessions")).json()["total"] == 0


async def test_oversized_body_is_refused_with_413(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/v1/sessions", json={"problem": "y" * 300_000})
    assert response.status_code == 413 and "limit" in response.json()["detail"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", ""),
        ("DELETE", ""),
        ("POST", "/cancel"),
        ("GET", "/document"),
        ("GET", "/graph"),
        ("GET", "/events"),
        ("GET", "/stream"),
        ("GET", "-not-a-uuid"),
    ],
)
async def test_unknown_session_is_404_with_a_message(client: httpx.AsyncClient, method: str, path: str) -> None:
    response = await client.request(method, f"/api/v1/sessions/{UNKNOWN}{path}")
    assert response.status_code == 404 and "does not exist" in response.json()["detail"]


async def test_document_before_crystallize_is_a_conflict_naming_the_phase(client: httpx.AsyncClient) -> None:
    sid = await _paused_at_decompose_review(client)
    response = await client.get(f"/api/v1/sessions/{sid}/document")
    assert response.status_code == 409 and "DECOMPOSE" in response.json()["detail"]


async def test_malformed_last_event_id_is_refused(client: httpx.AsyncClient) -> None:
    sid = await _paused_at_decompose_review(client)
    response = await client.get(f"/api/v1/sessions/{sid}/stream", headers={"Last-Event-ID": "abc"})
    assert response.status_code == 422 and "Last-Event-ID" in response.json()["detail"]


async def test_cancel_twice_is_a_conflict_and_delete_removes_everything(client: httpx.AsyncClient) -> None:
    sid = await _paused_at_decompose_review(client)
    assert (await client.post(f"/api/v1/sessions/{sid}/cancel")).json()["status"] == "cancelled"
    again = await client.post(f"/api/v1/sessions/{sid}/cancel")
    assert again.status_code == 409 and "already cancelled" in again.json()["detail"]
    review = await client.post(
        f"/api/v1/sessions/{sid}/user-input", json={"type": "decompose_review", "selected_reframings": [0]}
    )
    assert review.status_code == 409
    assert (await client.delete(f"/api/v1/sessions/{sid}")).status_code == 204
    assert (await client.get(f"/api/v1/sessions/{sid}")).status_code == 404
    assert (await client.get(f"/api/v1/sessions/{sid}/events")).status_code == 404


async def test_health_and_readiness(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/v1/health/")).json() == {"status": "ok"}
    ready = await client.get("/api/v1/health/ready")
    assert ready.status_code == 200 and ready.json()["database"] == "reachable"
    assert "Knowledge Forge" in (await client.get("/")).text


async def test_a_body_that_is_not_a_json_object_gets_a_message_saying_so(client: httpx.AsyncClient) -> None:
    broken = await client.post("/api/v1/sessions", content=b"{not json", headers={"content-type": "application/json"})
    assert broken.status_code == 422 and "not valid JSON" in broken.json()["detail"]
    listed = await client.post("/api/v1/sessions", json=["a list"])
    assert listed.status_code == 422 and "must be a JSON object" in listed.json()["detail"]

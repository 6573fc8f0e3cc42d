"""Starring from the whole pool at the explore review (offline model, both databases): pool
hypotheses alone are enough to go on; an id from elsewhere is a 422 that names it, and loses nothing."""

from __future__ import annotations

import httpx
from support.reviews import review_for
from support.sse_client import read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


async def _at_explore_review(client: httpx.AsyncClient) -> tuple[str, list[str]]:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    decompose = await run_and_stream(client, sid)
    explore = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(decompose[-2]))
    assert explore[-2].type == "review_explore"
    pool = (await client.get(f"/api/v1/sessions/{sid}/hypotheses", params={"gate": "passed", "limit": 5})).json()
    return sid, [h["id"] for h in pool["items"]]


async def test_pool_stars_alone_lead_into_synthesize(client: httpx.AsyncClient) -> None:
    sid, ids = await _at_explore_review(client)
    body = {"type": "explore_review", "starred_analogies": [], "starred_hypotheses": ids[:2]}
    synthesize = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=body)
    (accepted,) = [e for e in synthesize if e.type == "user_input"]
    assert "2 from the pool" in accepted.data["summary"]
    assert synthesize[-2].type == "review_claims", [
        (e.type, e.data) for e in synthesize if e.type in ("error", "tool_error", "tool_call")
    ]


async def test_an_id_outside_the_pool_is_refused_and_the_review_still_waits(client: httpx.AsyncClient) -> None:
    sid, ids = await _at_explore_review(client)
    body = {"type": "explore_review", "starred_analogies": [0], "starred_hypotheses": [ids[0], "not-a-hypothesis"]}
    refused = await client.post(f"/api/v1/sessions/{sid}/user-input", json=body)
    assert refused.status_code == 422
    assert "'not-a-hypothesis'" in refused.text and "GET /api/v1/sessions/{id}/hypotheses" in refused.text
    session = (await client.get(f"/api/v1/sessions/{sid}")).json()
    assert session["awaiting_input_type"] == "explore_review"

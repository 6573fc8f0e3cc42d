"""PUT /api/v1/admin/curation changes the curation budgets while the server runs: the next model call of
any session uses them, with no restart; a value out of range is refused and changes nothing."""

from __future__ import annotations

import httpx
from support.sse_client import run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


async def test_a_change_reaches_the_next_model_calls_without_a_restart(client: httpx.AsyncClient) -> None:
    before = (await client.get("/api/v1/admin/curation")).json()
    assert before["budgets"]["offline"]["carry_tokens"] == 1_000
    changed = await client.put("/api/v1/admin/curation", json={"context_tokens": 9_000, "carry_tokens": 77})
    assert changed.status_code == 200, changed.text
    assert {b["carry_tokens"] for b in changed.json()["budgets"].values()} == {77}
    created = await client.post("/api/v1/sessions", json={"problem": PROBLEM})
    events = await run_and_stream(client, str(created.json()["id"]))
    usage = [e.data["curation"] for e in events if e.type == "context_usage" and e.data.get("curation")]
    assert usage and all((u["budget_tokens"], u["carry_budget_tokens"]) == (9_000, 77) for u in usage)


async def test_a_value_out_of_range_is_refused_and_changes_nothing(client: httpx.AsyncClient) -> None:
    before = (await client.get("/api/v1/admin/curation")).json()
    refused = await client.put("/api/v1/admin/curation", json={"navigation_max_steps": 0})
    assert refused.status_code == 422
    assert (await client.put("/api/v1/admin/curation", json={"unknown": 1})).status_code == 422
    assert (await client.put("/api/v1/admin/curation", json={"navigation_lambda_edge": False})).status_code == 422
    assert (await client.get("/api/v1/admin/curation")).json() == before

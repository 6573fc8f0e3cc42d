"""The engine through the API with the offline model: the frame at DECOMPOSE, 18+ chosen domains and
a pool of 45+ gated hypotheses at EXPLORE, read back from GET /hypotheses with filters and pages."""

from __future__ import annotations

import httpx
from support.reviews import review_for
from support.sse_client import read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


async def explore_review_reached(client: httpx.AsyncClient) -> str:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    decompose = await run_and_stream(client, sid)
    assert [e.data["stage"] for e in decompose if e.type == "engine_stage"] == ["frame"]
    explore = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(decompose[-2]))
    biso, score = [e for e in explore if e.type == "engine_stage"]
    assert biso.data["stage"] == "biso" and biso.data["counts"]["domains"] >= 18
    # the new pool is scored before the supervisor reads it: offline, by labelled word rules, no call
    assert score.data["stage"] == "score" and score.data["counts"]["hypotheses"] == biso.data["counts"]["kept"]
    assert "the offline model's word rules (no model call" in score.data["summary"]
    assert explore[-2].type == "review_explore"
    return sid


async def test_the_pool_holds_every_domains_gated_hypotheses_best_first(client: httpx.AsyncClient) -> None:
    sid = await explore_review_reached(client)
    page = (await client.get(f"/api/v1/sessions/{sid}/hypotheses", params={"limit": 200})).json()
    assert page["total"] >= 45 and len(page["items"]) == page["total"]
    assert len({h["domain_id"] for h in page["items"]}) >= 18
    scores = [h["gate"]["mapping_score"] for h in page["items"]]
    assert scores == sorted(scores, reverse=True)
    first = page["items"][0]
    assert len(first["mapping"]) >= 6 and first["observable"] and first["failure_modes"]
    assert {row["mapping_type"] for row in first["mapping"]} <= {"entity", "attribute", "relation", "higher_order"}
    # every table that passed the rules went through the model layer and the unpack audit of two rows
    for h in page["items"]:
        gate = h["gate"]
        reviewed = gate["status"] == "passed"
        assert (gate["depth_review"] is not None) is reviewed and (gate["unpack"] is not None) is reviewed
        if reviewed:
            assert len(gate["unpack"]["rows"]) == 2 and gate["depth_review"]["rationale"].startswith("Offline review")
            assert gate["unpack"]["padding_suspected"] is bool(gate["unpack"]["unexplained"])


async def test_filters_and_pages_partition_the_pool(client: httpx.AsyncClient) -> None:
    sid = await explore_review_reached(client)
    url = f"/api/v1/sessions/{sid}/hypotheses"
    everything = (await client.get(url, params={"limit": 200})).json()
    domain = everything["items"][0]["domain_id"]
    of_domain = (await client.get(url, params={"domain": domain})).json()
    assert of_domain["total"] == sum(1 for h in everything["items"] if h["domain_id"] == domain)
    passed = (await client.get(url, params={"gate": "passed"})).json()["total"]
    failed = (await client.get(url, params={"gate": "failed"})).json()["total"]
    assert passed + failed == everything["total"]
    pages = [
        (await client.get(url, params={"limit": 10, "offset": o})).json()["items"]
        for o in range(0, everything["total"], 10)
    ]
    assert [h["id"] for page in pages for h in page] == [h["id"] for h in everything["items"]]


async def test_bad_filters_and_unknown_sessions_are_refused_with_a_reason(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    bad = await client.get(f"/api/v1/sessions/{sid}/hypotheses", params={"gate": "maybe"})
    assert bad.status_code == 422 and "passed" in bad.text
    missing = await client.get("/api/v1/sessions/00000000-0000-0000-0000-000000000000/hypotheses")
    assert missing.status_code == 404
    empty = (await client.get(f"/api/v1/sessions/{sid}/hypotheses")).json()
    assert empty == {"items": [], "total": 0, "limit": 50, "offset": 0}

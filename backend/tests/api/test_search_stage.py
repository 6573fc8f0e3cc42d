"""SEARCH at SYNTHESIZE with the offline model, on both databases: the stage reads the persisted pool,
expands MOME-selected seeds with the interactive profile's operators, stores the children with their
lineage in the same pool, and says what it did in an engine_stage event."""

from __future__ import annotations

import httpx
from support.reviews import review_for
from support.sse_client import read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


async def test_synthesize_opens_with_a_search_round_whose_children_join_the_pool(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    decompose = await run_and_stream(client, sid)
    explore = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(decompose[-2]))
    synthesize = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(explore[-2]))
    (search,) = [e for e in synthesize if e.type == "engine_stage" and e.data["stage"] == "search"]
    counts = search.data["counts"]
    assert counts["seeds"] == 3 and counts["children"] >= 6 and counts["failed"] == 0
    assert {"op_refine", "op_oppose", "op_extreme", "op_combine"} <= set(counts)
    assert "SEARCH over 3 seeds" in search.data["summary"]

    pool = (await client.get(f"/api/v1/sessions/{sid}/hypotheses", params={"limit": 200})).json()["items"]
    by_id = {h["id"]: h for h in pool}
    children = [h for h in pool if h["operator"] != "biso"]
    assert len(children) == counts["children"]
    assert {h["operator"] for h in children} >= {"refine", "oppose", "extreme", "combine"}
    for child in children:
        assert child["parents"] and all(by_id[p]["operator"] == "biso" for p in child["parents"])
        assert child["id"].startswith("search-0-") and child["gate"]["status"] == "passed"
    assert any(len(h["parents"]) == 2 for h in children if h["operator"] == "combine")

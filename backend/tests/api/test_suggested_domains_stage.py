"""A domain the person suggests at the explore review is explored before the claims review (offline
model, both databases): a library domain gets BISO hypotheses in the pool; a domain the offline model
cannot describe, and that shares no terms with the library, is reported in plain words, not silently dropped; the explore review lists earlier outcomes."""

from __future__ import annotations

import httpx
from support.reviews import review_for
from support.sse_client import read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


async def test_a_suggestion_at_the_explore_review_is_explored_before_the_claims_review(
    client: httpx.AsyncClient,
) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    decompose = await run_and_stream(client, sid)
    explore = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(decompose[-2]))
    review = explore[-2]
    assert review.type == "review_explore" and review.data["suggestion_outcomes"] == []
    chosen = {d["domain_id"] for d in review.data["domain_selection"]["chosen"]}
    library = (await client.get("/api/v1/knowledge/domains")).json()["domains"]
    unexplored = next(d for d in library if d["id"] not in chosen)
    body = {**review_for(review), "suggested_domains": [unexplored["name"].upper(), "jazz improvisation"]}

    synthesize = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=body)
    stages = [e.data["stage"] for e in synthesize if e.type == "engine_stage"]
    assert stages == ["suggested_domains", "search"]  # explored first, so SEARCH can expand them too
    (stage,) = [e for e in synthesize if e.type == "engine_stage" and e.data["stage"] == "suggested_domains"]
    assert stage.data["counts"]["suggestions"] == 2 and stage.data["counts"]["hypotheses"] >= 1
    assert f"→ {unexplored['name']} (from the library)" in stage.data["summary"]
    assert "'jazz improvisation' was not explored: it is not one of the" in stage.data["summary"]
    assert "real model" in stage.data["summary"] and "`" not in stage.data["summary"]  # plain words
    assert ".." not in stage.data["summary"]
    assert synthesize[-2].type == "review_claims"

    url = f"/api/v1/sessions/{sid}/hypotheses"
    of_domain = (await client.get(url, params={"domain": unexplored["id"], "limit": 50})).json()
    assert of_domain["total"] == stage.data["counts"]["hypotheses"]

"""A domain the person suggests at the explore review is explored before the claims review (offline
model, both databases): a library domain gets BISO hypotheses in the pool; a domain the offline model
cannot describe is refused at the review in plain words when it shares no term with the library, and
explores the closest shipped domain when it shares one; the explore review lists earlier outcomes."""

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
    refused = await client.post(f"/api/v1/sessions/{sid}/user-input", json=body)  # before anything is applied
    assert refused.status_code == 422, refused.text
    assert "'jazz improvisation' cannot be explored: it is not one of the" in refused.text
    body["suggested_domains"] = [unexplored["name"].upper(), "jazz river improvisation"]

    synthesize = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=body)
    stages = [e.data["stage"] for e in synthesize if e.type == "engine_stage"]
    # explored first, so SEARCH can expand them too; each stage's new hypotheses are scored after it
    assert stages == ["suggested_domains", "score", "search", "score"]
    (stage,) = [e for e in synthesize if e.type == "engine_stage" and e.data["stage"] == "suggested_domains"]
    assert stage.data["counts"]["suggestions"] == 2 and stage.data["counts"]["hypotheses"] >= 1
    assert f"→ {unexplored['name']} (from the library)" in stage.data["summary"]
    assert (
        "'jazz river improvisation' → " in stage.data["summary"] and "closest shipped domain" in stage.data["summary"]
    )
    assert "`" not in stage.data["summary"] and ".." not in stage.data["summary"]  # plain words
    assert synthesize[-2].type == "review_claims"

    url = f"/api/v1/sessions/{sid}/hypotheses"
    of_domain = (await client.get(url, params={"domain": unexplored["id"], "limit": 50})).json()
    assert 1 <= of_domain["total"] <= stage.data["counts"]["hypotheses"]  # the closest domain gave the rest

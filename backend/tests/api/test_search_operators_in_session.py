"""An offline session's SYNTHESIZE, on both databases: the SEARCH round applies at least six distinct
operators (nine in the research profile), HKG children carry their hyperpath (nodes, relations,
provenance references, a chain citing only the path's hyperedges), every child its structural
grounding, and the claims review shows the search with its Transform Gate records; CP-5 reads the
fast path's events (HKG path found, blend made, transform proposed and decided)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from support.api_client import api_client
from support.reviews import review_for
from support.sse_client import Received, read_stream, run_and_stream

from forge.config import Settings

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HEAVY = {"hyperbridge", "blend_expand", "transform_space"}


async def synthesize(client: httpx.AsyncClient) -> tuple[str, list[Received]]:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    decompose = await run_and_stream(client, sid)
    explore = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(decompose[-2]))
    events = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(explore[-2]))
    return sid, events


async def children_of(client: httpx.AsyncClient, sid: str) -> list[dict[str, Any]]:
    pool = (await client.get(f"/api/v1/sessions/{sid}/hypotheses", params={"limit": 200})).json()["items"]
    return [h for h in pool if h["operator"] != "biso"]


def assert_grounded_on_its_path(child: dict[str, Any]) -> None:
    path = child["hyperpath"]
    assert path["status"] == "hkg_path_found" and path["paths"] and 0 < path["score"] <= 10
    on_path = {step["hyperedge_id"] for p in path["paths"] for step in p["steps"]}
    assert path["chain"] and {link["hyperedge_id"] for link in path["chain"]} <= on_path
    assert path["provenance"] and all({"hyperedge_id", "source", "locator"} == set(r) for r in path["provenance"])
    assert child["structural_grounding"] == path["score"]


async def test_an_offline_synthesize_applies_six_operators_with_lineage_and_hyperpaths(
    client: httpx.AsyncClient,
) -> None:
    sid, events = await synthesize(client)
    children = await children_of(client, sid)
    operators = {h["operator"] for h in children}
    assert len(operators) >= 6 and not operators & HEAVY  # interactive: no heavy operator
    assert "hyperpath_expand" in operators
    by_id = {h["id"]: h for h in (await client.get(f"/api/v1/sessions/{sid}/hypotheses?limit=200")).json()["items"]}
    for child in children:
        assert child["parents"] and all(p in by_id for p in child["parents"])
        assert child["structural_grounding"] is not None
    for child in (h for h in children if h["operator"] == "hyperpath_expand"):
        assert_grounded_on_its_path(child)
    review = next(e for e in events if e.type == "review_claims")
    search = review.data["search"]
    assert search["children"] == len(children) and set(search["operators"]) == operators


@pytest.fixture
async def research_client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with api_client(Settings(database_url=database_url, search_profile="research")) as http:
        yield http


async def test_the_research_profile_applies_all_nine_operators_and_keeps_the_gate_records(
    research_client: httpx.AsyncClient,
) -> None:
    sid, events = await synthesize(research_client)
    children = await children_of(research_client, sid)
    operators = {h["operator"] for h in children}
    assert operators >= {"refine", "variant", "oppose", "extreme", "combine", "hyperpath_expand"} | HEAVY
    for child in (h for h in children if h["operator"] == "hyperbridge"):
        assert_grounded_on_its_path(child)
        assert len(child["parents"]) == 2
    blend = next(h for h in children if h["operator"] == "blend_expand")["blend"]
    assert blend["generic_space"] and len(blend["mappings"]) >= 2
    assert all(e["observable_link"] and e["testable_prediction"] for e in blend["emergent"])
    transformed = next(h for h in children if h["operator"] == "transform_space")["transform"]
    assert transformed["status"] == "accepted" and transformed["reasons"] == [] and len(transformed["logic"]) == 3
    search = next(e for e in events if e.type == "review_claims").data["search"]
    assert search["profile"] == "research" and search["transforms"]
    assert search["degraded"] > 0  # heavy quotas exhausted → refine / variant
    # The fast path reports what it did to the slow agent: CP-5's audit lists the events it read.
    logged = (await research_client.get(f"/api/v1/sessions/{sid}/events", params={"limit": 500})).json()["events"]
    read = {ev for e in logged if e["type"] == "saga_checkpoint" for ev in e["data"]["fast_events"]}
    assert read >= {
        "SEARCH_ROUND_COMPLETED", "HKG_PATH_FOUND", "BLEND_EXPAND_COMPLETED", "TRANSFORM_PROPOSED",
        "TRANSFORM_ACCEPTED_OR_REJECTED",
    }  # fmt: skip


async def test_the_research_profile_runs_two_search_rounds_whose_lineage_crosses_rounds(
    research_client: httpx.AsyncClient,
) -> None:
    sid, events = await synthesize(research_client)
    rounds = [e for e in events if e.type == "engine_stage" and e.data["stage"] == "search"]
    assert [r.data["counts"]["depth"] for r in rounds] == [1, 2]
    assert all(r.data["counts"]["search_depth"] == 2 and r.data["counts"]["children"] > 0 for r in rounds)
    assert rounds[1].data["summary"].startswith("SEARCH round 2/2")
    children = await children_of(research_client, sid)
    first = {h["id"] for h in children if not h["id"].startswith("search-0-d")}
    second = [h for h in children if h["id"].startswith("search-0-d2-")]
    assert first and second
    # Round 2 expanded round-1 children: the pool is a graph across rounds.
    assert any(set(h["parents"]) & first for h in second)
    search = next(e for e in events if e.type == "review_claims").data["search"]
    assert search["children"] == len(children)

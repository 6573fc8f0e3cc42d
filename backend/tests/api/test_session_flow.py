"""A whole session through the ASGI app with a real SSE consumer, on SQLite and on PostgreSQL."""

from __future__ import annotations

from io import BytesIO
from typing import Any

import httpx
import networkx as nx
from support.sse_client import Received, read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
REVIEW_EVENTS = ("review_decompose", "review_explore", "review_claims", "review_verdicts", "review_build")


def _review_for(event: Received) -> dict[str, Any]:
    data = event.data
    if event.type == "review_decompose":
        return {"type": "decompose_review", "selected_reframings": [0], "confirmed_assumptions": [0]}
    if event.type == "review_explore":
        return {"type": "explore_review", "starred_analogies": [0, 1]}
    if event.type == "review_claims":
        return {"type": "claims_review", "claim_feedback": [{"claim_index": 0, "feedback": "promising"}]}
    if event.type == "review_verdicts":
        verdicts = [{"claim_index": c["index"], "verdict": "accept"} for c in data["claims"]]
        verdicts[-1] = {"claim_index": data["claims"][-1]["index"], "verdict": "reject", "reason": "too broad"}
        if len(verdicts) == 1:
            verdicts = [{"claim_index": 0, "verdict": "accept"}]
        return {"type": "verdicts", "verdicts": verdicts}
    return {"type": "build_decision", "decision": "resolve"}


async def _create(client: httpx.AsyncClient, problem: str = PROBLEM) -> str:
    response = await client.post("/api/v1/sessions", json={"problem": problem})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def test_full_session_runs_all_six_phases_and_yields_document_and_graph(client: httpx.AsyncClient) -> None:
    sid = await _create(client)
    events = await run_and_stream(client, sid)
    seen_reviews: list[str] = []
    for _ in range(6):
        last_review = next((e for e in reversed(events) if e.type in REVIEW_EVENTS), None)
        assert events[-1].type == "done", events[-3:]
        if any(e.type == "knowledge_document" for e in events):
            break
        assert events[-1].data == {"error": False, "awaiting_input": True}
        assert last_review is not None
        seen_reviews.append(last_review.type)
        if last_review.type == "review_verdicts":  # the claims review's feedback was acted on first
            feedback = last_review.data["claims"][0]
            assert feedback["user_feedback"] == "promising" and feedback["feedback_response"].startswith(
                "Kept as written"
            )
            assert any(e.type == "tool_call" and e.data.get("tool") == "revise_claim" for e in events)
        events = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=_review_for(last_review))
        assert events[0].type == "user_input"
    assert seen_reviews == list(REVIEW_EVENTS)
    document = next(e for e in events if e.type == "knowledge_document").data["markdown"]
    assert "## 10. Evidence and Sources" in document and "offline model" in document

    session = (await client.get(f"/api/v1/sessions/{sid}")).json()
    assert session["status"] == "crystallized" and session["current_phase"] == "crystallize"
    spend = session["spend_by_phase"]
    assert set(spend) == {"decompose", "explore", "synthesize", "validate", "build", "crystallize"}
    assert sum(p["tokens"] for p in spend.values()) == session["total_tokens_used"] > 0
    assert session["total_cost_usd"] == 0.0  # the offline model is free
    download = await client.get(f"/api/v1/sessions/{sid}/document")
    assert download.status_code == 200 and download.text == document
    assert download.headers["content-type"].startswith("text/markdown")
    graph = (await client.get(f"/api/v1/sessions/{sid}/graph")).json()
    assert graph["nodes"] and {"id", "type", "label", "status"} <= set(graph["nodes"][0])
    assert not {"x", "y"} & set(graph["nodes"][0])  # laid out in one place: the browser
    graphml = await client.get(f"/api/v1/sessions/{sid}/graph.graphml")
    assert graphml.status_code == 200 and graphml.headers["content-type"] == "application/graphml+xml"
    assert graphml.headers["content-disposition"] == f'attachment; filename="knowledge-graph-{sid}.graphml"'
    exported = nx.read_graphml(BytesIO(graphml.content), force_multigraph=True)
    assert list(exported.nodes) == [n["id"] for n in graph["nodes"]]
    assert sorted(k for _, _, k in exported.edges(keys=True)) == sorted(e["id"] for e in graph["edges"])


async def test_event_ids_increase_and_the_log_paginates(client: httpx.AsyncClient) -> None:
    sid = await _create(client)
    streamed = await run_and_stream(client, sid)
    ids = [e.id for e in streamed]
    assert ids == list(range(1, len(ids) + 1))
    first = (await client.get(f"/api/v1/sessions/{sid}/events", params={"limit": 5})).json()
    assert [e["id"] for e in first["events"]] == [1, 2, 3, 4, 5] and first["has_more"] is True
    rest = (await client.get(f"/api/v1/sessions/{sid}/events", params={"after": 5, "limit": 500})).json()
    assert [e["id"] for e in rest["events"]] == ids[5:] and rest["has_more"] is False
    assert [e["type"] for e in first["events"] + rest["events"]] == [e.type for e in streamed]


async def test_reconnect_with_last_event_id_replays_exactly_the_later_events(client: httpx.AsyncClient) -> None:
    sid = await _create(client)
    streamed = await run_and_stream(client, sid)
    cut = len(streamed) // 2
    by_header = await read_stream(
        client, "GET", f"/api/v1/sessions/{sid}/stream", headers={"Last-Event-ID": str(streamed[cut - 1].id)}
    )
    assert by_header == streamed[cut:]
    by_query = await read_stream(client, "GET", f"/api/v1/sessions/{sid}/stream?last_event_id={streamed[-2].id}")
    assert by_query == streamed[-1:]
    # A reconnect while paused starts nothing new: the log is unchanged.
    log = (await client.get(f"/api/v1/sessions/{sid}/events", params={"limit": 500})).json()["events"]
    assert len(log) == len(streamed)


async def test_list_paginates_newest_first_and_filters_by_status(client: httpx.AsyncClient) -> None:
    ids = [await _create(client, f"Problem number {i} about reducing queue delays") for i in range(3)]
    await client.post(f"/api/v1/sessions/{ids[0]}/cancel")
    page = (await client.get("/api/v1/sessions", params={"limit": 2})).json()
    assert page["total"] == 3 and [s["id"] for s in page["items"]] == [ids[2], ids[1]]
    cancelled = (await client.get("/api/v1/sessions", params={"status": "cancelled"})).json()
    assert [s["id"] for s in cancelled["items"]] == [ids[0]]


async def test_a_document_added_to_the_session_is_researched_and_cited(client: httpx.AsyncClient) -> None:
    sid = await _create(client)
    text = (
        "Audit of our hospital emergency department: wait times peak when staff are tied up with boarding "
        "patients; emergency wait times fell when a discharge lounge freed cubicles earlier in the day."
    )
    added = await client.post(f"/api/v1/sessions/{sid}/documents", json={"title": "ED audit 2025", "text": text})
    assert added.status_code == 201, added.text
    source = added.json()["source"]
    assert source == f"session://{sid}/ed-audit-2025"
    listed = (await client.get(f"/api/v1/sessions/{sid}/documents")).json()
    assert [d["source"] for d in listed] == [source]
    events = await run_and_stream(client, sid)
    review = next(e for e in events if e.type == "review_decompose").data
    assert source in [e["source"] for e in review["state_of_art"]["evidence"]]


async def test_documents_are_refused_when_too_short_or_while_finished(client: httpx.AsyncClient) -> None:
    sid = await _create(client)
    short = await client.post(f"/api/v1/sessions/{sid}/documents", json={"title": "x", "text": "too short"})
    assert short.status_code == 422 and "text" in short.json()["detail"]
    await client.post(f"/api/v1/sessions/{sid}/cancel")
    late = await client.post(f"/api/v1/sessions/{sid}/documents", json={"title": "Late", "text": "y" * 40})
    assert late.status_code == 409 and "cancelled" in late.json()["detail"]

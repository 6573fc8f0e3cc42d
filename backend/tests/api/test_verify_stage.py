"""VERIFY at VALIDATE with the offline verifier, on both databases: every claim of the round reaches
the verdicts review with its breakdown (logic dimensions, novelty, confidence, position check,
status), the stage reports itself in an engine_stage event (the pool's ranking candidates judged in it
too), and its prior-art research is evidence with provenance."""

from __future__ import annotations

import httpx
from support.reviews import review_for
from support.sse_client import read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


async def test_validate_reports_a_verify_breakdown_for_every_claim(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    events = await run_and_stream(client, sid)
    for _ in range(3):  # decompose → explore → synthesize → validate
        events = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(events[-2]))
    (stage,) = [e for e in events if e.type == "engine_stage" and e.data["stage"] == "verify"]
    (review,) = [e for e in events if e.type == "review_verdicts"]
    claims = review.data["claims"]
    assert claims and stage.data["counts"]["claims"] == len(claims)
    searched = sum(c["verify"]["novelty"]["searched"] for c in claims)
    counts = stage.data["counts"]
    # one pass over the claims and the pool's five ranking candidates (for CP-6 and the ranking), in one
    # group: k = 3 forward + 1 reversed, and one prior-art call when any item was searched
    candidates_searched = counts["hypothesis_searches"] > 0
    assert counts["calls"] == 4 + (searched > 0 or candidates_searched)
    assert counts["hypotheses"] == 5 and counts["hypothesis_calls"] == 4 + candidates_searched
    assert "ranking candidates" in stage.data["summary"]
    for claim in claims:
        verify = claim["verify"]
        assert verify["verifier"].startswith("offline") and verify["samples"] == 3
        assert verify["status"] in {"passed", "failed", "escalated"}
        assert set(verify["logic"]) == {
            "analogy_validity",
            "internal_consistency",
            "causal_rigor",
            "average",
            "passed",
        }
        assert 0 <= verify["confidence"] <= verify["variance_confidence"] <= 1
        assert verify["position_consistent"] is True  # the offline verifier reads order-invariantly
        assert "Offline verifier" in verify["rationale"]
        for source in verify["sources"]:
            assert source["query"] and source["retrieved_at"] and source["source"].startswith("corpus://")
    assert searched == (counts["searches"] - counts["hypothesis_searches"]) // 3  # the claims' own

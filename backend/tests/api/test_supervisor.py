"""SAGA in an offline session, on both databases: every checkpoint CP-1..7 is a stored event at its
phase, findings and directives are stored events that validate against the documented schema, the
supervisor endpoint lists them, and a review can dismiss a finding or adopt a suggested constraint.
The detectors can fire: CP-6 audits VERIFY's scores of five or more items, every layer debits the
cognitive budget, the C-K coordinator moves, and the fast path's events reach the checkpoints."""

from __future__ import annotations

from typing import Any

import httpx
from support.reviews import review_for
from support.sse_client import read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times? Constraint: no new hires. Constraint: budget under 50k."


async def _run_to_end(client: httpx.AsyncClient, sid: str, extra: dict[int, dict[str, Any]] | None = None) -> list[Any]:
    events = await run_and_stream(client, sid)
    seen = list(events)
    for n in range(10):
        if events[-2].type == "knowledge_document" or events[-1].type != "done":
            break
        body = review_for(events[-2]) | (extra or {}).get(n, {})
        events = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=body)
        seen += events
    return seen


async def test_an_offline_session_records_every_checkpoint_with_its_findings(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    await _run_to_end(client, sid)

    logged = (await client.get(f"/api/v1/sessions/{sid}/events", params={"limit": 500})).json()["events"]
    checkpoints = [e["data"] for e in logged if e["type"] == "saga_checkpoint"]
    assert [c["checkpoint"] for c in checkpoints] == ["CP-1", "CP-2", "CP-3", "CP-4", "CP-5", "CP-6", "CP-7"]
    phases = {c["checkpoint"]: c["phase"] for c in checkpoints}
    assert phases == {
        "CP-1": "decompose", "CP-2": "explore", "CP-3": "explore", "CP-4": "explore",
        "CP-5": "synthesize", "CP-6": "build", "CP-7": "crystallize",
    }  # fmt: skip
    findings = [e["data"] for e in logged if e["type"] == "saga_finding"]
    directives = [e["data"] for e in logged if e["type"] == "saga_directive"]
    assert findings, "an offline session gives the supervisor something to report"
    assert {f["id"] for f in findings} == {i for c in checkpoints for i in c["finding_ids"]}
    assert all(d["finding_id"] for d in directives)
    assert "Red team" in checkpoints[4]["summary"]

    supervisor = (await client.get(f"/api/v1/sessions/{sid}/supervisor")).json()
    assert [f["id"] for f in supervisor["findings"]] == [f["id"] for f in findings]
    assert [d["id"] for d in supervisor["directives"]] == [d["id"] for d in directives]
    assert len(supervisor["stages"]) == 8 and supervisor["budget"]["total_units"] == 100.0
    spent = {bucket for bucket, units in supervisor["budget"]["spent"].items() if units > 0}
    assert spent == {  # every layer is debited: the checkpoints' rule layers and the red team
        "domain_audit", "biso_monitoring", "search_monitoring", "verify_monitoring", "adversarial_eval",
        "global_review",
    }  # fmt: skip

    # CP-6 reads VERIFY's scores of the ranking candidates and the claims: enough items for Layer 1,
    # and the offline verifier's logic dimensions move together, so collinearity fires.
    cp6 = [f for f in findings if f["id"].startswith("CP-6-")]
    collinear = next(f for f in cp6 if f["kind"] == "dimension_collinearity")
    compressed = next(f for f in cp6 if f["kind"] == "score_compression")
    assert len(collinear["hypothesis_ids"]) >= 5 and len(compressed["hypothesis_ids"]) >= 5
    assert "VERIFY_BATCH_SCORED" in checkpoints[5]["fast_events"]
    # C-K: the SEARCH round filled no new MOME region, so the coordinator moved to knowledge expansion
    assert "C→K (coverage_plateau)" in supervisor["ck"]["transitions"]
    assert "HKG_PATH_FOUND" in checkpoints[4]["fast_events"]  # a hyperpath_expand child was made


async def test_a_review_dismisses_a_finding_and_rejects_an_unknown_one(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    decompose = await run_and_stream(client, sid)
    supervisor = (await client.get(f"/api/v1/sessions/{sid}/supervisor")).json()
    assert [c["checkpoint"] for c in supervisor["checkpoints"]] == ["CP-1"]

    bad = review_for(decompose[-2]) | {"dismissed_findings": ["CP-9-nothing"]}
    refused = await client.post(f"/api/v1/sessions/{sid}/user-input", json=bad)
    assert refused.status_code == 422 and "unknown findings" in refused.text

    explore = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(decompose[-2]))
    supervisor = (await client.get(f"/api/v1/sessions/{sid}/supervisor")).json()
    target = supervisor["findings"][0]["id"]
    body = review_for(explore[-2]) | {"dismissed_findings": [target]}
    await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=body)
    after = (await client.get(f"/api/v1/sessions/{sid}/supervisor")).json()
    assert next(f for f in after["findings"] if f["id"] == target)["dismissed"] is True


async def test_the_hospital_pool_is_held_against_its_hard_constraint_by_meaning(client: httpx.AsyncClient) -> None:
    """Offline, the word rule reads "without more staff" as a forbidden increase of staff: at most a
    tenth of the BISO pool is flagged (a one-word match flagged 33 of 54), each flag with its reason."""
    problem = "How can a hospital cut emergency wait times without more staff?"
    sid = str((await client.post("/api/v1/sessions", json={"problem": problem})).json()["id"])
    decompose = await run_and_stream(client, sid)
    explore = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(decompose[-2]))
    biso = next(e.data for e in explore if e.type == "engine_stage" and e.data["stage"] == "biso")
    supervisor = (await client.get(f"/api/v1/sessions/{sid}/supervisor")).json()
    cp4 = next(c for c in supervisor["checkpoints"] if c["checkpoint"] == "CP-4")
    assert f"Hard constraints: {biso['counts']['kept']} text(s) judged by the offline word rule." in cp4["summary"]
    violations = [f for f in supervisor["findings"] if f["kind"] == "hard_constraint_violation"]
    flagged = {i for f in violations for i in f["hypothesis_ids"]}
    assert biso["counts"]["kept"] >= 50 and len(flagged) <= 0.1 * biso["counts"]["kept"]
    assert all(
        f"{i} breaks “without more staff”: Offline word rule: proposes" in f["message"]
        for f in violations
        for i in f["hypothesis_ids"]
    )

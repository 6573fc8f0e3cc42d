"""GET /sessions/{id}/answer (Markdown) and /answer.json (typed) on both databases, with the offline
model: 404 for an unknown session, 409 until Solve has run at CRYSTALLIZE, then an AnswerPack whose
compliance table covers every hard constraint of the frame and whose evidence is traced."""

from __future__ import annotations

import httpx
from support.sse_client import Received, read_stream, run_and_stream

from forge.api.schemas.answer import AnswerPackOut

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
UNKNOWN = "00000000-0000-0000-0000-00000000abcd"


async def _finish(client: httpx.AsyncClient, sid: str) -> list[Received]:
    events: list[Received] = []
    for _ in range(10):
        streamed = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/autopilot")
        events += streamed
        if any(e.type == "knowledge_document" for e in streamed):
            return events
    raise AssertionError("no document")


async def test_a_finished_offline_session_has_an_audited_answer_pack(client: httpx.AsyncClient) -> None:
    body = {"problem": PROBLEM, "constraints": ["budget under 50k"]}
    sid = str((await client.post("/api/v1/sessions", json=body)).json()["id"])
    decompose = await run_and_stream(client, sid)
    early = await client.get(f"/api/v1/sessions/{sid}/answer.json")
    assert early.status_code == 409 and "DECOMPOSE" in early.json()["detail"]
    frame = next(e for e in decompose if e.type == "review_decompose").data["problem_frame"]["frame"]

    events = await _finish(client, sid)
    (solve,) = [e for e in events if e.type == "engine_stage" and e.data["stage"] == "solve"]
    assert solve.data["counts"]["hard_constraints"] == len(frame["hard_constraints"])

    response = await client.get(f"/api/v1/sessions/{sid}/answer.json")
    assert response.status_code == 200
    pack = AnswerPackOut.model_validate(response.json())
    assert [c.constraint for c in pack.compliance.checks] == frame["hard_constraints"]
    assert {"without more staff", "budget under 50k"} <= {c.constraint for c in pack.compliance.checks}
    assert pack.compliance.status.value in ("compliant", "unverified", "violation")
    assert pack.offline and pack.direct_answer and pack.title == frame["objective"]
    assert pack.key_evidence and all(e.claim_id or e.trace.startswith("research") for e in pack.key_evidence)
    # stage 6: VERIFY checked the ranking candidates; only the ones it passed rank, the others say why
    assert 1 <= len(pack.ranking) + len(pack.unranked) <= 5
    assert pack.ranking == sorted(pack.ranking, key=lambda h: -h.score)
    assert {h.verify_status for h in pack.ranking} <= {"passed"}
    assert {h.verify_status for h in pack.unranked} <= {"failed", "escalated", "abstained"}
    (verify,) = [
        e
        for e in events
        if e.type == "engine_stage" and e.data["stage"] == "verify" and "hypotheses" in e.data["counts"]
    ]
    assert verify.data["counts"]["hypotheses"] == len(pack.ranking) + len(pack.unranked)
    assert pack.methodology.domains and "biso" in pack.methodology.operators
    assert pack.methodology.spend.calls >= 0

    markdown = await client.get(f"/api/v1/sessions/{sid}/answer")
    assert markdown.status_code == 200 and markdown.headers["content-type"].startswith("text/markdown")
    assert markdown.text.startswith(f"# {pack.title}\n") and "## Constraint compliance" in markdown.text
    document = (await client.get(f"/api/v1/sessions/{sid}/document")).text
    assert document.startswith(f"# Knowledge Document: {pack.title}\n") and "## Direct Answer" in document


async def test_answer_of_an_unknown_session_is_404_in_both_forms(client: httpx.AsyncClient) -> None:
    for path in ("answer", "answer.json"):
        response = await client.get(f"/api/v1/sessions/{UNKNOWN}/{path}")
        assert response.status_code == 404 and "does not exist" in response.json()["detail"]


async def test_the_answer_schema_is_in_openapi(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    ok = spec["paths"]["/api/v1/sessions/{session_id}/answer.json"]["get"]["responses"]["200"]
    assert ok["content"]["application/json"]["schema"]["$ref"].endswith("/AnswerPackOut")
    assert (
        "text/markdown" in spec["paths"]["/api/v1/sessions/{session_id}/answer"]["get"]["responses"]["200"]["content"]
    )
    assert set(spec["paths"]["/api/v1/sessions/{session_id}/answer"]["get"]["responses"]) >= {"404", "409"}


async def test_a_chinese_problem_gets_its_answer_and_document_headings_in_chinese(client: httpx.AsyncClient) -> None:
    body = {"problem": "医院如何在不增加人手的情况下缩短急诊等待时间？"}
    sid = str((await client.post("/api/v1/sessions", json=body)).json()["id"])
    await run_and_stream(client, sid)
    await _finish(client, sid)

    markdown = (await client.get(f"/api/v1/sessions/{sid}/answer")).text
    headings = [line[3:] for line in markdown.splitlines() if line.startswith("## ")]
    assert headings == ["直接回答", "解决方案", "关键证据", "风险与边界", "假设排名", "约束合规", "方法"]
    document = (await client.get(f"/api/v1/sessions/{sid}/document")).text
    assert document.startswith("# 知识文档：") and "\n## 直接回答\n" in document and "\n## 7. 知识图谱\n" in document
    assert "Knowledge Document" not in document and "## Direct Answer" not in document

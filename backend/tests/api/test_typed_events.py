"""Typed events: GET /events validates every event of a whole two-round session against its model and
returns exactly what the SSE stream sent; payload models forbid unknown fields; the OpenAPI document
names every event model and the `type` discriminator."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, get_args

import httpx
import pytest
from pydantic import ValidationError
from support.sse_client import Received, read_stream, run_and_stream

import forge
from forge.api.export_openapi import openapi_document
from forge.api.schemas.events import EVENT_MODELS, RunErrorCode, event_out
from forge.core.curation.curate_conversation import CurationSummary, curate_conversation
from forge.core.curation.listwise_selection import CurationBudget
from forge.core.domain_types import EventSeq, Phase, ReviewType
from forge.core.llm.messages import Message, Role, TextPart, user_text
from forge.core.rules.verdicts import ErrorCode
from forge.core.saga.records import (
    Checkpoint,
    CheckpointAudit,
    Directive,
    DirectiveId,
    DirectiveKind,
    FastEvent,
    Finding,
    FindingId,
    FindingKind,
    SupervisorFinding,
)
from forge.core.session import events as ev
from forge.core.session.events import LIVE_EVENT_TYPES, EventType, SessionEvent
from forge.core.session.record import StoredEvent
from forge.core.session.spend import PhaseSpend
from forge.core.verify.injection_scan import InjectionFinding

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
AT = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


def _verdicts(claims: list[dict[str, Any]], round_number: int) -> list[dict[str, Any]]:
    """Round 0 uses every verdict kind the claims allow; later rounds accept everything."""
    if round_number > 0:
        return [{"claim_index": c["index"], "verdict": "accept"} for c in claims]
    kinds: list[dict[str, Any]] = [
        {"verdict": "accept"},
        {"verdict": "qualify", "qualification": "only at peak hours"},
        {"verdict": "reject", "reason": "too broad"},
    ]
    return [{"claim_index": c["index"], **kinds[min(i, 2)]} for i, c in enumerate(claims)]


def _review_for(event: Received, round_number: int, insight_added: bool) -> dict[str, Any]:
    if event.type == "review_decompose":
        return {
            "type": "decompose_review",
            "selected_reframings": [0],
            "confirmed_assumptions": [0],
            "rejected_assumptions": [1],
            "added_assumptions": ["Most of the delay accrues at night."],
            "added_reframings": ["What if the waiting room were part of the treatment?"],
        }
    if event.type == "review_explore":
        return {"type": "explore_review", "starred_analogies": [0, 1], "suggested_domains": ["ant colonies"]}
    if event.type == "review_claims":
        feedback = [{"claim_index": 0, "feedback": "promising"}] if round_number == 0 else []
        return {"type": "claims_review", "claim_feedback": feedback}
    if event.type == "review_verdicts":
        return {"type": "verdicts", "verdicts": _verdicts(event.data["claims"], round_number)}
    if not insight_added:
        return {
            "type": "build_decision",
            "decision": "add_insight",
            "user_insight": "Discharging before noon frees cubicles for the afternoon peak.",
            "user_evidence_urls": ["https://example.org/discharge-before-noon"],
        }
    return {"type": "build_decision", "decision": "continue" if round_number == 0 else "resolve"}


async def _two_round_session(client: httpx.AsyncClient) -> tuple[str, list[Received]]:
    """Every streamed event of a session: two rounds, a user insight, every verdict kind."""
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    streamed = await run_and_stream(client, sid)
    round_number, insights = 0, 0
    for _ in range(20):
        if streamed[-1].type != "done" or any(e.type == "knowledge_document" for e in streamed):
            break
        review = next(e for e in reversed(streamed) if e.type.startswith("review_"))
        body = _review_for(review, round_number, insights > 0)
        if body.get("decision") == "add_insight":
            insights += 1
        if body.get("decision") == "continue":
            round_number += 1
        streamed += await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=body)
    assert streamed[-2].type == "knowledge_document", [e.type for e in streamed[-4:]]
    return sid, streamed


async def _whole_log(client: httpx.AsyncClient, sid: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    after = 0
    while True:
        response = await client.get(f"/api/v1/sessions/{sid}/events", params={"after": after, "limit": 100})
        assert response.status_code == 200, response.text
        page = response.json()
        events += page["events"]
        after = page["next_after"]
        if not page["has_more"]:
            return events


def _sample(event: SessionEvent, seq: int = 7) -> StoredEvent:
    return StoredEvent(EventSeq(seq), event.type, event.data, AT)


def _spend() -> ev.SpendReport:
    return ev.SpendReport(Phase.EXPLORE, PhaseSpend(), PhaseSpend())


_SAGA_FINDING = SupervisorFinding(
    FindingId("CP-4-r0-source_domain_bias"),
    Checkpoint.CP4,
    0,
    Finding(
        FindingKind.SOURCE_DOMAIN_BIAS,
        13.5,
        0.05,
        ("h1", "h2"),
        "F(1, 4) = 13.5",
        p_value=0.0213,
        dimensions=("a", "b"),
    ),
)
_SAGA_DIRECTIVE = Directive(
    DirectiveId("CP-4-r0-x:ADJUST_WEIGHTS"),
    DirectiveKind.ADJUST_WEIGHTS,
    FindingId("CP-4-r0-x"),
    "m",
    {"rationale": 0.3},
)
_SAGA_AUDIT = CheckpointAudit(
    Checkpoint.CP4, 0, "explore", "CP-4: 1 finding", (FindingId("f"),), (), (FastEvent.BISO_COMPLETED,)
)


# Events a happy path through the offline model does not produce, built by the same constructors.
CONSTRUCTED: dict[EventType, SessionEvent] = {
    EventType.TOOL_ERROR: ev.tool_error("state_claim", ErrorCode.ANTITHESIS_MISSING.value, "Search first."),
    EventType.ERROR: ev.error("MODEL_ERROR", "The model call failed: timeout", recoverable=True),
    EventType.HEARTBEAT: SessionEvent(EventType.HEARTBEAT, {}),
    EventType.AGENT_TEXT_DELTA: ev.agent_text_delta("Queues dom"),  # live only: the offline model does not stream
    EventType.AGENT_TEXT_DISCARDED: ev.agent_text_discarded("connection reset"),
    EventType.ENGINE_PROGRESS: ev.engine_progress("biso", 3, 18, 0),  # live only: checked on the stream below
    EventType.VERIFY_INJECTION_DETECTED: ev.verify_injection_detected(
        "00000000-0000-0000-0000-000000000001",
        0,
        [InjectionFinding("document:doc://1", "ignore_instructions", "ignore all previous instructions")],
    ),
    EventType.RESEARCH_WARNING: ev.research_warning(
        "brave", "Brave Search failed (HTTP 503); the local corpus answered."
    ),
}


async def test_events_of_a_whole_session_validate_and_equal_what_the_stream_sent(client: httpx.AsyncClient) -> None:
    sid, streamed = await _two_round_session(client)
    log = await _whole_log(client, sid)
    assert not any(e["type"] == "engine_progress" for e in log)  # progress is never stored
    assert [(e["id"], e["type"], e["data"]) for e in log] == [(e.id, e.type, e.data) for e in streamed]
    seen = {e["type"] for e in log}
    assert seen | {t.value for t in CONSTRUCTED} == {t.value for t in EventType}, "an event type is not covered"
    user_inputs = [e["data"]["summary"] for e in log if e["type"] == "user_input"]
    assert any("user insight" in s for s in user_inputs) and not any(s.startswith("autopilot") for s in user_inputs)
    builds = [e["data"] for e in log if e["type"] == "review_build"]
    assert any(n["claim_type"] == "user_contributed" for n in builds[-1]["graph"]["nodes"])
    verdicts = next(e["data"] for e in log if e["type"] == "review_verdicts")
    assert verdicts["claims"][0]["scores"] is not None and verdicts["claims"][0]["score_mean"] is not None


async def test_the_graph_endpoint_returns_the_graph_of_the_last_build_review(client: httpx.AsyncClient) -> None:
    sid, streamed = await _two_round_session(client)
    last_build = next(e for e in reversed(streamed) if e.type == "review_build")
    graph = (await client.get(f"/api/v1/sessions/{sid}/graph")).json()
    assert graph == last_build.data["graph"]
    assert {"supports", "extends", "depends_on"} & {e["label"] for e in graph["edges"]}


async def test_a_cancelled_session_logs_a_typed_error_event(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    assert (await client.post(f"/api/v1/sessions/{sid}/cancel")).status_code == 200
    log = await _whole_log(client, sid)
    assert [(e["type"], e["data"]) for e in log] == [
        ("phase_change", {"phase": "decompose", "round": 0, "resumed": False}),  # stored at creation
        (
            "error",
            {"code": "CANCELLED", "message": "The session was cancelled.", "severity": "info", "recoverable": False},
        ),
        ("done", {"error": False, "awaiting_input": False}),
    ]


def test_every_event_type_has_exactly_one_model_in_the_union() -> None:
    assert set(EVENT_MODELS) == set(EventType)
    for event_type, model in EVENT_MODELS.items():
        assert get_args(model.model_fields["type"].annotation) == (event_type.value,)
        assert model.__doc__, f"{model.__name__} needs a docstring (the schema description)"


@pytest.mark.parametrize("event_type", list(CONSTRUCTED))
def test_events_the_happy_path_does_not_produce_validate(event_type: EventType) -> None:
    event = CONSTRUCTED[event_type]
    if event_type in LIVE_EVENT_TYPES:  # stream only, without an id: validated as the SSE message carries it
        live = EVENT_MODELS[event_type].model_validate({"type": event_type.value, "data": event.data})
        assert live.model_dump(mode="json")["data"] == event.data
        return
    out = event_out(_sample(event))
    assert out.model_dump(mode="json")["data"] == event.data


def _curation() -> CurationSummary:
    messages = [
        user_text("[forge phase=explore round=1]\nGOAL: queues"),
        Message(Role.ASSISTANT, (TextPart("done"),)),
        user_text("[forge phase=build round=1]\nGOAL: graph"),
    ]
    return curate_conversation(
        messages,
        current_marker="[forge phase=build round=1]",
        fixed_tokens=10,
        count=len,
        budget=CurationBudget(100, 5),
    ).summary


@pytest.mark.parametrize(
    "event",
    [
        ev.agent_text("thinking"),
        ev.tool_call("research", '{"query": "queues"}'),
        ev.tool_result("research", "5 result(s)"),
        ev.phase_change(Phase.BUILD, 2),
        ev.context_usage(120, 1000, "offline", 0.0012345678, _spend()),
        ev.context_usage(120, 1000, "offline", 0.0, _spend(), _curation()),
        ev.done(error=True, awaiting_input=False),
        ev.error("BUDGET_EXHAUSTED", "Over budget.", recoverable=True, severity="warning"),
        ev.knowledge_document("# Doc"),
        ev.user_input(ReviewType.VERDICTS, "autopilot: 2 accept"),
        ev.saga_finding(_SAGA_FINDING),
        ev.saga_directive(_SAGA_DIRECTIVE),
        ev.saga_checkpoint(_SAGA_AUDIT),
    ],
    ids=lambda e: e.type.value,
)
def test_constructed_events_round_trip_exactly(event: SessionEvent) -> None:
    assert event_out(_sample(event)).model_dump(mode="json")["data"] == event.data


@pytest.mark.parametrize(
    ("event", "why"),
    [
        (SessionEvent(EventType.TOOL_CALL, {"tool": "research", "input_preview": "{}", "extra": 1}), "extra"),
        (SessionEvent(EventType.DONE, {"error": False}), "awaiting_input"),
        (SessionEvent(EventType.HEARTBEAT, {"beat": 1}), "beat"),
        (ev.tool_error("research", "NOT_A_CODE", "x"), "error_code"),
        (ev.error("SOMETHING_NEW", "x", recoverable=True), "code"),
        (SessionEvent(EventType.PHASE_CHANGE, {"phase": "dreaming", "round": 0}), "phase"),
        (SessionEvent(EventType.AGENT_TEXT, {"text": "not a string"}), "agent_text"),
    ],
)
def test_payloads_that_drift_from_their_model_fail_validation(event: SessionEvent, why: str) -> None:
    with pytest.raises(ValidationError) as raised:
        event_out(_sample(event))
    assert why in str(raised.value)


async def test_an_unknown_field_deep_in_a_review_payload_fails_validation(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    streamed = await run_and_stream(client, sid)
    review = next(e for e in streamed if e.type == "review_decompose")
    good = SessionEvent(EventType.REVIEW_DECOMPOSE, review.data)
    assert event_out(_sample(good)).model_dump(mode="json")["data"] == review.data
    for path in (("assumptions", 0), ("state_of_art", "evidence", 0), ("reframings", 0), ()):
        data: Any = _copy(review.data)
        target = data
        for key in path:
            target = target[key]
        target["surprise"] = True
        with pytest.raises(ValidationError, match="surprise"):
            event_out(_sample(SessionEvent(EventType.REVIEW_DECOMPOSE, data)))


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def test_every_run_error_code_and_severity_the_backend_emits_is_declared() -> None:
    package = Path(forge.__file__).parent
    source = "\n".join(p.read_text(encoding="utf-8") for p in package.rglob("*.py"))
    codes = set(re.findall(r'ev\.error\(\s*"([A-Z_]+)"', source))
    assert codes and codes <= set(get_args(RunErrorCode)) | {c.value for c in ErrorCode}
    severities = set(re.findall(r'severity="(\w+)"', source))
    error_model = EVENT_MODELS[EventType.ERROR].model_fields["data"].annotation
    assert error_model is not None
    assert severities <= set(get_args(error_model.model_fields["severity"].annotation))


def test_openapi_names_every_event_model_and_the_discriminator() -> None:
    document = openapi_document()
    schemas = document["components"]["schemas"]
    union = schemas["SessionEventOut"]
    assert union["discriminator"]["propertyName"] == "type"
    mapping = union["discriminator"]["mapping"]
    assert mapping == {t.value: f"#/components/schemas/{EVENT_MODELS[t].__name__}" for t in EventType}
    assert {r["$ref"] for r in union["oneOf"]} == set(mapping.values())
    for model in EVENT_MODELS.values():
        schema = schemas[model.__name__]
        assert schema["description"] and schema["properties"]["type"]["const"] in mapping
        data = schema["properties"]["data"]
        if "$ref" in data:
            payload = schemas[data["$ref"].rsplit("/", 1)[1]]
            assert payload["additionalProperties"] is False and payload["description"]
    assert schemas["EventPage"]["properties"]["events"]["items"] == {"$ref": "#/components/schemas/SessionEventOut"}
    for enum in ("Phase", "ErrorCode", "ReviewType", "ClaimStatus", "ClaimType", "VerdictType", "EvidenceType"):
        assert "enum" in schemas[enum], enum
    assert schemas["BuildReviewData"]["properties"]["graph"] == {"$ref": "#/components/schemas/FlowGraphResponse"}
    graph = document["paths"]["/api/v1/sessions/{session_id}/graph"]["get"]["responses"]["200"]
    assert graph["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/FlowGraphResponse"}

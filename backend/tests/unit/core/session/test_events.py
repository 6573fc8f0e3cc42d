"""Session events: the fifteen spec events plus heartbeat, and their JSON payloads."""

from __future__ import annotations

import json

from forge.core.domain_types import Phase, ReviewType
from forge.core.session.events import (
    LIVE_EVENT_TYPES,
    REVIEW_EVENT,
    EventType,
    agent_text,
    context_usage,
    done,
    error,
    knowledge_document,
    phase_change,
    review,
    tool_call,
    tool_error,
    tool_result,
    user_input,
)
from forge.core.session.records import ResearchHit


def test_the_specs_fifteen_event_types_plus_heartbeat_engine_stage_saga_verify_and_three_live_only_ones() -> None:
    assert len(EventType) == 25
    assert {EventType.SAGA_FINDING, EventType.SAGA_DIRECTIVE, EventType.SAGA_CHECKPOINT}.isdisjoint(LIVE_EVENT_TYPES)
    assert EventType.HEARTBEAT in EventType and EventType.ENGINE_STAGE not in LIVE_EVENT_TYPES
    assert {EventType.AGENT_TEXT_DELTA, EventType.AGENT_TEXT_DISCARDED, EventType.ENGINE_PROGRESS} == LIVE_EVENT_TYPES


def test_each_review_type_has_its_own_review_event() -> None:
    assert set(REVIEW_EVENT) == set(ReviewType)
    assert len(set(REVIEW_EVENT.values())) == len(ReviewType)


def test_review_event_carries_the_payload_under_the_matching_type() -> None:
    event = review(ReviewType.VERDICTS, {"claims": []})
    assert event.type == EventType.REVIEW_VERDICTS
    assert event.data == {"claims": []}


def test_factories_build_the_spec_payloads() -> None:
    assert agent_text("hi").data == "hi"
    assert tool_call("research", "{...}").data == {"tool": "research", "input_preview": "{...}"}
    assert tool_error("t", "GRAPH_CYCLE", "m").data == {"tool": "t", "error_code": "GRAPH_CYCLE", "message": "m"}
    assert tool_result("t", "ok").data == {"tool": "t", "summary": "ok", "sources": []}
    hit = ResearchHit("https://example.org/a", "A study", "long snippet that stays in the research log")
    assert tool_result("research", "1 result(s)", (hit,)).data["sources"] == [
        {"source": "https://example.org/a", "title": "A study"}
    ]
    assert phase_change(Phase.EXPLORE, 0).data == {"phase": "explore", "round": 0, "resumed": False}
    assert phase_change(Phase.EXPLORE, 0, resumed=True).data["resumed"] is True
    assert done(error=False, awaiting_input=True).data == {"error": False, "awaiting_input": True}
    assert error("X", "m", recoverable=True).data == {
        "code": "X",
        "message": "m",
        "severity": "error",
        "recoverable": True,
    }
    assert knowledge_document("# Doc").data == {"markdown": "# Doc"}
    assert user_input(ReviewType.CLAIMS_REVIEW, "s").data == {"type": "claims_review", "summary": "s"}


def test_context_usage_computes_remaining_and_percentage() -> None:
    data = context_usage(250, 1000, "m", 0.5).data
    assert data == {
        "tokens_used": 250,
        "tokens_limit": 1000,
        "tokens_remaining": 750,
        "usage_percentage": 25.0,
        "model": "m",
        "cost_usd": 0.5,
        "curation": None,  # an uncurated call (an engine stage)
        "price_known": True,
    }


def test_context_usage_never_reports_negative_remaining() -> None:
    assert context_usage(1200, 1000, "m").data["tokens_remaining"] == 0


def test_context_usage_with_no_limit_reports_zero_percent() -> None:
    assert context_usage(10, 0, "m").data["usage_percentage"] == 0.0


def test_every_factory_payload_is_json_serialisable() -> None:
    events = [
        agent_text("a"),
        tool_call("t", "i"),
        tool_error("t", "c", "m"),
        tool_result("t", "s"),
        phase_change(Phase.BUILD, 2),
        context_usage(1, 2, "m"),
        done(error=True, awaiting_input=False),
        error("c", "m", recoverable=False),
        knowledge_document("md"),
        user_input(ReviewType.VERDICTS, "s"),
        review(ReviewType.BUILD_DECISION, {"graph": {"nodes": [], "edges": []}}),
    ]
    for event in events:
        json.dumps({"type": event.type.value, "data": event.data})

"""The agent loop with a scripted model: whole exchanges asserted, tool sequence and rule errors."""

from __future__ import annotations

import json

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner, ToolExecuted
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, ReframingType, SessionId
from forge.core.llm.messages import Message, Role, TextPart, ToolResult, user_text
from forge.core.session.events import EventType, SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HITS = [
    ResearchHit("corpus://queueing/littles-law", "Little's law", "Average queue length equals arrival rate times wait.")
]


def _context(state: ForgeState) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch(HITS), FixedClock(), ids, "scripted model")


async def _run_logged(
    model: ScriptedModel, state: ForgeState, **kwargs: int
) -> tuple[list[SessionEvent], list[Message], list[ToolExecuted]]:
    """Events, the final conversation, and the tool-call log of one run."""
    run = await record_run(AgentRunner(model, **kwargs), _context(state), [phase_kickoff(state)])
    return run.events, run.messages, run.tool_calls


async def _run(model: ScriptedModel, state: ForgeState, **kwargs: int) -> tuple[list[SessionEvent], list[Message]]:
    events, messages, _ = await _run_logged(model, state, **kwargs)
    return events, messages


def _decompose_script() -> list[Message]:
    reframings = [{"text": f"Reframing number {i}", "reframing_type": t.value} for i, t in enumerate(ReframingType)]
    return [
        turn(call("research", {"query": "hospital emergency wait times"})),
        turn(
            call("decompose_to_fundamentals", {"fundamentals": ["arrival rate", "service time", "staff"]}),
            call(
                "map_state_of_art", {"summary": "Queues dominate waits.", "sources": ["corpus://queueing/littles-law"]}
            ),
        ),
        turn(
            call(
                "extract_assumptions",
                {"assumptions": ["demand is fixed", "staff is the bottleneck", "triage is right"]},
            )
        ),
        turn(call("reframe_problem", {"reframings": reframings})),
        turn(text="Decomposed: the wait is a queueing effect."),
    ]


async def test_decompose_phase_runs_the_tool_sequence_and_pauses_for_review() -> None:
    state = ForgeState(problem=PROBLEM)
    model = ScriptedModel(_decompose_script())
    events, messages = await _run(model, state)
    tools = [e.data["tool"] for e in events if e.type == EventType.TOOL_RESULT]
    assert tools == [
        "research",
        "decompose_to_fundamentals",
        "map_state_of_art",
        "extract_assumptions",
        "reframe_problem",
    ]
    results = [e.data for e in events if e.type == EventType.TOOL_RESULT]
    found = state.research_log[0].hits
    assert found and results[0]["sources"] == [{"source": h.source, "title": h.title} for h in found]
    assert all(r["sources"] == [] for r in results[1:])  # only research reports sources
    assert [e.type for e in events][-2:] == [EventType.REVIEW_DECOMPOSE, EventType.DONE]
    assert events[-1].data == {"error": False, "awaiting_input": True}
    assert state.awaiting_input_type is not None and state.awaiting_input_type.value == "decompose_review"
    review = events[-2].data
    assert len(review["reframings"]) == 4 and review["reframings"][0]["index"] == 0
    assert state.state_of_art is not None and state.state_of_art.evidence[0].query == "hospital emergency wait times"
    # The model saw only DECOMPOSE tools, and every tool result went back to it.
    # One stable tool list for the whole session (the phase is enforced by dispatch), so a
    # provider's prompt cache survives phase changes.
    offered = [t.name for t in model.requests[0].tools]
    assert "decompose_to_fundamentals" in offered and "create_synthesis" in offered
    assert all([t.name for t in r.tools] == offered for r in model.requests)
    assert messages[-1].role == Role.ASSISTANT and "queueing" in messages[-1].text


async def test_each_successful_result_carries_the_phase_progress_and_says_when_the_work_is_done() -> None:
    state = ForgeState(problem=PROBLEM)
    model = ScriptedModel(_decompose_script())
    await _run(model, state)
    results = [p for r in model.requests for m in r.messages for p in m.parts if isinstance(p, ToolResult)]
    progress = [json.loads(r.content)["progress"] for r in dict.fromkeys(results)]
    assert progress[0] == (
        "DECOMPOSE round 1: fundamentals missing, state of the art missing, assumptions 0/3, reframings 0/3"
    )
    assert "work is complete: stop calling tools" in progress[-1]
    assert not any("work is complete" in p for p in progress[:-1])


async def test_state_of_art_before_research_returns_rule_12_error_to_the_model() -> None:
    state = ForgeState(problem=PROBLEM)
    script = [
        turn(call("map_state_of_art", {"summary": "Queues dominate.", "sources": ["corpus://queueing/littles-law"]})),
        turn(text="stopping"),
        turn(text="stopping"),
    ]
    model = ScriptedModel(script)
    events, _, tool_log = await _run_logged(model, state, max_nudges=1)
    error = next(e for e in events if e.type == EventType.TOOL_ERROR)
    assert error.data["error_code"] == "STATE_OF_ART_NOT_RESEARCHED"
    assert [(t.name, t.error_code) for t in tool_log] == [("map_state_of_art", "STATE_OF_ART_NOT_RESEARCHED")]
    result = model.requests[1].messages[-1].parts[0]
    assert isinstance(result, ToolResult) and result.is_error
    assert json.loads(result.content)["error_code"] == "STATE_OF_ART_NOT_RESEARCHED"
    # The model stopped early twice: it was told what is missing once, then the run ended recoverably.
    nudge = model.requests[2].messages[-1]
    assert "DECOMPOSE_INCOMPLETE" in nudge.text
    assert [e.type for e in events][-2:] == [EventType.ERROR, EventType.DONE]
    assert events[-2].data["recoverable"] is True


def _synthesize_state() -> ForgeState:
    state = ForgeState(problem=PROBLEM)
    state.enter_phase(Phase.SYNTHESIZE)
    return state


async def test_create_synthesis_before_find_antithesis_returns_antithesis_missing() -> None:
    state = _synthesize_state()
    script = [
        turn(call("research", {"query": "emergency queue pooling"})),
        turn(
            call(
                "state_thesis", {"thesis": "Pooling emergency queues cuts waits", "evidence_sources": [HITS[0].source]}
            )
        ),
        turn(
            call(
                "create_synthesis",
                {
                    "claim_index": 0,
                    "claim_text": "Pooling cuts waits when load is high",
                    "falsifiability_condition": "No drop in median wait after pooling",
                },
            )
        ),
        turn(call("research", {"query": "pooling emergency queues fails"})),
        turn(call("find_antithesis", {"claim_index": 0, "antithesis": "Pooling mixes acuity levels and harms triage"})),
        turn(
            call(
                "create_synthesis",
                {
                    "claim_index": 0,
                    "claim_text": "Pooling cuts waits when load is high",
                    "falsifiability_condition": "No drop in median wait after pooling",
                },
            )
        ),
        turn(text="One claim synthesized."),
    ]
    model = ScriptedModel(script)
    events, _ = await _run(model, state)
    errors = [(e.data["tool"], e.data["error_code"]) for e in events if e.type == EventType.TOOL_ERROR]
    assert errors == [("create_synthesis", "ANTITHESIS_MISSING")]
    third_result = model.requests[3].messages[-1].parts[0]
    assert isinstance(third_result, ToolResult) and "ANTITHESIS_MISSING" in third_result.content
    assert state.current_round_claims[0].synthesized
    assert events[-2].type == EventType.REVIEW_CLAIMS


async def test_a_fourth_thesis_is_refused_with_claim_limit_exceeded() -> None:
    state = _synthesize_state()
    cited = {"evidence_sources": [HITS[0].source]}
    theses = [call("state_thesis", {"thesis": f"Thesis number {i} about queues", **cited}) for i in range(4)]
    model = ScriptedModel(
        [
            turn(call("research", {"query": "queues"})),
            turn(*theses),
            turn(text="done"),
            turn(text="done"),
            turn(text="done"),
        ]
    )
    events, _ = await _run(model, state)
    codes = [e.data["error_code"] for e in events if e.type == EventType.TOOL_ERROR]
    assert codes == ["CLAIM_LIMIT_EXCEEDED"]
    assert len(state.current_round_claims) == 3


async def test_unknown_tool_wrong_phase_bad_json_and_bad_schema_become_tool_errors() -> None:
    state = ForgeState(problem=PROBLEM)
    script = [
        turn(
            call("no_such_tool"),
            call("create_synthesis", {"claim_index": 0}),
            call("extract_assumptions", {}, parse_error="Expecting ',' delimiter: line 1 column 9"),
            call("extract_assumptions", {"assumptions": "not a list"}),
        ),
        turn(text="stop"),
    ]
    events, _ = await _run(ScriptedModel(script), state, max_nudges=0)
    codes = [e.data["error_code"] for e in events if e.type == EventType.TOOL_ERROR]
    assert codes == ["UNKNOWN_TOOL", "TOOL_NOT_IN_PHASE", "INVALID_INPUT", "INVALID_INPUT"]


async def test_loop_stops_after_max_iterations_with_a_recoverable_error() -> None:
    state = ForgeState(problem=PROBLEM)
    script = [turn(call("get_session_status")) for _ in range(3)]
    events, _ = await _run(ScriptedModel(script), state, max_iterations=3)
    assert events[-2].type == EventType.ERROR and events[-2].data["code"] == "MAX_ITERATIONS"
    assert events[-1].data == {"error": True, "awaiting_input": False}


async def test_model_failure_ends_the_run_recoverably() -> None:
    state = ForgeState(problem=PROBLEM)
    events, _ = await _run(ScriptedModel([]), state)
    assert [e.type for e in events] == [EventType.ERROR, EventType.DONE]
    assert events[0].data["code"] == "MODEL_ERROR" and events[0].data["recoverable"] is True


NARRATIVE = {
    "executive_summary": "Pooling the triage queues is the strongest claim; it held under falsification.",
    "recommendations": ["Pilot pooled triage for 8 weeks; stop if median wait does not fall 10%."],
    "open_questions": ["Which patients wait longest?"],
}


async def test_crystallize_nudges_a_model_that_stops_before_the_document_then_finishes() -> None:
    state = ForgeState(problem=PROBLEM)
    state.enter_phase(Phase.CRYSTALLIZE)
    model = ScriptedModel([turn(text="All done."), turn(call("generate_knowledge_document", NARRATIVE))])
    events, _ = await _run(model, state)
    assert "PHASE_WORK_INCOMPLETE" in model.requests[1].messages[-1].text
    assert [e.type for e in events][-2:] == [EventType.KNOWLEDGE_DOCUMENT, EventType.DONE]
    assert events[-1].data == {"error": False, "awaiting_input": False}
    document = state.knowledge_document_markdown or ""
    assert document.index("## Summary") < document.index("## 1. Problem and Framing")
    assert NARRATIVE["executive_summary"] in document and "1. Pilot pooled triage" in document


async def test_crystallize_sends_its_brief_not_the_sessions_conversation() -> None:
    state = ForgeState(problem=PROBLEM)
    state.enter_phase(Phase.CRYSTALLIZE)
    earlier = [user_text("[forge phase=build round=1]\nbuild brief"), Message(Role.ASSISTANT, (TextPart("built"),))]
    model = ScriptedModel([turn(call("generate_knowledge_document", NARRATIVE))])
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch(HITS), FixedClock(), ids, "scripted model")
    await record_run(AgentRunner(model), ctx, [*earlier, phase_kickoff(state)])
    sent = model.requests[0].messages
    assert len(sent) == 1 and sent[0].text.startswith("[forge phase=crystallize round=1]")

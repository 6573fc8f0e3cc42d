"""The OfflineModel as a LanguageModel: determinism, tool errors, nudges, rounds 2+, usage."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.shipped_triz import SHIPPED_TRIZ

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.system_prompt import SYSTEM_PROMPT
from forge.agent.tool_context import ToolContext
from forge.agent.tool_registry import tools_for_phase
from forge.core.domain_types import (
    AnalogyId,
    ClaimId,
    ClaimStatus,
    ClaimType,
    ContradictionId,
    Phase,
    SemanticDistance,
    SessionId,
)
from forge.core.hypotheses.remembered import RememberedHypothesis
from forge.core.llm.messages import Message, ModelRequest, Role, StopReason, ToolCall, ToolResult, user_text
from forge.core.research.text_terms import shares_terms
from forge.core.session.events import EventType, SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Analogy, Claim, Contradiction, MappingRow, NegativeKnowledge, ResearchHit
from forge.offline.frame.problem_frame import frame_problem
from forge.offline.offline_knowledge import load_offline_knowledge
from forge.offline.offline_model import OFFLINE_LABEL, OfflineModel
from forge.offline.phases.synthesis_directions import claim_text, from_contradictions
from forge.providers.token_counting import TiktokenCounter

HOSPITAL = "How can a hospital cut emergency wait times without more staff?"
HITS = (
    ResearchHit(
        "corpus://queueing/kingman",
        "Utilization and waiting",
        "Emergency wait times grow sharply as the utilization of staff nears one; pooling reduces waits.",
    ),
    ResearchHit(
        "corpus://applications/patient-flow",
        "Patient flow",
        "Boarding in the emergency department occupies staff and slows the assessment of new arrivals.",
    ),
)
GATE = {"error_code": "STATE_OF_ART_NOT_RESEARCHED", "message": "Research the problem first."}
Payload = Callable[[ToolCall], Mapping[str, Any]]


def _request(messages: Sequence[Message], phase: Phase = Phase.DECOMPOSE) -> ModelRequest:
    return ModelRequest(SYSTEM_PROMPT, tuple(messages), tools_for_phase(phase))


def _research_payload(call: ToolCall) -> Mapping[str, Any]:
    results = [{"source": h.source, "title": h.title, "snippet": h.snippet} for h in HITS]
    return {"query": call.arguments.get("query"), "provider": "memory", "results": results}


def _answer(calls: Sequence[ToolCall], overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Message:
    """Tool results for `calls`: research returns HITS, other tools succeed unless overridden."""
    results = []
    for call in calls:
        if overrides and call.name in overrides:
            results.append(ToolResult(call.id, json.dumps(overrides[call.name]), "error_code" in overrides[call.name]))
        elif call.name == "research":
            results.append(ToolResult(call.id, json.dumps(_research_payload(call))))
        else:
            results.append(ToolResult(call.id, json.dumps({"ok": True})))
    return Message(Role.USER, tuple(results))


async def _step(model: OfflineModel, messages: list[Message], phase: Phase = Phase.DECOMPOSE) -> list[ToolCall]:
    response = await model.complete(_request(messages, phase))
    messages.append(response.message)
    return list(response.message.tool_calls)


class TestOfflineModel:
    async def test_it_says_what_it_is(self) -> None:
        model = OfflineModel()
        assert model.label == OFFLINE_LABEL == "offline model (deterministic, no network)"
        assert model.context_window == 200_000

    async def test_the_same_request_gives_the_same_response(self) -> None:
        request = _request([phase_kickoff(ForgeState(problem=HOSPITAL))])
        first, second = await OfflineModel().complete(request), await OfflineModel().complete(request)
        assert first == second

    async def test_the_first_decompose_step_researches_the_problem_and_frames_it(self) -> None:
        messages = [phase_kickoff(ForgeState(problem=HOSPITAL))]
        calls = await _step(OfflineModel(), messages)
        names = [c.name for c in calls]
        assert names == ["research", "decompose_to_fundamentals", "extract_assumptions", "reframe_problem"]
        assert [c.id for c in calls] == [f"offline-decompose-1-1-{k}" for k in range(4)]
        assert shares_terms(str(calls[0].arguments["query"]), HOSPITAL)
        args = {c.name: c.arguments for c in calls}
        assert 5 <= len(args["decompose_to_fundamentals"]["fundamentals"]) <= 7
        assert 3 <= len(args["extract_assumptions"]["assumptions"]) <= 5
        kinds = [r["reframing_type"] for r in args["reframe_problem"]["reframings"]]
        assert sorted(kinds) == ["domain_change", "entity_question", "scope_change", "variable_change"]

    async def test_it_reads_the_briefs_remembered_hypotheses_and_makes_each_an_assumption_to_test(self) -> None:
        state = ForgeState(problem=HOSPITAL)
        state.remembered_hypotheses = [
            RememberedHypothesis(
                "e1", "Fast-track lanes for minor cases cut waits", 0.43, 0.8, 1, 0, "How to cut clinic waits?", "s1"
            )
        ]
        calls = await _step(OfflineModel(), [phase_kickoff(state)])
        told = next(c for c in calls if c.name == "extract_assumptions").arguments["assumptions"]
        assert told[0] == (
            "That an earlier session's hypothesis holds here (memory, confidence 43%, supported 1, "
            "contradicted 0): Fast-track lanes for minor cases cut waits"
        )
        alone = await _step(OfflineModel(), [phase_kickoff(ForgeState(problem=HOSPITAL))])
        assert told[1:] == next(c for c in alone if c.name == "extract_assumptions").arguments["assumptions"]

    async def test_state_of_art_cites_only_what_research_returned(self) -> None:
        model = OfflineModel()
        messages = [phase_kickoff(ForgeState(problem=HOSPITAL))]
        messages.append(_answer(await _step(model, messages)))
        calls = await _step(model, messages)
        assert [c.name for c in calls] == ["map_state_of_art"]
        assert set(calls[0].arguments["sources"]) <= {h.source for h in HITS}
        messages.append(_answer(calls))
        response = await model.complete(_request(messages))
        assert response.stop_reason == StopReason.END_TURN and "offline model" in response.message.text

    async def test_it_recovers_from_state_of_art_not_researched(self) -> None:
        premature = ToolCall("other-1", "map_state_of_art", {"summary": "Queues dominate.", "sources": ["x"]})
        messages = [
            phase_kickoff(ForgeState(problem=HOSPITAL)),
            Message(Role.ASSISTANT, (premature,)),
            Message(Role.USER, (ToolResult(premature.id, json.dumps(GATE), True),)),
        ]
        calls = await _step(OfflineModel(), messages)
        assert calls[0].name == "research" and shares_terms(str(calls[0].arguments["query"]), HOSPITAL)
        assert "map_state_of_art" not in [c.name for c in calls]

    async def test_a_gate_error_after_research_moves_to_another_query_then_retries(self) -> None:
        model = OfflineModel()
        messages = [phase_kickoff(ForgeState(problem=HOSPITAL))]
        first = await _step(model, messages)
        messages.append(_answer(first))
        messages.append(_answer(await _step(model, messages), {"map_state_of_art": GATE}))
        retry_research = await _step(model, messages)
        assert [c.name for c in retry_research] == ["research"]
        assert retry_research[0].arguments["query"] != first[0].arguments["query"]
        messages.append(_answer(retry_research))
        assert [c.name for c in await _step(model, messages)] == ["map_state_of_art"]

    async def test_retries_are_bounded_and_a_nudge_restarts_them(self) -> None:
        model = OfflineModel()
        failed = {"map_state_of_art": {"error_code": "TOOL_FAILED", "message": "boom"}}
        messages = [phase_kickoff(ForgeState(problem=HOSPITAL))]
        messages.append(_answer(await _step(model, messages)))
        messages.append(_answer(await _step(model, messages), failed))
        messages.append(_answer(await _step(model, messages), failed))
        assert await _step(model, messages) == []  # given up: it ends the turn
        messages.append(
            user_text("Not done yet (DECOMPOSE_INCOMPLETE): DECOMPOSE is incomplete: still missing state of the art.")
        )
        assert [c.name for c in await _step(model, messages)] == ["map_state_of_art"]

    async def test_an_explore_nudge_about_cross_domain_searches_adds_a_domain(self) -> None:
        state = ForgeState(problem=HOSPITAL)
        state.enter_phase(Phase.EXPLORE)
        kickoff = phase_kickoff(state)
        plain = await OfflineModel().complete(_request([kickoff], Phase.EXPLORE))
        nudged = await OfflineModel().complete(
            _request(
                [
                    kickoff,
                    Message(Role.ASSISTANT, ()),
                    user_text(
                        "Not done yet (EXPLORE_INCOMPLETE): EXPLORE is incomplete: still missing at least 2 "
                        "cross-domain searches (have 0)."
                    ),
                ],
                Phase.EXPLORE,
            )
        )
        count = lambda r: sum(1 for c in r.message.tool_calls if c.name == "research")  # noqa: E731
        assert count(nudged) == count(plain) + 1 == 4

    async def test_it_calls_only_offered_tools(self) -> None:
        request = ModelRequest(SYSTEM_PROMPT, (phase_kickoff(ForgeState(problem=HOSPITAL)),), ())
        response = await OfflineModel().complete(request)
        assert response.message.tool_calls == () and response.stop_reason == StopReason.END_TURN

    async def test_without_a_phase_marker_it_answers_in_text(self) -> None:
        response = await OfflineModel().complete(_request([user_text("hello")]))
        assert response.stop_reason == StopReason.END_TURN and "marker" in response.message.text

    async def test_usage_counts_tokens_of_everything_sent_with_the_shipped_tokenizer(self) -> None:
        request = _request([phase_kickoff(ForgeState(problem=HOSPITAL))])
        response = await OfflineModel().complete(request)
        count = TiktokenCounter().count_tokens
        tools = sum(count(t.name) + count(t.description) + count(json.dumps(t.input_schema)) for t in request.tools)
        sent = count(SYSTEM_PROMPT) + tools + count(request.messages[0].text)
        assert response.usage.input_tokens == sent
        assert sent < math.ceil((len(SYSTEM_PROMPT) + len(request.messages[0].text)) / 2)
        assert response.usage.output_tokens > 0 and response.model == OFFLINE_LABEL


def _uuid(n: int) -> UUID:
    return UUID(int=10_000 + n)


def _round_two_state(*, deep_dive: bool) -> tuple[ForgeState, list[Claim], str]:
    frame = frame_problem(HOSPITAL)
    state = ForgeState(problem=HOSPITAL, current_phase=Phase.SYNTHESIZE, current_round=1)
    state.cross_domain_analogies = [
        Analogy(
            AnalogyId(_uuid(1)),
            "Queueing theory",
            frame.goal,
            "Pooling beats separate lines (Queueing theory): one shared queue feeding several servers gives shorter waits.",
            SemanticDistance.NEAR,
            (MappingRow("number of servers (c)", "capacity of staff", "servers ↔ staff"),),
            "fraction of time some staff are idle while others have patients waiting",
            "If servers are not interchangeable (specialist skills), pooling adds handoffs.",
            starred=True,
        )
    ]
    contradiction = Contradiction(
        ContradictionId(_uuid(2)),
        "reduce emergency wait times (TRIZ #25 Loss of time)",
        "without more staff (TRIZ #26 Quantity of substance or matter)",
        "They fight.",
        "Segment and prepare.",
        ("1. Segmentation", "10. Preliminary action"),
    )
    state.contradictions = [contradiction]
    graph = [
        Claim(ClaimId(_uuid(10 + i)), text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE, status=ClaimStatus.VALIDATED)
        for i, text in enumerate(
            (
                "Pooling staff across the emergency department reduces emergency wait times.",
                "Smoothing arrivals reduces emergency wait times without more staff.",
            )
        )
    ]
    segmentation = from_contradictions(
        [
            {
                "property_a": contradiction.property_a,
                "property_b": contradiction.property_b,
                "principles": list(contradiction.principles),
            }
        ],
        frame,
        load_offline_knowledge(),
    )[0]
    rejected = Claim(
        ClaimId(_uuid(20)),
        claim_text(segmentation, frame),
        ClaimType.SYNTHESIS,
        0,
        Phase.SYNTHESIZE,
        status=ClaimStatus.REJECTED,
    )
    state.past_round_claims = [*graph, rejected]
    state.knowledge_graph_nodes = list(graph)
    state.negative_knowledge = [NegativeKnowledge(rejected.id, rejected.text, "too vague", 0)]
    if deep_dive:
        state.deep_dive_active, state.deep_dive_target_claim_id = True, graph[1].id
    return state, graph, "splitting emergency wait times"


async def _run_phase(state: ForgeState) -> list[SessionEvent]:
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch(HITS), FixedClock(), ids, OFFLINE_LABEL, SHIPPED_TRIZ)
    return (await record_run(AgentRunner(OfflineModel()), ctx, [phase_kickoff(state)])).events


class TestLaterRounds:
    async def test_round_two_consults_negative_knowledge_and_builds_on_the_graph(self) -> None:
        state, graph, rejected_action = _round_two_state(deep_dive=False)
        events = await _run_phase(state)
        calls = [e.data["tool"] for e in events if e.type == EventType.TOOL_CALL]
        assert calls[0] == "get_negative_knowledge"
        assert not [e for e in events if e.type in (EventType.TOOL_ERROR, EventType.ERROR)]
        assert events[-2].type == EventType.REVIEW_CLAIMS
        claims = state.current_round_claims
        assert len(claims) >= 2 and all(c.synthesized for c in claims)
        assert all(c.builds_on and c.builds_on[0] in {g.id for g in graph} for c in claims)
        assert len({c.builds_on[0] for c in claims}) == 2  # spread over the graph, not piled on one claim
        assert not any(rejected_action in c.text for c in claims)

    async def test_a_deep_dive_builds_every_claim_on_the_chosen_claim(self) -> None:
        state, graph, _ = _round_two_state(deep_dive=True)
        await _run_phase(state)
        assert state.current_round_claims
        assert all(c.builds_on == (graph[1].id,) for c in state.current_round_claims)
        assert all(c.text.startswith("Extending 'Smoothing arrivals") for c in state.current_round_claims)


async def test_with_research_that_finds_nothing_the_run_ends_with_an_error_not_a_loop() -> None:
    state = ForgeState(problem=HOSPITAL)
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, OFFLINE_LABEL, SHIPPED_TRIZ)
    events = (await record_run(AgentRunner(OfflineModel()), ctx, [phase_kickoff(state)])).events
    errors = [e.data["code"] for e in events if e.type == EventType.ERROR]
    assert errors == ["DECOMPOSE_INCOMPLETE"]
    assert sum(1 for e in events if e.type == EventType.CONTEXT_USAGE) < 20
    assert state.fundamentals and len(state.assumptions) >= 3 and state.state_of_art is None

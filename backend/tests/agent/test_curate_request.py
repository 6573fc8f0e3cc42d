"""The curator in the agent's call path: what the model is sent, and the curation summary of each call."""

from __future__ import annotations

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, turn

from forge.agent.curate_request import DEFAULT_BUDGETS, RequestCurator, counting_provider
from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.curation.listwise_selection import CurationBudget
from forge.core.domain_types import Phase, SessionId, ToolCallId
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message, Role, TextPart, ToolCall, ToolResult
from forge.core.session_events import EventType
from forge.providers.token_counting import CountingProvider

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def _earlier_decompose(state: ForgeState) -> list[Message]:
    call = ToolCall(ToolCallId("old-1"), "research", {"query": "bee colony foraging"})
    return [
        phase_kickoff(state),
        Message(Role.ASSISTANT, (call,)),
        Message(Role.USER, (ToolResult(ToolCallId("old-1"), "honey bees dance to recruit foragers " * 200),)),
        Message(Role.ASSISTANT, (TextPart("Decompose is done."),)),
    ]


class TestRequestCurator:
    def test_the_provider_comes_from_the_label(self) -> None:
        assert counting_provider("anthropic:claude-sonnet-4-6") == CountingProvider.ANTHROPIC
        assert counting_provider("local:qwen2.5") == CountingProvider.OPENAI_COMPATIBLE
        assert counting_provider("offline model (deterministic, no network)") == CountingProvider.OFFLINE

    def test_a_small_context_window_caps_the_budget_at_three_quarters_of_it(self) -> None:
        small = RequestCurator("local:tiny", 8_192)
        assert small.budget_for().context_tokens == 6_144
        large = RequestCurator("anthropic:claude-sonnet-4-6", 200_000)
        assert large.budget_for() == DEFAULT_BUDGETS[CountingProvider.ANTHROPIC]

    def test_a_budget_changed_between_calls_applies_to_the_next_call(self) -> None:
        curator = RequestCurator("anthropic:claude-sonnet-4-6", 200_000)
        curator.budgets = {CountingProvider.ANTHROPIC: CurationBudget(context_tokens=9_000, carry_tokens=10)}
        assert curator.budget_for().carry_tokens == 10


class TestRunnerCuratesEachCall:
    async def test_an_earlier_phases_unrelated_exchange_is_left_out_and_the_usage_event_says_why(self) -> None:
        state = ForgeState(problem=PROBLEM)
        history = _earlier_decompose(state)
        state.current_phase = Phase.EXPLORE
        history.append(phase_kickoff(state))
        model = ScriptedModel([turn(text="Nothing to add.")])
        curator = RequestCurator(model.label, model.context_window)
        ids = CountingIds()
        ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
        run = await record_run(AgentRunner(model, max_nudges=0, curator=curator), ctx, history)

        sent = model.requests[0].messages
        assert [m.text for m in sent] == [history[0].text, "Decompose is done.", history[-1].text]
        assert not any(m.tool_calls or m.tool_results for m in sent)
        usage = next(e.data for e in run.events if e.type == EventType.CONTEXT_USAGE)
        curation = usage["curation"]
        assert curation["units_dropped"] == 1 and not curation["fell_back"]
        assert curation["tokens_sent"] < curation["tokens_available"]
        dropped = next(u for u in curation["units"] if u["outcome"] == "dropped")
        assert dropped["tools"] == ["research"] and dropped["reason"] == "stop_rule"
        assert run.messages[: len(history)] == history  # the stored conversation is never curated

    async def test_within_the_current_phase_every_message_is_sent(self) -> None:
        state = ForgeState(problem=PROBLEM)
        model = ScriptedModel([turn(text="Thinking.")])
        ids = CountingIds()
        ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
        history = _earlier_decompose(state)[:3]
        await record_run(AgentRunner(model, max_nudges=0), ctx, history)
        assert model.requests[0].messages == tuple(history)

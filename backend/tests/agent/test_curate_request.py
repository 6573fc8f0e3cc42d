"""The curator in the agent's call path: what the model is sent, and the curation summary of each call."""

from __future__ import annotations

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.curate_request import DEFAULT_BUDGETS, LiveCurationSettings, RequestCurator, counting_provider
from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.curation.curation_settings import CurationChange
from forge.core.domain_types import Phase, SessionId, ToolCallId
from forge.core.llm.messages import Message, Role, TextPart, ToolCall, ToolResult
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.providers.token_counting import CountingProvider

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def _earlier_decompose(state: ForgeState) -> list[Message]:
    call = ToolCall(ToolCallId("old-1"), "research", {"query": "bee colony foraging"})
    return [
        phase_kickoff(state),
        Message(Role.ASSISTANT, (call,)),
        Message(Role.USER, (ToolResult(ToolCallId("old-1"), "honey bees dance to recruit foragers " * 900),)),
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
        settings = LiveCurationSettings()
        curator = RequestCurator("anthropic:claude-sonnet-4-6", 200_000, settings)
        settings.update(CurationChange(context_tokens=9_000, carry_tokens=10, navigation_max_edges=3))
        assert curator.budget_for().carry_tokens == 10 and curator.budget_for().context_tokens == 9_000
        assert curator.navigation_budget().max_edges == 3

    def test_a_change_out_of_range_is_refused_and_changes_nothing(self) -> None:
        settings = LiveCurationSettings()
        before = settings.current()
        assert "carry_tokens" in str(settings.update(CurationChange(carry_tokens=0)))
        assert settings.current() is before


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
        assert [m.text for m in sent[:2]] == [history[0].text, "Decompose is done."]
        assert sent[2].text.startswith(history[-1].text)  # the brief, with the curator's recall note
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


class TestLiveBudgets:
    async def test_a_budget_changed_while_a_run_goes_on_applies_to_its_next_call(self) -> None:
        state = ForgeState(problem=PROBLEM)
        history = _earlier_decompose(state)
        state.current_phase = Phase.EXPLORE
        history.append(phase_kickoff(state))
        settings = LiveCurationSettings()
        model = ScriptedModel([turn(call("get_session_status")), turn(text="Done.")])
        runner = AgentRunner(model, max_nudges=0, curator=RequestCurator(model.label, model.context_window, settings))
        ids = CountingIds()
        ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
        carried: list[object] = []
        async for output in runner.run(ctx, history):
            for event in getattr(output, "events", ()):
                if event.type == EventType.CONTEXT_USAGE:
                    curation = event.data["curation"]
                    carried.append((curation["budget_tokens"], curation["carry_budget_tokens"]))
                    # an operator, between the two calls of one run
                    settings.update(CurationChange(context_tokens=9_000, carry_tokens=5_000))
        assert carried == [(60_000, 1_000), (9_000, 5_000)]


class TestRecall:
    async def test_the_model_reads_a_dropped_exchange_back_by_the_id_the_note_names(self) -> None:
        state = ForgeState(problem=PROBLEM)
        history = _earlier_decompose(state)
        state.current_phase = Phase.EXPLORE
        history.append(phase_kickoff(state))
        model = ScriptedModel([turn(call("recall", {"ids": ["m1-2"]})), turn(text="The bees recruit by dancing.")])
        ids = CountingIds()
        ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
        run = await record_run(AgentRunner(model, max_nudges=0), ctx, history)

        first, second = model.requests
        note = first.messages[-1].parts[-1]
        assert isinstance(note, TextPart)
        assert note.text.startswith("[context curator]") and "decompose/1: m1-2 research" in note.text
        assert not any("honey bees" in m.text for m in first.messages)
        result = second.messages[-1].tool_results[0]
        assert "honey bees dance to recruit foragers" in result.content and not result.is_error
        assert run.tool_calls[0].name == "recall" and run.tool_calls[0].output["items"][0]["id"] == "m1-2"
        assert run.messages[-1].text == "The bees recruit by dancing."

    async def test_a_query_finds_the_dropped_exchange_and_an_unknown_id_is_named(self) -> None:
        state = ForgeState(problem=PROBLEM)
        history = _earlier_decompose(state)
        state.current_phase = Phase.EXPLORE
        history.append(phase_kickoff(state))
        script = [
            turn(call("recall", {"query": "bee foraging dance"}), call("recall", {"ids": ["m9-9"]})),
            turn(text="ok"),
        ]
        model = ScriptedModel(script)
        ids = CountingIds()
        ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
        run = await record_run(AgentRunner(model, max_nudges=0), ctx, history)
        by_query, unknown = (c.output for c in run.tool_calls)
        assert [i["id"] for i in by_query["items"]] == ["m1-2"]
        assert unknown["items"] == [] and unknown["unknown_ids"] == ["m9-9"] and unknown["known_ids"] == ["m1-2"]

    async def test_with_nothing_left_out_there_is_no_note_and_recall_says_so(self) -> None:
        state = ForgeState(problem=PROBLEM)
        model = ScriptedModel([turn(call("recall", {"query": "anything"})), turn(text="ok")])
        ids = CountingIds()
        ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
        run = await record_run(AgentRunner(model, max_nudges=0), ctx, [phase_kickoff(state)])
        assert not any("[context curator]" in m.text for m in model.requests[0].messages)
        assert run.tool_calls[0].output["items"] == []


class TestStablePrefix:
    async def test_an_earlier_brief_sent_whole_keeps_the_note_it_was_sent_with(self) -> None:
        state = ForgeState(problem=PROBLEM)
        history = _earlier_decompose(state)
        state.current_phase = Phase.EXPLORE
        history.append(phase_kickoff(state))
        curator = RequestCurator("anthropic:claude-sonnet-5-5", 200_000)
        during = curator.curate(state, history, "system", ()).context
        explore_brief = during.messages[-1]
        assert "[context curator]" in explore_brief.text and during.settled == 1

        history += [Message(Role.ASSISTANT, (TextPart("Explore is done."),))]
        state.current_phase = Phase.SYNTHESIZE
        history.append(phase_kickoff(state))
        after = curator.curate(state, history, "system", ()).context
        # Explore freed too little to be compacted yet: sent whole, its brief byte-identical (note and all),
        # so a prompt cache reads everything up to the new brief.
        assert after.messages[: len(during.messages)] == during.messages
        assert after.settled == 1 and after.summary.tokens_sent <= after.summary.budget.context_tokens
        assert after.messages[-1].text.startswith(history[-1].text) and "[context curator]" in after.messages[-1].text

    async def test_the_request_marks_the_settled_prefix_for_the_providers_cache(self) -> None:
        state = ForgeState(problem=PROBLEM)
        history = _earlier_decompose(state)
        state.current_phase = Phase.EXPLORE
        history.append(phase_kickoff(state))
        model = ScriptedModel([turn(text="Nothing to add.")])
        ids = CountingIds()
        ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
        await record_run(AgentRunner(model, max_nudges=0), ctx, history)
        request = model.requests[0]
        assert request.cache_anchor == 1 and request.messages[1].text == "Decompose is done."  # it opens explore

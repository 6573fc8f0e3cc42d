"""The loop's guard rails for weak (small local) models: a model that repeats one call is refused, then
stopped with a message that says it loops; one whose calls are all refused as invalid input is stopped
with a message that says what to do; one that answers in prose and calls no tool is stopped
with a message that says so; a model on a server it learns is learned before the first call."""

from __future__ import annotations

import json

from support.agent_run import RunRecord, record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.model_stop_messages import PROSE_ONLY
from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import SessionId
from forge.core.llm.messages import Message, ModelRequest, ModelResponse, Role, TextPart, ToolCall, ToolResult
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HIT = ResearchHit("https://example.org/ed-flow", "Emergency department flow", "Boarding delays emergency care.")


async def _run(model: ScriptedModel, max_nudges: int = 3) -> RunRecord:
    state = ForgeState(problem=PROBLEM)
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, model.label)
    return await record_run(AgentRunner(model, max_nudges=max_nudges), ctx, [phase_kickoff(state)])


def _results(record: RunRecord) -> list[tuple[bool, str]]:
    out: list[tuple[bool, str]] = []
    for message in record.messages:
        for part in message.parts:
            if isinstance(part, ToolResult):
                out.append((part.is_error, json.loads(part.content).get("error_code", "ok")))
    return out


async def test_a_model_repeating_one_call_is_refused_then_stopped_as_looping() -> None:
    same = call("research", {"query": "Emergency   department flow"})
    noisy = call("research", {"query": "emergency department FLOW"})  # the same call, case and spaces aside
    model = ScriptedModel([turn(same), turn(noisy)] * 15)
    record = await _run(model)

    assert len(model.requests) == 6  # stopped at the sixth identical call, far within 30
    assert _results(record) == [(False, "ok")] * 2 + [(True, "REPEATED_CALL")] * 4
    errors = [e.data for e in record.events if e.type == EventType.ERROR]
    assert [e["code"] for e in errors] == ["MODEL_LOOPING"]
    assert "looping" in errors[0]["message"] and "'research'" in errors[0]["message"]
    assert record.events[-1].data == {"error": True, "awaiting_input": False}


async def test_a_model_writing_unreadable_arguments_again_and_again_is_stopped() -> None:
    garbage = [call("research", {}, parse_error=f"not JSON: ']}}, \\n{i}'") for i in range(10)]
    model = ScriptedModel([turn(g) for g in garbage])
    record = await _run(model)

    assert len(model.requests) == 6
    assert [e.data["code"] for e in record.events if e.type == EventType.ERROR] == ["MODEL_LOOPING"]


async def test_a_model_that_only_answers_in_prose_is_stopped_with_a_message_that_says_so() -> None:
    model = ScriptedModel([turn(text="Emergency waits are long because of boarding.")] * 4)
    record = await _run(model, max_nudges=2)

    nudges = [m.text for m in record.messages if m.role == Role.USER][1:]
    assert len(model.requests) == 3 and len(nudges) == 2 and all(n.startswith(PROSE_ONLY) for n in nudges)
    (error,) = [e.data for e in record.events if e.type == EventType.ERROR]
    assert error["code"] == "MODEL_CALLED_NO_TOOL"
    assert "answered in prose and called no tool in 3 replies" in error["message"]
    assert "DECOMPOSE_INCOMPLETE" in error["message"] and "--jinja" in error["message"]


class LearningModel(ScriptedModel):
    """A scripted model on a server it learns: a 16k window and a 1.3 token margin."""

    def __init__(self, script: list[Message]) -> None:
        super().__init__(script, label="local:gemma-3-270m")
        self.window = 128_000
        self.learned_before: list[int] = []

    @property
    def context_window(self) -> int:
        return self.window

    @property
    def token_margin(self) -> float | None:
        return 1.3 if self.window == 16_384 else None

    async def learn_server(self) -> None:
        self.window = 16_384

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.learned_before.append(self.window)
        return await super().complete(request)


async def test_a_model_on_a_server_it_learns_is_learned_before_the_first_call_and_the_budget_fits() -> None:
    model = LearningModel([Message(Role.ASSISTANT, (TextPart("Done."),))])
    state = ForgeState(problem=PROBLEM)
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, model.label)
    runner = AgentRunner(model, max_nudges=0)
    await record_run(runner, ctx, [phase_kickoff(state)])

    assert model.learned_before == [16_384]
    assert runner.curator.budget_for().context_tokens == 12_288  # three quarters of the learned window
    assert runner.curator.count("x" * 100) == runner.curator.count("x" * 100) > 0


async def test_a_junk_value_from_broken_json_is_refused_with_the_reason() -> None:
    junk = call("extract_assumptions", {"assumptions": ["Staff numbers stay fixed", "]}, \n'&#34;}"]})
    model = ScriptedModel([turn(junk), turn(text="Done.")])
    record = await _run(model, max_nudges=0)

    (error,) = [e.data for e in record.events if e.type == EventType.TOOL_ERROR]
    assert error["error_code"] == "INVALID_INPUT"
    assert "assumptions[1]" in error["message"] and "fragment of broken JSON" in error["message"]


def _half_reframing(i: int) -> ToolCall:
    """A reframing without its type, the text different each time (so no repeat guard is involved)."""
    return call("reframe_problem", {"reframings": [{"text": f"What if wait time {i} were measured per bed?"}]})


MISSING_TYPE = (
    "Invalid input — reframings.0.reframing_type: Field required "
    "(one of: scope_change, entity_question, variable_change, domain_change)."
)


async def test_a_model_whose_calls_are_all_invalid_is_stopped_with_a_message_that_says_what_to_do() -> None:
    model = ScriptedModel([turn(_half_reframing(i)) for i in range(12)])
    record = await _run(model)

    assert len(model.requests) == 6  # stopped at the sixth invalid call in a row
    assert [(e.type, e.data.get("tool")) for e in record.events if e.type != EventType.CONTEXT_USAGE] == [
        (EventType.TOOL_CALL, "reframe_problem"),
        (EventType.TOOL_ERROR, "reframe_problem"),
    ] * 6 + [(EventType.ERROR, None), (EventType.DONE, None)]
    refusals = [e.data for e in record.events if e.type == EventType.TOOL_ERROR]
    assert {(r["error_code"], r["message"]) for r in refusals} == {("INVALID_INPUT", MISSING_TYPE)}
    assert _results(record) == [(True, "INVALID_INPUT")] * 6
    (error,) = [e.data for e in record.events if e.type == EventType.ERROR]
    assert error["code"] == "MODEL_INVALID_CALLS" and error["recoverable"] is True
    assert error["message"] == (
        "The model could not form a valid tool call: its last 6 calls were all refused as invalid input (the last, "
        "'reframe_problem': \"reframings.0.reframing_type: Field required (one of: scope_change, entity_question, "
        'variable_change, domain_change)."). The run stopped; this model cannot '
        "fill in the tools' arguments. Choose a larger model with a tool-calling chat template (see README "
        '"Real models" for local server settings that work), or resume to let it try again.'
    )
    assert record.events[-1].data == {"error": True, "awaiting_input": False}


async def test_a_valid_call_between_invalid_ones_resets_the_count() -> None:
    valid = call("extract_assumptions", {"assumptions": ["Staff numbers stay fixed over the year"]})
    script = [turn(_half_reframing(i)) for i in range(5)] + [turn(valid)]
    model = ScriptedModel(script + [turn(_half_reframing(i)) for i in range(5, 17)])
    record = await _run(model)

    assert len(model.requests) == 12  # 5 invalid, 1 valid, then 6 invalid
    assert _results(record) == [(True, "INVALID_INPUT")] * 5 + [(False, "ok")] + [(True, "INVALID_INPUT")] * 6
    assert [e.data["code"] for e in record.events if e.type == EventType.ERROR] == ["MODEL_INVALID_CALLS"]
    (ran,) = [e.data for e in record.events if e.type == EventType.TOOL_RESULT]
    assert ran["tool"] == "extract_assumptions" and ran["summary"] == "1 assumption(s)"


async def test_a_string_cut_at_an_html_escaped_quote_is_refused_with_what_went_wrong() -> None:
    """As a 270M model on llama-cpp-python wrote it: `&#34;` for `"`, so the type ended up inside the text."""
    text = "What limits flow?&#34;, &#34;reframing_type&#34;: &#34;scope_change&#34;}]"
    model = ScriptedModel([turn(call("reframe_problem", {"reframings": [{"text": text}]})), turn(text="Done.")])
    record = await _run(model, max_nudges=0)

    (error,) = [e.data for e in record.events if e.type == EventType.TOOL_ERROR]
    assert error["message"] == MISSING_TYPE + (
        ' reframings[0].text contains `&#34;` or `&quot;` (an HTML-escaped quote) where a plain " was meant, so the '
        "string never ended and the fields written after it were lost: write plain double quotes."
    )

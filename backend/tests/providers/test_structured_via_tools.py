"""ToolCallingStructuredModel over a scripted model: one required tool, validated output, feedback
that says what to fix, usage summed over attempts."""

from __future__ import annotations

from pydantic import BaseModel, Field
from support.scripted_model import ScriptedModel, call, turn

from forge.core.llm.messages import Role, TextPart, ToolResult, Usage
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.providers.structured_via_tools import ToolCallingStructuredModel


class Observable(BaseModel):
    name: str = Field(min_length=3, description="What is measured.")
    threshold: float = Field(ge=0, description="The value that decides.")


REQUEST = StructuredRequest(
    name="record_observable",
    purpose="One measurable observable.",
    instructions="Name one observable for the problem.",
    input="How can a hospital cut emergency wait times?",
    output=Observable,
)
GOOD = {"name": "door-to-doctor minutes", "threshold": 30}


async def test_a_valid_first_reply_is_the_value_and_the_request_requires_the_one_tool() -> None:
    model = ScriptedModel([turn(call("record_observable", GOOD))])
    result = await ToolCallingStructuredModel(model).generate(REQUEST)
    assert result == StructuredResult(Observable(name="door-to-doctor minutes", threshold=30), Usage(100, 20), 1)
    (sent,) = model.requests
    assert [t.name for t in sent.tools] == ["record_observable"] and sent.required_tool == "record_observable"
    assert sent.tools[0].input_schema == Observable.model_json_schema()
    assert sent.system == REQUEST.instructions and sent.messages[0].text == REQUEST.input


async def test_an_invalid_value_is_sent_back_with_what_to_fix_and_the_retry_counts() -> None:
    model = ScriptedModel(
        [turn(call("record_observable", {"name": "x", "threshold": -1})), turn(call("record_observable", GOOD))]
    )
    result = await ToolCallingStructuredModel(model).generate(REQUEST)
    assert isinstance(result, StructuredResult) and result.attempts == 2 and result.usage == Usage(200, 40)
    feedback = model.requests[1].messages[-1]
    assert feedback.role is Role.USER
    (error,) = feedback.tool_results
    assert error.is_error and "name:" in error.content and "threshold:" in error.content


async def test_a_reply_without_the_call_is_told_to_call_the_tool() -> None:
    model = ScriptedModel([turn(text="The observable is waiting time."), turn(call("record_observable", GOOD))])
    result = await ToolCallingStructuredModel(model).generate(REQUEST)
    assert isinstance(result, StructuredResult)
    feedback = model.requests[1].messages[-1]
    assert feedback.parts == (TextPart(feedback.text),) and "record_observable" in feedback.text


async def test_other_tool_calls_get_a_result_each_so_the_conversation_stays_valid() -> None:
    model = ScriptedModel(
        [
            turn(call("research", {"q": "x"}), call("record_observable", {"name": "ok"})),
            turn(call("record_observable", GOOD)),
        ]
    )
    await ToolCallingStructuredModel(model).generate(REQUEST)
    results = model.requests[1].messages[-1].tool_results
    assert len(results) == 2 and all(isinstance(r, ToolResult) and r.is_error for r in results)
    assert "threshold" in results[1].content and "Ignored" in results[0].content


async def test_unparsable_json_asks_for_valid_json() -> None:
    model = ScriptedModel(
        [turn(call("record_observable", {}, parse_error="Expecting ',' at 12")), turn(call("record_observable", GOOD))]
    )
    await ToolCallingStructuredModel(model).generate(REQUEST)
    (error,) = model.requests[1].messages[-1].tool_results
    assert "not valid JSON" in error.content


async def test_gives_up_after_max_attempts_with_the_last_problem_and_every_attempts_usage() -> None:
    bad = turn(call("record_observable", {"name": "ab", "threshold": 1}))
    model = ScriptedModel([bad, bad])
    result = await ToolCallingStructuredModel(model, max_attempts=2).generate(REQUEST)
    assert isinstance(result, StructuredFailure)
    assert result.attempts == 2 and result.usage == Usage(200, 40)
    assert "record_observable" in result.message and "name" in result.message

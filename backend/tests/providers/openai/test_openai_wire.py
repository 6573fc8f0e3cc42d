"""The pure mapping between forge's conversation and the Chat Completions wire format."""

from __future__ import annotations

from typing import Any

import pytest

from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ProviderPart,
    Role,
    StopReason,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolResult,
    Usage,
    user_text,
)
from forge.providers.openai_wire import (
    StreamAccumulator,
    request_params,
    response_from_completion,
    usage_from,
    wire_messages,
)

TOOL_NAMES = frozenset({"research"})


def _completion(message: dict[str, Any], finish_reason: str | None = "stop", **extra: Any) -> dict[str, Any]:
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", **message}}
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    return {"model": "m", "choices": [choice], **extra}


def _read(completion: dict[str, Any]) -> Any:
    return response_from_completion(completion, tool_names=TOOL_NAMES, fallback_model="fallback")


def test_a_user_message_with_nothing_for_this_provider_is_not_sent() -> None:
    conversation = (
        user_text("Go."),
        Message(Role.USER, (ProviderPart("anthropic", {"type": "web_search_tool_result"}),)),
    )
    assert wire_messages("", conversation) == [{"role": "user", "content": "Go."}]


def test_an_empty_assistant_reply_is_sent_as_empty_text_so_user_and_assistant_alternate() -> None:
    conversation = (
        user_text("Go."),
        Message(Role.ASSISTANT, (ProviderPart("anthropic", {"type": "thinking"}), TextPart("  "))),
        user_text("Not done yet."),
    )
    assert [(m["role"], m["content"]) for m in wire_messages("", conversation)] == [
        ("user", "Go."),
        ("assistant", ""),
        ("user", "Not done yet."),
    ]


def test_tool_results_go_as_user_text_named_by_their_tool_for_a_server_that_leaves_tool_messages_out() -> None:
    calls = (ToolCall(ToolCallId("c1"), "research", {"query": "x"}), ToolCall(ToolCallId("c2"), "reframe_problem", {}))
    results = (ToolResult(ToolCallId("c1"), '{"hits": 3}'), ToolResult(ToolCallId("c2"), "bad", is_error=True))
    conversation = (
        user_text("Go."),
        Message(Role.ASSISTANT, calls),
        Message(Role.USER, (*results, TextPart("Continue."))),
    )
    sent = wire_messages("", conversation, tool_results_as_text=True)

    assert [m["role"] for m in sent] == ["user", "assistant", "user"]  # no `tool` message, still alternating
    assert sent[1]["tool_calls"][1]["function"]["name"] == "reframe_problem"
    assert sent[2]["content"] == (
        'Result of research (call c1):\n{"hits": 3}\n\nResult of reframe_problem (call c2):\nERROR: bad\n\nContinue.'
    )


def test_a_user_messages_text_parts_are_separate_paragraphs_after_its_tool_results() -> None:
    message = Message(
        Role.USER, (TextPart("Not done yet."), ToolResult(ToolCallId("c1"), "ok"), TextPart("Add a reframing."))
    )
    assert wire_messages("", (message,)) == [
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "user", "content": "Not done yet.\n\nAdd a reframing."},
    ]


def test_a_refusal_is_kept_as_the_replys_text() -> None:
    response = _read(_completion({"content": None, "refusal": "I can't help with that."}))
    assert response.message.parts == (TextPart("I can't help with that."),)
    acc = StreamAccumulator()
    assert acc.apply({"choices": [{"index": 0, "delta": {"refusal": "I can't"}}]}) == "I can't"


def test_an_assistant_message_with_only_tool_calls_has_empty_string_content_never_null() -> None:
    message = Message(Role.ASSISTANT, (ToolCall(ToolCallId("c1"), "research", {"query": "é"}),))
    (wire,) = wire_messages("", (message,))
    assert wire == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "research", "arguments": '{"query": "é"}'}}
        ],
    }


def test_openai_gets_max_completion_tokens_and_no_tools_key_without_tools() -> None:
    request = ModelRequest("sys", (user_text("hi"),), ())
    params = request_params(request, model="gpt-4o", max_tokens=900, token_limit_field="max_completion_tokens")
    assert params == {
        "model": "gpt-4o",
        "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"}],
        "max_completion_tokens": 900,
    }


def test_tools_are_function_tools_with_their_schema_as_parameters() -> None:
    schema = {"type": "object", "properties": {"query": {"type": "string"}}}
    request = ModelRequest("", (user_text("hi"),), (ToolDefinition("research", "Search.", schema),))
    params = request_params(request, model="m", max_tokens=10)
    assert params["tools"] == [
        {"type": "function", "function": {"name": "research", "description": "Search.", "parameters": schema}}
    ]
    assert params["max_tokens"] == 10
    assert params["tool_choice"] == "auto"  # llama.cpp offers tools to the model only for an explicit "auto"


def test_a_local_server_gets_schemas_without_max_lengths_its_grammar_would_choke_on() -> None:
    text = {"type": "string", "minLength": 3, "maxLength": 2000}
    schema = {"type": "object", "properties": {"items": {"type": "array", "maxItems": 8, "items": text}}}
    request = ModelRequest(
        "", (user_text("hi"),), (ToolDefinition("record", "Record.", schema),), output_schema=schema, output_name="o"
    )
    hosted = request_params(request, model="m", max_tokens=10)
    local = request_params(request, model="m", max_tokens=10, schema_format="json_object", grammar_safe=True)

    assert hosted["tools"][0]["function"]["parameters"] == schema
    assert hosted["response_format"]["json_schema"]["schema"] == schema
    loose = {
        "type": "object",
        "properties": {"items": {"type": "array", "maxItems": 8, "items": {"type": "string", "minLength": 3}}},
    }
    assert local["tools"][0]["function"]["parameters"] == loose
    assert local["response_format"] == {"type": "json_object", "schema": loose}
    assert text["maxLength"] == 2000  # the tool's own schema is untouched


def test_a_required_tool_is_forced_by_name_instead_of_auto() -> None:
    tool = ToolDefinition("research", "Search.", {"type": "object"})
    request = ModelRequest("", (user_text("hi"),), (tool,), required_tool="research")
    params = request_params(request, model="m", max_tokens=10)
    assert params["tool_choice"] == {"type": "function", "function": {"name": "research"}}


@pytest.mark.parametrize(
    ("finish_reason", "has_calls", "expected"),
    [
        ("stop", False, StopReason.END_TURN),
        ("content_filter", False, StopReason.END_TURN),
        (None, False, StopReason.END_TURN),
        ("length", False, StopReason.MAX_TOKENS),
        ("tool_calls", True, StopReason.TOOL_USE),
        ("stop", True, StopReason.TOOL_USE),
        ("length", True, StopReason.MAX_TOKENS),
    ],
)
def test_finish_reasons_map_to_stop_reasons(finish_reason: str | None, has_calls: bool, expected: StopReason) -> None:
    calls = [{"id": "c", "type": "function", "function": {"name": "research", "arguments": "{}"}}] if has_calls else []
    message: dict[str, Any] = {"content": "x", "tool_calls": calls} if has_calls else {"content": "x"}
    assert _read(_completion(message, finish_reason)).stop_reason == expected


def test_usage_counts_cached_prompt_tokens_as_cache_reads_only() -> None:
    wire = {"prompt_tokens": 100, "completion_tokens": 7, "prompt_tokens_details": {"cached_tokens": 60}}
    assert usage_from(wire) == Usage(input_tokens=40, output_tokens=7, cache_read_tokens=60)
    assert usage_from({"prompt_tokens": 5, "prompt_tokens_details": {"cached_tokens": 9}}) == Usage(0, 0, 0, 5)
    assert usage_from({}) == Usage()


def test_a_reply_without_choices_is_an_empty_turn_under_the_fallback_model_name() -> None:
    response = response_from_completion({"choices": []}, tool_names=TOOL_NAMES, fallback_model="fallback")
    assert response.message == Message(Role.ASSISTANT, ())
    assert (response.stop_reason, response.model) == (StopReason.END_TURN, "fallback")


def test_the_deprecated_function_call_form_is_still_a_tool_call() -> None:
    message = {"content": None, "function_call": {"name": "research", "arguments": '{"query": "x"}'}}
    response = _read(_completion(message, "function_call"))
    assert response.message.parts == (ToolCall(ToolCallId("call_0"), "research", {"query": "x"}),)
    assert response.stop_reason == StopReason.TOOL_USE


def test_text_tool_calls_are_ignored_when_the_reply_has_native_calls_or_was_cut() -> None:
    text = '{"name": "research", "arguments": {"query": "x"}}'
    native = {"content": text, "tool_calls": [{"id": "c9", "function": {"name": "research", "arguments": "{}"}}]}
    assert _read(_completion(native, "tool_calls")).message.parts == (
        TextPart(text),
        ToolCall(ToolCallId("c9"), "research", {}),
    )
    assert _read(_completion({"content": text}, "length")).message.parts == (TextPart(text),)


def test_a_fragment_without_an_index_takes_its_position_in_the_delta() -> None:
    acc = StreamAccumulator()
    acc.apply(
        {
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {"id": "a", "function": {"name": "research", "arguments": '{"query": "1"}'}},
                            {"id": "b", "function": {"name": "research", "arguments": '{"query": "2"}'}},
                        ]
                    },
                }
            ]
        }
    )
    assert not acc.finished
    acc.apply({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    response = acc.response(tool_names=TOOL_NAMES, fallback_model="fallback")
    assert [(c.id, c.arguments) for c in response.message.tool_calls] == [("a", {"query": "1"}), ("b", {"query": "2"})]
    assert acc.finished and response.model == "fallback"


def test_chunks_for_other_choices_are_ignored() -> None:
    acc = StreamAccumulator()
    assert acc.apply({"choices": [{"index": 1, "delta": {"content": "other"}}]}) == ""
    assert acc.apply({"choices": [{"index": 0, "delta": {"content": "mine"}}]}) == "mine"

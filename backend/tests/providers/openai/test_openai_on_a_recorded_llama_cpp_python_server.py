"""The product's provider on the literal bytes of a real llama-cpp-python 0.3.36 server (Gemma 3 270M
Q4_K_M from PyPI, `--chat_format chatml-function-calling --n_ctx 16384`), recorded by
`scripts/record_local_server.py` and replayed through the real `openai` SDK with an injected
transport (`local_server_recording`): what the probe learns, a tool call made without streaming, the
streamed call with tools the server refuses (learned once, the dead connection after it retried),
JSON asked for in the server's own `json_object` + `schema` form, a stream without usage counted
locally, and the model's HTML-escaped, never-closed string taken as a cut call; and the probe on
llama.cpp's own llama-server (`recordings/llama-server/`)."""

from __future__ import annotations

import json
from typing import Any

from providers.openai.local_server_recording import ANSWER_SCHEMA, MODEL, WINDOW, load, replay

from forge.core.llm.messages import ModelResponse, StopReason, TextDelta
from forge.providers.openai_server_facts import margin_for
from forge.providers.token_counting import TiktokenCounter

PROBE_PATHS = ["/v1/models", "/props", "/api/show", "/tokenize", "/extras/tokenize/count"]


def _chat_requests(name: str) -> list[dict[str, Any]]:
    return [e["request"]["json"] for e in load(name)["exchanges"] if e["request"]["path"] == "/v1/chat/completions"]


def _chat_replies(name: str) -> list[dict[str, Any]]:
    exchanges = load(name)["exchanges"]
    return [
        json.loads(e["response"]["body"])
        for e in exchanges
        if e["response"].get("content_type") == "application/json" and e["request"]["path"] == "/v1/chat/completions"
    ]


def _last(items: list[Any]) -> ModelResponse:
    response = items[-1]
    assert isinstance(response, ModelResponse)
    return response


def test_every_recording_says_which_server_and_model_made_it() -> None:
    for name in (
        "probe",
        "tool_call",
        "streamed_tools_refused",
        "json_object_schema",
        "streamed_prose",
        "escaped_quote",
    ):
        recording = load(name)
        assert "llama-cpp-python 0.3.36" in recording["server"] and "Gemma 3 270M" in recording["model"]
        assert recording["outcome"].startswith("ok") and recording["shows_what_it_is_for"]


async def test_the_probe_recognises_llama_cpp_python_from_its_real_answers() -> None:
    model, _, transport = await replay("probe")

    assert [e["request"]["path"] for e in transport.exchanges] == PROBE_PATHS
    counted = json.loads(transport.exchanges[-1]["response"]["body"])["count"]
    facts = model.facts
    assert facts.reachable and facts.models == (MODEL,)
    assert facts.context_window is None and model.context_window == WINDOW  # no window reported: the configured one
    assert facts.token_margin == margin_for(counted)
    assert not facts.streams_tools and facts.schema_format == "json_object"


async def test_a_tool_call_is_made_without_streaming_and_read_with_the_servers_usage() -> None:
    _, (items,), transport = await replay("tool_call")

    (sent,) = _chat_requests("tool_call")
    assert "stream" not in sent and sent["tool_choice"] == "auto" and transport.served == len(transport.exchanges)
    (reply,) = _chat_replies("tool_call")
    (wire_call,) = reply["choices"][0]["message"]["tool_calls"]
    response = _last(items)
    (call,) = response.message.tool_calls
    assert (call.name, call.arguments, call.parse_error) == (
        "research",
        json.loads(wire_call["function"]["arguments"]),
        None,
    )
    assert response.stop_reason == StopReason.TOOL_USE
    usage = reply["usage"]
    assert (response.usage.input_tokens, response.usage.output_tokens) == (
        usage["prompt_tokens"],
        usage["completion_tokens"],
    )


async def test_the_refused_stream_is_learned_once_and_the_dead_connection_after_it_is_retried() -> None:
    model, (first, second), transport = await replay("streamed_tools_refused")

    streamed = [bool(body.get("stream")) for body in _chat_requests("streamed_tools_refused")]
    assert streamed == [True, False, False, False]  # refused once; the retry; the second call never streamed
    refused, dropped = transport.exchanges[0]["response"], transport.exchanges[1]["response"]
    assert refused["status"] == 200 and refused["body"] == ""  # the real refusal: a 200 and nothing at all
    assert dropped["error"] == "RemoteProtocolError"  # its connection was dead: retried
    assert not model.facts.streams_tools and model.facts.notes
    assert [c.name for c in _last(first).message.tool_calls] == ["research"]
    assert [c.name for c in _last(second).message.tool_calls] == ["research"]


async def test_json_is_asked_for_as_json_object_with_the_schema_and_comes_back_as_json() -> None:
    _, ((response,),), _ = await replay("json_object_schema")

    (sent,) = _chat_requests("json_object_schema")
    assert sent["response_format"] == {"type": "json_object", "schema": ANSWER_SCHEMA}
    assert isinstance(response, ModelResponse)
    assert set(json.loads(response.message.text)) == {"answer", "confidence"}


async def test_a_stream_without_usage_is_counted_locally_with_the_measured_margin() -> None:
    model, (items,), transport = await replay("streamed_prose")

    assert '"usage"' not in transport.exchanges[-1]["response"]["body"]  # the server reported none
    response = _last(items)
    text = "".join(item.text for item in items if isinstance(item, TextDelta))
    assert text == response.message.text and text
    counter = TiktokenCounter(margin=model.facts.token_margin or 0)
    assert response.usage.output_tokens == counter.count_tokens(text) > 0
    assert response.usage.input_tokens > 0 and model.facts.reports_usage is False


async def test_the_models_html_escaped_string_that_never_closed_is_a_cut_call_with_what_to_do() -> None:
    _, (items,), _ = await replay("escaped_quote")

    (reply,) = _chat_replies("escaped_quote")
    (wire_call,) = reply["choices"][0]["message"]["tool_calls"]
    assert reply["choices"][0]["finish_reason"] == "tool_calls"  # the server called it a finished call
    assert "&#34;" in wire_call["function"]["arguments"]
    (call,) = _last(items).message.tool_calls
    assert call.name == "reframe_problem" and call.arguments == {}  # not run with its fields lost
    assert call.parse_error is not None
    assert "never closed" in call.parse_error and "resend the whole call" in call.parse_error
    assert "&#34;" in call.parse_error and "plain double quote" in call.parse_error


async def test_llama_cpps_own_server_gives_its_window_slots_and_tokenizer_to_the_probe() -> None:
    # llama.cpp's llama-server (--jinja -c 16384, the same GGUF): its probe answers, recorded.
    model, _, transport = await replay("probe", server="llama-server")

    assert [e["request"]["path"] for e in transport.exchanges] == ["/v1/models", "/props", "/tokenize"]
    props = json.loads(transport.exchanges[1]["response"]["body"])
    tokens = json.loads(transport.exchanges[2]["response"]["body"])["tokens"]
    facts = model.facts
    assert facts.context_window == props["default_generation_settings"]["n_ctx"] == WINDOW
    assert facts.window_source == "/props" and facts.slots == props["total_slots"]
    assert facts.token_margin == margin_for(len(tokens))
    assert facts.streams_tools and facts.schema_format == "json_schema" and not facts.tool_results_as_text

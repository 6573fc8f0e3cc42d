"""What a llama.cpp-style server needs, through the real SDK over a scripted transport: the server is
learned before the first call (window, token margin), a streamed call with tools it refuses is made
without streaming from then on (learned once, not retried), a reply without usage is counted
locally, the output budget leaves the input its room, a timed-out call is not retried, the server is
probed once however many model objects use it, and arguments cut inside a string are a cut call."""

from __future__ import annotations

import functools
from collections.abc import Callable

import httpx
import openai
import pytest
from providers.openai.fake_openai_api import (
    LOCAL_URL,
    FakeOpenAIApi,
    Sleeps,
    chunk,
    completion,
    error_body,
    tool_call,
)

from forge.core.llm.messages import (
    Message,
    ModelRequest,
    Role,
    TextDelta,
    ToolCall,
    ToolDefinition,
    ToolResult,
    user_text,
)
from forge.ports import ModelUnavailableError
from forge.providers.openai_compatible_model import (
    DEFAULT_CONTEXT_WINDOW,
    OpenAICompatibleModel,
    openai_compatible_model_from_settings,
)
from forge.providers.openai_server_facts import TOKEN_SAMPLE, KnownServers
from forge.providers.token_counting import cl100k_length

ModelFactory = Callable[..., OpenAICompatibleModel]
TOOL = ToolDefinition("research", "Search the corpus.", {"type": "object", "properties": {"query": {"type": "string"}}})
WITH_TOOLS = ModelRequest("You are the forge.", (user_text("Why are ER waits long?"),), (TOOL,), max_tokens=16_384)
STREAM_REFUSED = error_body("Automatic streaming tool choice is not supported", "internal_server_error")
NO_USAGE: dict[str, int] = {}


def not_found(api: FakeOpenAIApi) -> FakeOpenAIApi:
    return api.json({"detail": "Not Found"}, 404)


def llama_cpp_python_probes(api: FakeOpenAIApi, count: int | None) -> None:
    """/v1/models without a window, no /props, no /api/show, no /tokenize, /extras/tokenize/count
    (None: not that either, a server the probe does not recognise)."""
    api.json({"object": "list", "data": [{"id": "gemma-3-270m", "object": "model", "owned_by": "me"}]})
    not_found(not_found(not_found(api)))
    if count is None:
        not_found(api)
    else:
        api.json({"count": count})


async def test_a_local_server_is_learned_once_before_the_first_call(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.json({"object": "list", "data": [{"id": "gemma-3-270m", "meta": {"n_ctx_train": 32_768}}]})
    api.json({"default_generation_settings": {"n_ctx": 16_384}, "total_slots": 1})
    api.json({"tokens": list(range(2 * cl100k_length(TOKEN_SAMPLE)))})
    api.json(completion("One.")).json(completion("Two."))
    model = make_model(base_url=LOCAL_URL, model="gemma-3-270m", probe=True)
    await model.complete(WITH_TOOLS)
    await model.complete(WITH_TOOLS)

    paths = [r.url.path for r in api.requests]
    assert paths == ["/v1/models", "/props", "/tokenize", "/v1/chat/completions", "/v1/chat/completions"]
    assert model.context_window == 16_384 and model.facts.slots == 1
    assert model.token_margin == pytest.approx(2.2)
    assert api.bodies[-1]["max_tokens"] == 4_096  # a quarter of the window: the input keeps three quarters


async def test_llama_cpp_python_is_recognised_tool_calls_unstreamed_from_the_first_and_json_asked_its_way(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    llama_cpp_python_probes(api, cl100k_length(TOKEN_SAMPLE))
    api.json(completion("Let me search.", [tool_call("research", '{"query": "triage"}')], "tool_calls", NO_USAGE))
    api.sse(chunk({"role": "assistant", "content": "Done."}), chunk({}, finish_reason="stop"))
    model = make_model(base_url=LOCAL_URL, model="gemma-3-270m", probe=True, context_window=16_384)
    first = [item async for item in model.stream(WITH_TOOLS)]
    prose = [item async for item in model.stream(ModelRequest("You are the forge.", (user_text("Hi"),), ()))]

    chats = [_body(r) for r in api.requests if r.url.path.endswith("/chat/completions")]
    assert [b.get("stream", False) for b in chats] == [False, True]  # a call without tools still streams
    assert first[0] == TextDelta("Let me search.") and first[-1].message.tool_calls[0].arguments == {"query": "triage"}
    assert not model.facts.streams_tools and "llama-cpp-python" in model.facts.notes[0]
    assert prose[-1].message.text == "Done." and sleeps.delays == []

    api.json(completion('{"answer": "4"}', usage=NO_USAGE))
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    framed = ModelRequest("Answer.", (user_text("2 + 2?"),), (), output_schema=schema, output_name="answer")
    assert (await model.complete(framed)).message.text == '{"answer": "4"}'
    assert api.bodies[-1]["response_format"] == {
        "type": "json_object",
        "schema": schema,
    }  # its grammar-constrained JSON


async def test_a_refused_streamed_call_with_tools_is_made_without_streaming_from_then_on(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    llama_cpp_python_probes(api, None)
    api.error(500, STREAM_REFUSED)
    api.json(completion("Let me search.", [tool_call("research", '{"query": "triage"}')], "tool_calls", NO_USAGE))
    api.json(completion("Done.", usage=NO_USAGE))
    model = make_model(base_url=LOCAL_URL, model="gemma-3-270m", probe=True, context_window=16_384)
    first = [item async for item in model.stream(WITH_TOOLS)]
    second = [item async for item in model.stream(WITH_TOOLS)]

    chats = [b for r, b in zip(api.requests, [_body(r) for r in api.requests], strict=True) if r.method == "POST"]
    streamed = [b.get("stream", False) for b in chats if "messages" in b]
    assert streamed == [True, False, False] and sleeps.delays == []  # learned once, never retried
    assert first[0] == TextDelta("Let me search.") and first[-1].message.tool_calls[0].arguments == {"query": "triage"}
    assert second[-1].message.text == "Done." and not model.facts.streams_tools
    assert all(b["tool_choice"] == "auto" for b in chats if "messages" in b)
    assert first[-1].usage.input_tokens > 0 and first[-1].usage.output_tokens > 0  # counted locally


def _body(request: httpx.Request) -> dict[str, object]:
    import json

    return json.loads(request.content) if request.content else {}


async def test_a_tool_call_goes_back_with_empty_string_content(api: FakeOpenAIApi, make_model: ModelFactory) -> None:
    api.json(completion("ok"))
    history = (
        user_text("Go."),
        Message(Role.ASSISTANT, (ToolCall("c1", "research", {"query": "x"}),)),  # type: ignore[arg-type]
    )
    await make_model(base_url=LOCAL_URL).complete(ModelRequest("s", history, (TOOL,)))

    assistant = api.bodies[0]["messages"][2]
    assert assistant["content"] == "" and assistant["tool_calls"][0]["id"] == "c1"


async def test_a_timed_out_call_to_a_local_server_is_not_retried_and_names_the_setting(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    def time_out(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    api.replies.append(time_out)
    with pytest.raises(ModelUnavailableError, match="FORGE_MODEL_TIMEOUT_S") as raised:
        await make_model(base_url=LOCAL_URL).complete(WITH_TOOLS)

    assert len(api.requests) == 1 and sleeps.delays == []
    assert isinstance(raised.value.__cause__, openai.APITimeoutError)


async def test_a_timed_out_call_to_a_hosted_api_is_retried(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    def time_out(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    api.replies.append(time_out)
    api.json(completion("Done."))
    response = await make_model().complete(WITH_TOOLS)

    assert response.message.text == "Done." and len(api.requests) == 2 and sleeps.delays == [1.0]


async def test_a_stream_with_tools_cut_before_anything_came_is_taken_as_a_refusal_on_a_local_server(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    # The real llama-cpp-python 0.3.36: a 200 with the role chunk, then it raises its refusal and the stream ends.
    role = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gemma-3-270m"}
    api.sse({**role, "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}, done=False)
    api.json(completion("Let me search.", [tool_call("research", '{"query": "triage"}')], "tool_calls"))
    model = make_model(base_url=LOCAL_URL, model="gemma-3-270m")
    items = [item async for item in model.stream(WITH_TOOLS)]

    assert items[-1].message.tool_calls[0].name == "research" and sleeps.delays == []  # not retried
    assert not model.facts.streams_tools and len(api.requests) == 2


async def test_a_dropped_stream_with_tools_on_a_reachable_local_server_falls_back_to_no_streaming(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    # The real llama-cpp-python also dropped the connection outright when it raised its refusal
    # (here on a server the probe does not recognise as llama-cpp-python's).
    llama_cpp_python_probes(api, None)
    for _ in range(3):
        api.replies.append(_drop)
    api.json(completion("Let me search.", [tool_call("research", '{"query": "triage"}')], "tool_calls"))
    model = make_model(base_url=LOCAL_URL, model="gemma-3-270m", probe=True, context_window=16_384)
    items = [item async for item in model.stream(WITH_TOOLS)]

    assert items[-1].message.tool_calls[0].name == "research" and not model.facts.streams_tools


def _drop(request: httpx.Request) -> httpx.Response:
    raise httpx.RemoteProtocolError("peer closed connection without sending complete message body", request=request)


# What the real llama-cpp-python 0.3.36 + Gemma 3 270M sent (chatml-function-calling): the model copied
# the HTML-escaped quotes of its prompt, its string never closed, and the server said `tool_calls`.
ESCAPED_CUT = '{"reframings": [{"text": "What if the ER &#34;waits&#34;}]}'


async def test_arguments_that_end_inside_an_unclosed_string_are_a_cut_call_whatever_the_server_said(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.json(completion("", [tool_call("reframe_problem", ESCAPED_CUT)], "tool_calls", NO_USAGE))
    response = await make_model(base_url=LOCAL_URL, model="gemma-3-270m").complete(WITH_TOOLS)

    (call,) = response.message.tool_calls
    assert call.name == "reframe_problem" and call.arguments == {}  # never run with the fields after the cut lost
    assert (
        call.parse_error is not None
        and "never closed" in call.parse_error
        and "resend the whole call" in call.parse_error
    )
    assert "&#34;" in call.parse_error and "plain double quote" in call.parse_error
    assert 'waits&#34;}]}"' in call.parse_error  # where they end, so the model sees it


async def test_a_cut_string_without_an_escaped_quote_is_cut_too_and_closed_strings_still_run(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    cut, closed_early = '{"query": "emergency wait', '{"query": "emergency waits"'
    api.json(
        completion("", [tool_call("research", cut, "c1"), tool_call("research", closed_early, "c2")], "tool_calls")
    )
    first, second = (await make_model(base_url=LOCAL_URL).complete(WITH_TOOLS)).message.tool_calls

    assert first.arguments == {} and first.parse_error is not None and "&#34;" not in first.parse_error
    assert second.arguments == {"query": "emergency waits"} and second.parse_error is None  # only the brace was missing


async def test_a_server_is_probed_once_for_every_model_object_over_it_and_what_one_learns_holds_for_all(
    api: FakeOpenAIApi, http_client: httpx.AsyncClient
) -> None:
    llama_cpp_python_probes(api, None)  # a server not recognised: it refuses the first streamed call with tools
    api.error(500, STREAM_REFUSED)
    for _ in range(3):
        api.json(completion("Let me search.", [tool_call("research", '{"query": "triage"}')], "tool_calls", NO_USAGE))
    known = KnownServers()
    made = functools.partial(
        openai_compatible_model_from_settings, None, "gemma-3-270m", LOCAL_URL, http_client, known_servers=known
    )
    doctors, sessions = made(), made(context_window=16_384)  # as `forge doctor` then a session build them
    await doctors.learn_server()
    [item async for item in sessions.stream(WITH_TOOLS)]
    [item async for item in sessions.stream(WITH_TOOLS)]
    await doctors.complete(WITH_TOOLS)

    probes = [r.url.path for r in api.requests if not r.url.path.endswith("/chat/completions")]
    assert probes == ["/v1/models", "/props", "/api/show", "/tokenize", "/extras/tokenize/count"]
    streamed = [_body(r).get("stream", False) for r in api.requests if r.url.path.endswith("/chat/completions")]
    assert streamed == [True, False, False, False]  # the refusal learned once, by the session's model
    assert sessions.facts is doctors.facts and not doctors.facts.streams_tools
    assert sessions.context_window == 16_384 and doctors.context_window == DEFAULT_CONTEXT_WINDOW


async def test_an_unreachable_server_is_probed_again_by_the_next_model_object(
    api: FakeOpenAIApi, http_client: httpx.AsyncClient
) -> None:
    api.refuse_connection()
    llama_cpp_python_probes(api, 9)
    known = KnownServers()
    made = functools.partial(
        openai_compatible_model_from_settings, None, "gemma-3-270m", LOCAL_URL, http_client, known_servers=known
    )
    before, after = made(), made()
    await before.learn_server()
    await before.learn_server()  # a model object keeps what it learned, unreachable too
    await after.learn_server()

    assert before.facts.reachable is False and after.facts.reachable is True
    assert [r.url.path for r in api.requests].count("/v1/models") == 2


async def test_llama_cpp_python_gets_tool_results_as_user_text_because_its_prompt_leaves_tool_messages_out(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    llama_cpp_python_probes(api, cl100k_length(TOKEN_SAMPLE))
    api.json(completion("Done.", usage=NO_USAGE))
    history = (
        user_text("Go."),
        Message(Role.ASSISTANT, (ToolCall("c1", "research", {"query": "x"}),)),  # type: ignore[arg-type]
        Message(Role.USER, (ToolResult("c1", '{"hits": 3}'),)),  # type: ignore[arg-type]
    )
    model = make_model(base_url=LOCAL_URL, model="gemma-3-270m", probe=True, context_window=16_384)
    await model.complete(ModelRequest("s", history, (TOOL,)))

    sent = api.bodies[-1]["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert sent[-1]["content"] == 'Result of research (call c1):\n{"hits": 3}'
    assert model.facts.tool_results_as_text

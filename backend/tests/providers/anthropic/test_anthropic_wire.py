"""The pure request/response mapping for the Anthropic Messages API (no HTTP)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from providers.anthropic.fake_anthropic_api import recorded_json, recording

from forge.core.domain_types import ToolCallId
from forge.core.llm.capabilities import ThinkingMode
from forge.core.llm.messages import (
    CitedQuote,
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
from forge.core.session.records import ResearchHit
from forge.providers.anthropic_stream_events import StreamAccumulator, StreamCutError
from forge.providers.anthropic_wire import request_params, response_from_turns, turn_from_message
from forge.providers.model_catalogue import shipped_catalogue

SONNET_4_6 = shipped_catalogue().capabilities("claude-sonnet-4-6")

EPHEMERAL = {"type": "ephemeral"}
RESEARCH = ToolDefinition(
    "research", "Search sources.", {"type": "object", "properties": {"query": {"type": "string"}}}
)
THESIS = ToolDefinition("state_thesis", "State a thesis.", {"type": "object", "properties": {}})
SEARCH_CALL = {
    "type": "server_tool_use",
    "id": "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE",
    "name": "web_search",
    "input": {"query": "ED crowding"},
}


def _params(request: ModelRequest, continuation: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    return request_params(
        request,
        model="claude-sonnet-4-6",
        max_tokens=8192,
        web_search_max_uses=3,
        capabilities=SONNET_4_6,
        continuation=continuation,
    )


def _conversation() -> tuple[Message, ...]:
    call = ToolCall(ToolCallId("toolu_01A"), "research", {"query": "waits"})
    return (
        user_text("How can a hospital cut emergency wait times?"),
        Message(Role.ASSISTANT, (TextPart("Researching."), call, ProviderPart("anthropic", SEARCH_CALL))),
        Message(Role.USER, (ToolResult(ToolCallId("toolu_01A"), '{"hits": 2}'),)),
        Message(Role.ASSISTANT, (TextPart("Next."),)),
        user_text("Continue."),
    )


def test_system_tools_and_conversation_carry_at_most_four_cache_breakpoints() -> None:
    params = _params(ModelRequest("You are Forge.", _conversation(), (RESEARCH, THESIS)))
    assert params["system"] == [{"type": "text", "text": "You are Forge.", "cache_control": EPHEMERAL}]
    assert [t.get("cache_control") for t in params["tools"]] == [None, EPHEMERAL]
    messages = params["messages"]
    marked = [(i, b["type"]) for i, m in enumerate(messages) for b in m["content"] if "cache_control" in b]
    # The last two user messages: the point the previous call wrote, and the end of this one.
    assert marked == [(2, "tool_result"), (4, "text")]
    assert json.dumps(params).count("cache_control") == 4


def test_an_engine_call_caches_its_instructions_not_its_one_time_input() -> None:
    """An engine call's input is sent once: a cache write on it would be paid for and never read."""
    schema = {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}
    one_shot = ModelRequest("Review the tables.", (user_text("Hypothesis h-1 ..."),), (), output_schema=schema)
    params = _params(one_shot)
    assert params["system"] == [{"type": "text", "text": "Review the tables.", "cache_control": EPHEMERAL}]
    assert params["messages"] == [{"role": "user", "content": [{"type": "text", "text": "Hypothesis h-1 ..."}]}]
    retry = ModelRequest(
        "Review the tables.",
        (user_text("Hypothesis h-1 ..."), Message(Role.ASSISTANT, (TextPart("{}"),)), user_text("x is required")),
        (),
        output_schema=schema,
    )  # a retry re-reads what the first attempt sent: its turns are marked as in any conversation
    assert json.dumps(_params(retry)["messages"]).count("cache_control") == 2


def test_the_curators_settled_prefix_ends_at_a_breakpoint_and_the_system_one_covers_the_tools() -> None:
    params = _params(ModelRequest("You are Forge.", _conversation(), (RESEARCH, THESIS), cache_anchor=1))
    messages = params["messages"]
    marked = [(i, b["type"]) for i, m in enumerate(messages) for b in m["content"] if "cache_control" in b]
    assert marked == [(0, "text"), (2, "tool_result"), (4, "text")]
    # Four in all: the system prompt's breakpoint caches the tools before it, the last tool has none.
    assert [t.get("cache_control") for t in params["tools"]] == [None, None]
    assert json.dumps(params).count("cache_control") == 4


def test_a_settled_prefix_ending_where_a_breakpoint_already_is_adds_none() -> None:
    params = _params(ModelRequest("You are Forge.", _conversation(), (RESEARCH, THESIS), cache_anchor=3))
    assert [t.get("cache_control") for t in params["tools"]] == [None, EPHEMERAL]
    assert json.dumps(params).count("cache_control") == 4


def test_where_the_calls_before_had_settled_is_marked_too_in_place_of_the_turn_before_the_last() -> None:
    """A compaction moved the settled point on: the call reads at the old point (the look-back may not
    reach it from the new one) and writes the new one; the turn before the last lies in what was rewritten."""
    request = ModelRequest("You are Forge.", _conversation(), (RESEARCH, THESIS), cache_anchor=4, previous_anchor=1)
    params = _params(request)
    marked = [(i, b["type"]) for i, m in enumerate(params["messages"]) for b in m["content"] if "cache_control" in b]
    assert marked == [(0, "text"), (3, "text"), (4, "text")]
    assert json.dumps(params).count("cache_control") == 4


def test_web_search_tool_is_offered_only_for_server_research_and_is_the_cached_last_tool() -> None:
    without = _params(ModelRequest("s", (user_text("q"),), (RESEARCH,)))
    with_search = _params(ModelRequest("s", (user_text("q"),), (RESEARCH,), server_research=True))
    assert [t["name"] for t in without["tools"]] == ["research"]
    assert with_search["tools"][-1] == {
        "type": "web_search_20260209",
        "name": "web_search",
        "max_uses": 3,
        "cache_control": EPHEMERAL,
    }
    assert "cache_control" not in with_search["tools"][0]


def test_web_fetch_goes_with_web_search_in_the_version_the_model_has() -> None:
    request = ModelRequest("s", (user_text("q"),), (RESEARCH,), server_research=True)
    fetching = request_params(
        request, model="claude-sonnet-4-6", max_tokens=8192, web_search_max_uses=3, capabilities=SONNET_4_6,
        web_fetch_max_uses=2,
    )  # fmt: skip
    assert [t.get("type") for t in fetching["tools"]] == [None, "web_search_20260209", "web_fetch_20260318"]
    assert fetching["tools"][-1] == {
        "type": "web_fetch_20260318", "name": "web_fetch", "max_uses": 2, "max_content_tokens": 8000,
        "citations": {"enabled": True}, "cache_control": EPHEMERAL,
    }  # fmt: skip
    older = shipped_catalogue().capabilities("claude-sonnet-4-5")
    basic = request_params(
        request, model="claude-sonnet-4-5", max_tokens=8192, web_search_max_uses=3, capabilities=older,
        web_fetch_max_uses=2,
    )  # fmt: skip
    assert basic["tools"][-1]["type"] == "web_fetch_20250910"
    no_search = request_params(
        request, model="claude-sonnet-4-6", max_tokens=8192, web_search_max_uses=0, capabilities=SONNET_4_6,
        web_fetch_max_uses=2,
    )  # fmt: skip
    assert [t["name"] for t in no_search["tools"]] == ["research"]


def test_a_web_fetch_is_research_with_the_page_and_counted_in_usage() -> None:
    url = "https://example.org/ed"
    page = {"type": "text", "media_type": "text/plain", "data": "Fast-track streams cut waits. " * 40}
    message = {
        "model": "claude-sonnet-4-6", "stop_reason": "end_turn",
        "usage": {"input_tokens": 900, "output_tokens": 40, "server_tool_use": {"web_fetch_requests": 2}},
        "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_fetch", "input": {"url": url}},
            {"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_1", "content": {
                "type": "web_fetch_result", "url": url, "retrieved_at": "2026-12-02T04:00:00Z",
                "content": {"type": "document", "title": "ED waits", "source": page},
            }},
            {"type": "server_tool_use", "id": "srvtoolu_2", "name": "web_fetch", "input": {"url": url + "/x"}},
            {"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_2", "content": {
                "type": "web_fetch_tool_error", "error_code": "url_not_accessible",
            }},
            {"type": "text", "text": "Done."},
        ],
    }  # fmt: skip
    response = response_from_turns([turn_from_message(message)])
    assert response.usage == Usage(900, 40, web_fetches=2)
    (fetched,) = response.server_research  # the failed fetch is no research
    assert (fetched.tool, fetched.query) == ("web_fetch", url)
    (hit,) = fetched.hits
    assert (hit.source, hit.title) == (url, "ED waits") and hit.snippet == page["data"][:600]


def test_parts_map_to_blocks_and_foreign_or_blank_parts_are_dropped() -> None:
    broken = ToolCall(ToolCallId("toolu_01B"), "state_thesis", {"raw": '{"thesis": "x'}, parse_error="invalid JSON")
    messages = (
        user_text("q"),
        Message(
            Role.ASSISTANT,
            (
                TextPart("  "),
                broken,
                ProviderPart("openai", {"type": "reasoning"}),
                ProviderPart("anthropic", SEARCH_CALL),
            ),
        ),
        Message(Role.USER, (ToolResult(ToolCallId("toolu_01B"), "bad input", is_error=True),)),
        Message(Role.ASSISTANT, (ProviderPart("openai", {"type": "reasoning"}),)),
    )
    wire = _params(ModelRequest("", messages, ()))
    assert "system" not in wire and "tools" not in wire
    assert wire["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "toolu_01B", "name": "state_thesis", "input": {}},
            SEARCH_CALL,
        ],
    }
    assert wire["messages"][2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "toolu_01B",
        "is_error": True,
        "content": "bad input",
        "cache_control": EPHEMERAL,
    }
    assert len(wire["messages"]) == 3  # the all-foreign message is gone


def test_provider_payloads_are_copied_never_mutated() -> None:
    payload = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []}
    part = ProviderPart("anthropic", payload)
    messages = (user_text("q"), Message(Role.ASSISTANT, (part,)), user_text("go on"))
    wire = _params(ModelRequest("s", messages, ()), continuation=[SEARCH_CALL])
    wire["messages"][1]["content"][0]["content"].append("x")
    assert payload["content"] == []
    assert wire["messages"][-1] == {"role": "assistant", "content": [SEARCH_CALL]}


def test_web_search_results_become_research_with_quoted_snippets_and_errors_give_none() -> None:
    turns = [turn_from_message(recorded_json("web_search_paused.json"))]
    turns.append(turn_from_message(recorded_json("web_search_resumed.json")))
    response = response_from_turns(turns)
    assert len(response.server_research) == 1  # the second search failed (max_uses_exceeded)
    research = response.server_research[0]
    assert research.query == "emergency department crowding interventions"
    assert research.hits == (
        ResearchHit(
            "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3825996/",
            "Emergency department crowding: causes and solutions",
            "The most commonly cited cause of crowding is the boarding of admitted patients in the ED. ",
            page_text_hidden=True,  # the page text came encrypted: the snippet is what the reply cited
        ),
        ResearchHit(
            "https://www.ahrq.gov/research/findings/factsheets/errors-safety/improving-patient-flow.html",
            "Improving Patient Flow and Reducing Emergency Department Crowding",
            "Improving Patient Flow and Reducing Emergency Department Crowding",
            page_text_hidden=True,
        ),
    )
    assert response.cited_quotes == (  # a quote the reply cites also reaches a hit of an earlier turn's search
        CitedQuote(
            "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3825996/",
            "The most commonly cited cause of crowding is the boarding of admitted patients in the ED. ",
        ),
    )
    resumed = response_from_turns([turn_from_message(recorded_json("web_search_resumed.json"))])
    assert resumed.server_research == () and resumed.cited_quotes == response.cited_quotes
    kinds = [p.payload["type"] if isinstance(p, ProviderPart) else type(p).__name__ for p in response.message.parts]
    assert kinds == [
        "TextPart",
        "server_tool_use",
        "web_search_tool_result",
        "server_tool_use",
        "web_search_tool_result",
        "TextPart",
        "TextPart",
    ]
    assert response.usage == Usage(1510 + 3120, 102 + 88, 0, 1490, web_searches=1 + 1)
    assert response.stop_reason == StopReason.END_TURN


def test_snippet_falls_back_to_title_and_page_age() -> None:
    message = recorded_json("web_search_paused.json")
    hits = response_from_turns([turn_from_message(message)]).server_research[0].hits
    assert hits[0].snippet == "Emergency department crowding: causes and solutions (page age: April 30, 2013)"


@pytest.mark.parametrize(
    ("wire", "ours"),
    [
        ("end_turn", StopReason.END_TURN),
        ("stop_sequence", StopReason.END_TURN),
        ("refusal", StopReason.END_TURN),
        ("tool_use", StopReason.TOOL_USE),
        ("max_tokens", StopReason.MAX_TOKENS),
        ("model_context_window_exceeded", StopReason.MAX_TOKENS),
        ("pause_turn", StopReason.PAUSE_TURN),
    ],
)
def test_stop_reasons(wire: str, ours: StopReason) -> None:
    message = {"model": "m", "content": [], "stop_reason": wire, "usage": {"input_tokens": 1, "output_tokens": 1}}
    assert response_from_turns([turn_from_message(message)]).stop_reason == ours


def test_a_complete_tool_use_last_in_a_max_tokens_turn_is_flagged_as_cut_naming_the_budget() -> None:
    message = recorded_json("tool_use_reply.json") | {"stop_reason": "max_tokens"}
    call = response_from_turns([turn_from_message(message)], max_tokens=4096).message.tool_calls[0]
    assert (
        call.parse_error
        == "the reply hit max_tokens (4096) while writing this call's arguments, so they are incomplete"
    )
    assert call.arguments == {}


def test_a_tool_use_cut_by_the_context_window_says_so() -> None:
    message = recorded_json("tool_use_reply.json") | {"stop_reason": "model_context_window_exceeded"}
    response = response_from_turns([turn_from_message(message)], max_tokens=4096)
    assert response.stop_reason == StopReason.MAX_TOKENS
    parse_error = response.message.tool_calls[0].parse_error
    assert parse_error is not None and "context window" in parse_error


def test_a_tool_use_before_the_last_block_of_a_max_tokens_turn_is_not_flagged() -> None:
    message = recorded_json("tool_use_reply.json") | {"stop_reason": "max_tokens"}
    message["content"] = [*message["content"], {"type": "text", "text": "and then I was cut"}]
    call = response_from_turns([turn_from_message(message)], max_tokens=4096).message.tool_calls[0]
    assert call.parse_error is None


def _events(name: str) -> list[dict[str, object]]:
    return [json.loads(line[6:]) for line in recording(name).splitlines() if line.startswith("data: ")]


def test_stream_accumulator_rebuilds_the_message_and_returns_text_deltas() -> None:
    accumulator = StreamAccumulator()
    deltas = [accumulator.apply(e) for e in _events("tool_use_stream.sse")]
    assert [d for d in deltas if d] == ["First, the state of the art."]
    response = response_from_turns([accumulator.turn()])
    assert response.message.tool_calls == (
        ToolCall(ToolCallId("toolu_01T1x1fJ34qAmk2tNTrN7Up6"), "research", {"query": "hospital emergency wait times"}),
    )
    assert response.usage == Usage(3120, 58, 2900, 0)


def test_stream_accumulator_keeps_a_cut_tool_input_as_a_parse_error() -> None:
    accumulator = StreamAccumulator()
    for event in _events("tool_use_cut_at_max_tokens.sse"):
        accumulator.apply(event)
    response = response_from_turns([accumulator.turn()], max_tokens=2048)
    call = response.message.tool_calls[0]
    assert response.stop_reason == StopReason.MAX_TOKENS
    assert call.name == "extract_assumptions"
    assert (
        call.parse_error
        == "the reply hit max_tokens (2048) while writing this call's arguments, so they are incomplete"
    )
    assert call.arguments == {"raw": '{"assumptions": ["demand is fixed", "staff is the bott'}


def test_stream_accumulator_refuses_a_stream_without_message_stop() -> None:
    accumulator = StreamAccumulator()
    for event in _events("cut_after_text.sse"):
        accumulator.apply(event)
    with pytest.raises(StreamCutError):
        accumulator.turn()


def test_stream_accumulator_accepts_a_stream_missing_only_message_stop() -> None:
    accumulator = StreamAccumulator()
    for event in _events("text_stream_without_message_stop.sse"):
        accumulator.apply(event)
    turn = accumulator.turn()
    assert turn.stop_reason == "end_turn" and turn.usage == Usage(25, 12, 0, 4096)
    assert turn.blocks[0]["text"] == "Waits grow sharply as utilisation nears one."


def test_stream_accumulator_refuses_a_stream_cut_inside_a_block_even_after_its_stop_reason() -> None:
    accumulator = StreamAccumulator()
    events = [e for e in _events("text_stream.sse") if e["type"] not in ("content_block_stop", "message_stop")]
    for event in events:
        accumulator.apply(event)
    with pytest.raises(StreamCutError):
        accumulator.turn()


def test_stream_accumulator_reports_usage_from_message_start_before_the_end() -> None:
    accumulator = StreamAccumulator()
    assert accumulator.usage == Usage()
    for event in _events("cut_after_text.sse"):
        accumulator.apply(event)
    assert accumulator.usage == Usage(25, 1, 0, 0)


def test_roles_alternate_and_tool_results_open_the_user_turn() -> None:
    call = ToolCall(ToolCallId("toolu_01C"), "research", {"query": "q"})
    messages = (
        user_text("q"),
        Message(Role.ASSISTANT, (call,)),
        Message(Role.USER, (TextPart("Also consider triage."), ToolResult(call.id, "ok"))),
        Message(Role.ASSISTANT, (ProviderPart("openai", {"type": "reasoning"}),)),
        user_text("Continue."),
    )
    wire = _params(ModelRequest("s", messages, ()))["messages"]
    assert [m["role"] for m in wire] == ["user", "assistant", "user"]
    assert [b["type"] for b in wire[2]["content"]] == ["tool_result", "text", "text"]


def test_no_web_search_tool_when_its_max_uses_is_zero() -> None:
    request = ModelRequest("s", (user_text("q"),), (RESEARCH,), server_research=True)
    params = request_params(request, model="m", max_tokens=10, web_search_max_uses=0, capabilities=SONNET_4_6)
    assert [t["name"] for t in params["tools"]] == ["research"]


def _thinking_body(budget: int, max_tokens: int, *, thinking: bool = True) -> dict[str, Any]:
    """On a model with manual budgets only (Sonnet 4.5), or (`thinking=False`) one without thinking."""
    model = "claude-sonnet-4-5" if thinking else "claude-3-5-haiku-latest"
    request = ModelRequest("system", (user_text("hi"),), (RESEARCH,), thinking_budget=budget)
    capabilities = shipped_catalogue().capabilities(model)
    return request_params(request, model=model, max_tokens=max_tokens, web_search_max_uses=0, capabilities=capabilities)


def test_a_request_with_a_thinking_budget_enables_extended_thinking_below_max_tokens() -> None:
    assert _thinking_body(8192, 16_384)["thinking"] == {"type": "enabled", "budget_tokens": 8192}
    assert _thinking_body(8192, 8192)["thinking"] == {"type": "enabled", "budget_tokens": 7168}


def test_no_thinking_without_a_budget_a_supporting_model_or_room_for_the_minimum() -> None:
    assert "thinking" not in _thinking_body(0, 16_384)
    assert "thinking" not in _thinking_body(8192, 16_384, thinking=False)
    assert "thinking" not in _thinking_body(8192, 1500)


def test_claude_3_7_and_4_think_and_older_models_do_not() -> None:
    def thinks(model: str) -> bool:
        return shipped_catalogue().capabilities(model).thinking_mode is not ThinkingMode.NONE

    assert thinks("claude-sonnet-4-6") and thinks("claude-3-7-sonnet-latest")
    assert not thinks("claude-3-5-haiku-latest")


def _research_result(citable: tuple[ResearchHit, ...]) -> dict[str, Any]:
    content = json.dumps(
        {
            "query": "ed crowding",
            "results": [
                {"source": "corpus://queueing/little", "title": "Little's Law", "snippet": "L = lambda W."},
                {"source": "corpus://traffic/flow", "title": "Traffic", "snippet": "Flow peaks at a density."},
            ],
        }
    )
    messages = (
        user_text("Why do waits grow?"),
        Message(Role.ASSISTANT, (ToolCall(ToolCallId("toolu_R"), "research", {"query": "ed crowding"}),)),
        Message(Role.USER, (ToolResult(ToolCallId("toolu_R"), content, citable=citable),)),
    )
    block = _params(ModelRequest("sys", messages, (RESEARCH,)))["messages"][-1]["content"][0]
    assert block["type"] == "tool_result"
    return block


def test_citable_research_hits_go_as_search_result_blocks_with_citations_and_are_not_sent_twice() -> None:
    little = ResearchHit("corpus://queueing/little", "Little's Law", "L = lambda W.")

    content = _research_result((little,))["content"]

    assert content[1:] == [
        {
            "type": "search_result",
            "source": "corpus://queueing/little",
            "title": "Little's Law",
            "content": [{"type": "text", "text": "L = lambda W."}],
            "citations": {"enabled": True},
        }
    ]
    results = json.loads(content[0]["text"])["results"]
    assert results == [
        {"source": "corpus://queueing/little", "title": "Little's Law"},
        {"source": "corpus://traffic/flow", "title": "Traffic", "snippet": "Flow peaks at a density."},
    ]


def test_a_result_without_citable_hits_stays_a_plain_string() -> None:
    assert isinstance(_research_result(())["content"], str)


def test_a_citable_hit_without_a_title_is_titled_by_its_source() -> None:
    untitled = ResearchHit("https://example.org/a", " ", "Queues grow.")

    assert _research_result((untitled,))["content"][-1]["title"] == "https://example.org/a"

"""VERIFY's prior-art search on the Anthropic side (FORGE_RESEARCH=anthropic): one turn with the server web
search tool through the real SDK; its hits are the results the server returned, its usage is kept for the
stage to price, and a turn that searched nothing is a failure the local corpus stands in for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from providers.anthropic.fake_anthropic_api import MODEL, FakeAnthropicApi

from forge.core.research.results import ResearchResults
from forge.core.session.records import ResearchHit
from forge.providers.anthropic_model import AnthropicModel
from forge.research.local_corpus import LocalCorpusResearch
from forge.research.server_web_search import ServerWebSearchResearch
from forge.research.web_search import WebResearchWithFallback, WebSearchFailed

USAGE = {"input_tokens": 900, "output_tokens": 40, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def reply(content: list[dict[str, Any]], searches: int) -> dict[str, Any]:
    usage = {**USAGE, "server_tool_use": {"web_search_requests": searches}} if searches else USAGE
    return {
        "id": "msg_01Search", "type": "message", "role": "assistant", "model": MODEL, "content": content,
        "stop_reason": "end_turn", "stop_sequence": None, "usage": usage,
    }  # fmt: skip


SEARCHED = [
    {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "dynamic triage"}},
    {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_01",
        "content": [
            {"type": "web_search_result", "url": "https://ed.example/triage", "title": "Dynamic triage trial",
             "encrypted_content": "Eq1", "page_age": "2025-04-01"},
            {"type": "web_search_result", "url": "https://ed.example/fast-track", "title": "Fast track streams",
             "encrypted_content": "Eq2", "page_age": None},
        ],
    },
    {"type": "text", "text": "Two results on dynamic triage."},
]  # fmt: skip


async def test_a_prior_art_query_is_one_turn_with_the_web_search_tool_and_its_results_are_the_hits(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    api.json_body(reply(SEARCHED, searches=1))
    web = ServerWebSearchResearch(make_model(web_search_max_uses=3, web_fetch_max_uses=0))
    hits = await web.search("dynamic triage staffing", session_id=None, limit=3)
    assert [(h.source, h.title) for h in hits] == [
        ("https://ed.example/triage", "Dynamic triage trial"),
        ("https://ed.example/fast-track", "Fast track streams"),
    ]
    (body,) = api.bodies
    assert [t["type"] for t in body["tools"]] == ["web_search_20260209"] and body["tools"][0]["max_uses"] == 3
    assert body["messages"][-1]["content"][-1]["text"] == "Query: dynamic triage staffing"
    usage = web.take_usage(None)
    assert (usage.input_tokens, usage.web_searches) == (900, 1) and web.take_usage(None).total == 0


async def test_a_turn_that_searched_nothing_fails_and_the_local_corpus_answers_with_a_warning(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    api.json_body(reply([{"type": "text", "text": "I know this already."}], searches=0))
    web = ServerWebSearchResearch(make_model(web_search_max_uses=3, web_fetch_max_uses=0))
    with pytest.raises(WebSearchFailed, match="ran no search"):
        await web.search("dynamic triage", session_id=None)
    api.json_body(reply([{"type": "text", "text": "No search."}], searches=0))
    found = await WebResearchWithFallback(web, LocalCorpusResearch.from_directory()).search(
        "emergency department waiting queue", session_id=None, limit=3
    )
    assert isinstance(found, ResearchResults) and found.answered_by == "local corpus" and len(found) > 0
    assert "Web search failed: anthropic web search ran no search" in found.warning
    assert all(isinstance(h, ResearchHit) and h.source.startswith("corpus://") for h in found)

"""Each web search API against a fake server on loopback (real HTTP): the documented request, the
documented answer read into hits; an error status, a timeout or a malformed body degrades to the
local corpus with a warning; the person's own documents always come from the local index."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import httpx
import pytest
from support.fake_search_api import FakeSearchApi, serve_fake_search_api

from forge.core.domain_types import SessionId
from forge.core.research.results import ResearchResults
from forge.core.session.records import SessionDocument
from forge.research.local_corpus import LocalCorpusResearch
from forge.research.web_search import (
    WebResearchWithFallback,
    WebSearchApi,
    WebSearchFailed,
    WebSearchResearch,
    brave_api,
    searxng_api,
    tavily_api,
)

SID = SessionId(UUID(int=1))
RESULTS = [
    {"url": "https://ed.example/triage", "title": "Dynamic triage", "snippet": "Triage  staffing\ncut waits."},
    {"url": "https://ed.example/queue", "title": "ED queues", "snippet": "Waits rise with utilisation."},
    {"url": "", "title": "no url", "snippet": "dropped"},
]


def searxng_body() -> dict[str, Any]:
    return {"query": "q", "results": [{"url": r["url"], "title": r["title"], "content": r["snippet"]} for r in RESULTS]}


def brave_body() -> dict[str, Any]:
    items = [{"url": r["url"], "title": r["title"], "description": r["snippet"]} for r in RESULTS]
    return {"type": "search", "web": {"type": "search", "results": items}}


def tavily_body() -> dict[str, Any]:
    items = [{"url": r["url"], "title": r["title"], "content": r["snippet"], "score": 0.8} for r in RESULTS]
    return {"query": "q", "answer": None, "results": items, "response_time": 0.4}


PROVIDERS: dict[str, tuple[Callable[[str], WebSearchApi], Callable[[], dict[str, Any]]]] = {
    "searxng": (searxng_api, searxng_body),
    "brave": (lambda url: brave_api("brv-secret", url), brave_body),
    "tavily": (lambda url: tavily_api("tvly-secret", url), tavily_body),
}


@pytest.fixture(scope="module")
def local() -> LocalCorpusResearch:
    return LocalCorpusResearch.from_directory()


def web(name: str, url: str, client: httpx.AsyncClient, timeout: float = 5.0) -> WebSearchResearch:
    return WebSearchResearch(PROVIDERS[name][0](url), client, timeout)


@pytest.mark.parametrize("name", PROVIDERS)
async def test_a_documented_answer_becomes_hits_with_url_title_and_snippet(name: str) -> None:
    with serve_fake_search_api(FakeSearchApi(body=PROVIDERS[name][1]())) as api:
        async with httpx.AsyncClient() as client:
            hits = await web(name, api.url, client).search("dynamic triage", session_id=SID, limit=5)
    assert [(h.source, h.title, h.snippet) for h in hits] == [
        ("https://ed.example/triage", "Dynamic triage", "Triage staffing cut waits."),
        ("https://ed.example/queue", "ED queues", "Waits rise with utilisation."),
    ]


async def test_each_api_is_asked_the_documented_way() -> None:
    asked = {}
    for name in PROVIDERS:
        with serve_fake_search_api(FakeSearchApi(body=PROVIDERS[name][1]())) as api:
            async with httpx.AsyncClient() as client:
                await web(name, api.url, client).search("dynamic triage", session_id=SID, limit=4)
        asked[name] = api.received[0]
    assert (asked["searxng"].method, asked["searxng"].path) == ("GET", "/search")
    assert asked["searxng"].query == {"q": ["dynamic triage"], "format": ["json"]}
    assert (asked["brave"].method, asked["brave"].path) == ("GET", "/res/v1/web/search")
    assert asked["brave"].query == {"q": ["dynamic triage"], "count": ["4"]}
    assert asked["brave"].headers["x-subscription-token"] == "brv-secret"
    assert (asked["tavily"].method, asked["tavily"].path) == ("POST", "/search")
    assert asked["tavily"].body == {"query": "dynamic triage", "max_results": 4, "search_depth": "basic"}
    assert asked["tavily"].headers["authorization"] == "Bearer tvly-secret"


@pytest.mark.parametrize("name", PROVIDERS)
@pytest.mark.parametrize(
    ("fake", "cause"),
    [
        (FakeSearchApi(status=503, body={"error": "down"}), "HTTP 503"),
        (FakeSearchApi(raw=b"<html>rate limited</html>"), "not JSON"),
        (FakeSearchApi(body={"unexpected": True}), "no result list"),
    ],
)
async def test_a_failing_api_degrades_to_the_local_corpus_with_a_warning(
    name: str, fake: FakeSearchApi, cause: str, local: LocalCorpusResearch
) -> None:
    if name == "brave" and cause == "no result list":
        fake = FakeSearchApi(body=["not", "an", "object"])
        cause = "not a JSON object"
    with serve_fake_search_api(fake) as api:
        async with httpx.AsyncClient() as client:
            research = WebResearchWithFallback(web(name, api.url, client), local)
            hits = await research.search("queue waiting time utilisation", session_id=SID, limit=3)
    assert isinstance(hits, ResearchResults) and hits.answered_by == "local corpus"
    assert cause in hits.warning and name in hits.warning and "secret" not in hits.warning
    assert hits and all(h.source.startswith("corpus://") for h in hits)


@pytest.mark.parametrize("name", PROVIDERS)
async def test_an_api_that_does_not_answer_in_time_degrades_instead_of_hanging(
    name: str, local: LocalCorpusResearch
) -> None:
    with serve_fake_search_api(FakeSearchApi(body=PROVIDERS[name][1](), delay=1.0)) as api:
        async with httpx.AsyncClient() as client:
            research = WebResearchWithFallback(web(name, api.url, client, timeout=0.2), local)
            hits = await research.search("queue waiting time", session_id=SID, limit=3)
    assert isinstance(hits, ResearchResults) and "did not answer within 0.2 s" in hits.warning


async def test_an_unreachable_api_is_a_failure_naming_the_service() -> None:
    async with httpx.AsyncClient() as client:
        with pytest.raises(WebSearchFailed, match="searxng could not be reached"):
            await web("searxng", "http://127.0.0.1:9", client).search("q", session_id=SID)


async def test_the_persons_documents_come_first_then_the_web(local: LocalCorpusResearch) -> None:
    doc = SessionDocument(
        "doc://ward-audit", "Ward audit", "Dynamic triage staffing audit of waits.", datetime.now(UTC)
    )
    with serve_fake_search_api(FakeSearchApi(body=searxng_body())) as api:
        async with httpx.AsyncClient() as client:
            research = WebResearchWithFallback(web("searxng", api.url, client), local)
            hits = await research.search("dynamic triage staffing", session_id=SID, limit=3, session_documents=[doc])
    assert [h.source for h in hits] == ["doc://ward-audit", "https://ed.example/triage", "https://ed.example/queue"]
    assert isinstance(hits, ResearchResults) and hits.warning == "" and hits.answered_by == "searxng"

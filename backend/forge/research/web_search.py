"""ResearchProviders over web search APIs people self-host or pay for — SearXNG (JSON API), Brave
Search, Tavily — and the wrapper that degrades to the local corpus when one fails.

Invariants:
    - One `WebSearchApi` per service says how to ask (method, URL, params/body, headers) and how to
      read the answer into ResearchHits (source = the result's URL, title, snippet); results
      without a URL are dropped, snippets are whitespace-collapsed and cut at SNIPPET_CHARS.
    - The HTTP client is injected (tests pass one aimed at a loopback fake server); every request
      has a timeout. A non-2xx status, a timeout, a connection error or a body that is not the
      documented shape raises `WebSearchFailed` naming the service and the cause — never a hang.
    - `WebResearchWithFallback` is what the product uses: the person's own documents are always
      searched locally and come first; when the web API fails, the local corpus answers and the
      result carries a warning (`core.research_results.ResearchResults`) that the caller shows.
    - API keys are sent only in headers, never logged, never in a warning.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.llm.messages import Usage
from forge.core.research.results import ResearchResults, model_usage_of, with_warning_first
from forge.core.session.records import ResearchHit, SessionDocument
from forge.ports import ResearchProvider

SNIPPET_CHARS = 600
DEFAULT_TIMEOUT_SECONDS = 10.0


class WebSearchFailed(Exception):
    """The search API did not answer usefully (status, timeout, connection, shape)."""


@dataclass(frozen=True, slots=True)
class WebSearchApi:
    name: str
    method: str
    url: str
    parse: Callable[[Any], list[ResearchHit]]
    params: Callable[[str, int], dict[str, str]] = field(default=lambda q, n: {})
    body: Callable[[str, int], dict[str, Any]] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)


def _text(value: object) -> str:
    return " ".join(str(value or "").split())[:SNIPPET_CHARS]


def _hits(items: object, snippet_key: str) -> list[ResearchHit]:
    if not isinstance(items, list):
        raise WebSearchFailed("the response has no result list")
    found = []
    for item in items:
        if isinstance(item, dict) and str(item.get("url") or "").startswith(("http://", "https://")):
            found.append(ResearchHit(str(item["url"]), _text(item.get("title")), _text(item.get(snippet_key))))
    return found


def _field(body: Any, *path: str) -> object:
    for key in path:
        if not isinstance(body, dict):
            return None
        body = body.get(key)
    return body


def _brave_hits(body: Any) -> list[ResearchHit]:
    if not isinstance(body, dict):
        raise WebSearchFailed("the response is not a JSON object")
    return _hits(_field(body, "web", "results") or [], "description")


def searxng_api(base_url: str) -> WebSearchApi:
    """SearXNG's JSON API: GET /search?q=…&format=json → {"results": [{"url", "title", "content"}]}
    (the instance must allow the json format in its settings)."""
    return WebSearchApi(
        "searxng",
        "GET",
        f"{base_url.rstrip('/')}/search",
        lambda body: _hits(_field(body, "results"), "content"),
        params=lambda q, n: {"q": q, "format": "json"},
    )


def brave_api(api_key: str, base_url: str = "https://api.search.brave.com") -> WebSearchApi:
    """Brave Search: GET /res/v1/web/search?q=…&count=n with X-Subscription-Token →
    {"web": {"results": [{"url", "title", "description"}]}} (no "web" key: no results)."""
    return WebSearchApi(
        "brave",
        "GET",
        f"{base_url.rstrip('/')}/res/v1/web/search",
        _brave_hits,
        params=lambda q, n: {"q": q, "count": str(min(max(n, 1), 20))},
        headers={"X-Subscription-Token": api_key, "Accept": "application/json"},
    )


def tavily_api(api_key: str, base_url: str = "https://api.tavily.com") -> WebSearchApi:
    """Tavily: POST /search {"query", "max_results", "search_depth": "basic"} with a Bearer key →
    {"results": [{"url", "title", "content", "score"}]}."""
    return WebSearchApi(
        "tavily",
        "POST",
        f"{base_url.rstrip('/')}/search",
        lambda body: _hits(_field(body, "results"), "content"),
        body=lambda q, n: {"query": q, "max_results": min(max(n, 1), 20), "search_depth": "basic"},
        headers={"Authorization": f"Bearer {api_key}"},
    )


class WebSearchResearch:
    """One search API as a ResearchProvider (web results only; see WebResearchWithFallback)."""

    def __init__(self, api: WebSearchApi, client: httpx.AsyncClient, timeout: float = DEFAULT_TIMEOUT_SECONDS) -> None:
        self._api = api
        self._client = client
        self._timeout = timeout

    @property
    def name(self) -> str:
        return self._api.name

    async def aclose(self) -> None:
        await self._client.aclose()

    async def search(
        self,
        query: str,
        *,
        session_id: SessionId | None,
        limit: int = 5,
        session_documents: Sequence[SessionDocument] = (),
    ) -> Sequence[ResearchHit]:
        api = self._api
        try:
            response = await self._client.request(
                api.method,
                api.url,
                params=api.params(query, limit),
                json=api.body(query, limit) if api.body else None,
                headers=dict(api.headers),
                timeout=self._timeout,
            )
        except httpx.TimeoutException:
            raise WebSearchFailed(f"{api.name} did not answer within {self._timeout:g} s") from None
        except httpx.HTTPError as error:
            raise WebSearchFailed(f"{api.name} could not be reached ({type(error).__name__})") from None
        if not response.is_success:
            raise WebSearchFailed(f"{api.name} answered HTTP {response.status_code}")
        try:
            body = response.json()
        except ValueError:
            raise WebSearchFailed(f"{api.name} answered with something that is not JSON") from None
        try:
            return api.parse(body)[:limit]
        except WebSearchFailed as failure:
            raise WebSearchFailed(f"{api.name} answered outside its documented shape: {failure}") from None


class WebResearchWithFallback:
    """The web API for the world, the local index for the person's documents, the local corpus when
    the web fails (with a warning)."""

    def __init__(self, web: ResearchProvider, local: ResearchProvider) -> None:
        self._web = web
        self._local = local

    @property
    def name(self) -> str:
        return self._web.name

    async def aclose(self) -> None:
        close = getattr(self._web, "aclose", None)
        if close is not None:
            await close()

    async def search(
        self,
        query: str,
        *,
        session_id: SessionId | None,
        limit: int = 5,
        session_documents: Sequence[SessionDocument] = (),
    ) -> Sequence[ResearchHit]:
        try:
            web = await self._web.search(query, session_id=session_id, limit=limit)
        except WebSearchFailed as failure:
            local = await self._local.search(
                query, session_id=session_id, limit=limit, session_documents=session_documents
            )
            warning = f"Web search failed: {failure}. The local corpus answered “{query}” instead."
            # the corpus's answer keeps its English rendering of a query in another language, and its cost
            return with_warning_first(local, self._local.name, warning)
        own, usage, priced_as = await self._own_documents(query, session_id, limit, session_documents)
        hits = [*own, *(h for h in web if h.source not in {o.source for o in own})][:limit]
        return ResearchResults(hits, self.name, usage=usage, priced_as=priced_as)

    async def _own_documents(
        self, query: str, session_id: SessionId | None, limit: int, documents: Sequence[SessionDocument]
    ) -> tuple[list[ResearchHit], Usage, str]:
        """The person's documents among the local answer, and what model calls that answer cost."""
        if not documents:
            return [], Usage(), ""
        sources = {d.source for d in documents}
        hits = await self._local.search(query, session_id=session_id, limit=limit, session_documents=documents)
        usage, priced_as = model_usage_of(hits)
        return [h for h in hits if h.source in sources][: max(1, limit // 2)], usage, priced_as


def web_search_api(settings: Settings) -> WebSearchApi:
    """The API FORGE_RESEARCH names, with its URL and key; ValueError saying what to set when missing."""
    if settings.research == "searxng":
        if not settings.searxng_url:
            raise ValueError("FORGE_RESEARCH=searxng needs FORGE_SEARXNG_URL (e.g. http://127.0.0.1:8888)")
        return searxng_api(settings.searxng_url)
    if settings.research == "brave":
        if not settings.brave_api_key:
            raise ValueError("FORGE_RESEARCH=brave needs BRAVE_SEARCH_API_KEY")
        return brave_api(settings.brave_api_key, settings.brave_base_url)
    if settings.research == "tavily":
        if not settings.tavily_api_key:
            raise ValueError("FORGE_RESEARCH=tavily needs TAVILY_API_KEY")
        return tavily_api(settings.tavily_api_key, settings.tavily_base_url)
    raise ValueError(f"FORGE_RESEARCH={settings.research!r} is not a web search API")

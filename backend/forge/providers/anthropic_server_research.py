"""The research Anthropic's server tools ran during a turn, read from its content blocks.

Invariants:
    - Web search hits come only from `web_search_tool_result` blocks: url and title as returned;
      the snippet is text the model quoted from that page (its citations), else the title and page
      age; the hit is marked `page_text_hidden` (the page text came encrypted: quotes the model records
      from it are matched in `core.research.quoted_evidence`). Nothing is invented. An error result (the search did not run) gives no ServerResearch.
    - A web fetch (`web_fetch_tool_result` with a `web_fetch_result`) is one ServerResearch whose
      query is the url and whose one hit is the page: its title and the first FETCH_SNIPPET_CHARS of
      the text the server fetched. An error result (the fetch did not run) gives none.
    - In the order the server ran them.
    - `cited_quotes`: every `web_search_result_location` citation of the reply's text, so a quote
      the model cites in a later turn than its search still reaches that search's hit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forge.core.llm.messages import CitedQuote, ServerResearch
from forge.core.session.records import ResearchHit

WEB_SEARCH_TOOL_NAME = "web_search"
WEB_FETCH_TOOL_NAME = "web_fetch"


def _quotes_by_url(blocks: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    quotes: dict[str, list[str]] = {}
    citations = [c for b in blocks if b.get("type") == "text" for c in b.get("citations") or ()]
    for citation in citations:
        if citation.get("type") == "web_search_result_location" and citation.get("cited_text"):
            found = quotes.setdefault(str(citation.get("url", "")), [])
            if citation["cited_text"] not in found:
                found.append(str(citation["cited_text"]))
    return quotes


def cited_quotes(blocks: Sequence[Mapping[str, Any]]) -> tuple[CitedQuote, ...]:
    """Every web search result the reply's text cited (url, cited text), once each, in order: the runner
    adds them to the hits of earlier turns' searches too."""
    quotes = _quotes_by_url(blocks)
    return tuple(CitedQuote(url, text) for url, texts in quotes.items() for text in texts)


def _hit(result: Mapping[str, Any], quotes: Mapping[str, list[str]]) -> ResearchHit:
    url = str(result["url"])
    title = str(result.get("title") or url)
    page_age = result.get("page_age")
    fallback = f"{title} (page age: {page_age})" if page_age else title
    return ResearchHit(url, title, " … ".join(quotes.get(url, ())) or fallback, page_text_hidden=True)


FETCH_SNIPPET_CHARS = 600


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _fetched(block: Mapping[str, Any]) -> ServerResearch | None:
    """A web fetch the server ran: the page (url, title, its first FETCH_SNIPPET_CHARS), or None on an error."""
    content = block.get("content")
    if not isinstance(content, Mapping) or content.get("type") != "web_fetch_result" or not content.get("url"):
        return None
    url = str(content["url"])
    document = _mapping(content.get("content"))
    source = _mapping(document.get("source"))
    data = source.get("data") if source.get("type") == "text" else None
    title = str(document.get("title") or url)
    snippet = str(data)[:FETCH_SNIPPET_CHARS] if isinstance(data, str) and data.strip() else title
    return ServerResearch(url, (ResearchHit(url, title, snippet),), WEB_FETCH_TOOL_NAME)


def server_research(blocks: Sequence[Mapping[str, Any]]) -> tuple[ServerResearch, ...]:
    """Each web search and web fetch the server ran, with its query (a fetch: its url) and hits, in order."""
    queries = {
        b.get("id"): str((b.get("input") or {}).get("query", ""))
        for b in blocks
        if b.get("type") == "server_tool_use" and b.get("name") == WEB_SEARCH_TOOL_NAME
    }
    quotes = _quotes_by_url(blocks)
    found: list[ServerResearch] = []
    for block in blocks:
        content = block.get("content")
        fetched = _fetched(block) if block.get("type") == "web_fetch_tool_result" else None
        if fetched is not None:
            found.append(fetched)
        if block.get("type") != "web_search_tool_result" or not isinstance(content, list):
            continue  # not a search result, or an error object: the search did not run
        results = [r for r in content if isinstance(r, dict) and r.get("type") == "web_search_result" and r.get("url")]
        found.append(ServerResearch(queries.get(block.get("tool_use_id"), ""), tuple(_hit(r, quotes) for r in results)))
    return tuple(found)

"""The configured web API is what research uses, for every model; when it fails the agent's research
tool still answers (from the local corpus) and the run stores a research_warning saying so."""

from __future__ import annotations

from uuid import UUID

import httpx
import pytest
from research.renderings import TableRenderings
from support.fake_search_api import FakeSearchApi, serve_fake_search_api
from support.fixed_clock import CountingIds, FixedClock

from forge.agent.phases.shared_tools import ResearchInput, research
from forge.agent.tool_context import ToolContext
from forge.bootstrap.adapters import build_research
from forge.config import Settings
from forge.core.domain_types import Phase, SessionId
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.research.cross_language import CrossLanguageResearch, ModelQueryRenderer
from forge.research.local_corpus import LocalCorpusResearch
from forge.research.web_search import WebResearchWithFallback, WebSearchResearch, brave_api


async def test_the_research_tool_answers_from_the_corpus_and_emits_a_warning_when_the_api_fails() -> None:
    state = ForgeState(problem="Cut emergency waits", current_phase=Phase.DECOMPOSE)
    with serve_fake_search_api(FakeSearchApi(status=429, body={"error": "rate limited"})) as api:
        async with httpx.AsyncClient() as client:
            provider = WebResearchWithFallback(
                WebSearchResearch(brave_api("key", api.url), client), LocalCorpusResearch.from_directory()
            )
            ctx = ToolContext(SessionId(UUID(int=1)), state, provider, FixedClock(), CountingIds())
            outcome = await research(ctx, ResearchInput(query="queue waiting time utilisation"))
    (notice,) = outcome.notices
    assert notice.type is EventType.RESEARCH_WARNING and notice.data["provider"] == "brave"
    assert "HTTP 429" in notice.data["message"]
    (record,) = state.research_log
    assert record.provider == "local corpus" and record.hits and outcome.payload["provider"] == "local corpus"


async def test_when_the_api_fails_a_japanese_query_is_answered_by_the_corpus_in_its_english_rendering() -> None:
    state = ForgeState(problem="救急外来の待ち時間を短くするには？", current_phase=Phase.VALIDATE)
    table = TableRenderings({"待ち時間 救急 病院": "hospital emergency waiting time"})
    local = CrossLanguageResearch(LocalCorpusResearch.from_directory(), ModelQueryRenderer(table))
    with serve_fake_search_api(FakeSearchApi(status=503, body={"error": "down"})) as api:
        async with httpx.AsyncClient() as client:
            provider = WebResearchWithFallback(WebSearchResearch(brave_api("key", api.url), client), local)
            ctx = ToolContext(SessionId(UUID(int=1)), state, provider, FixedClock(), CountingIds())
            outcome = await research(ctx, ResearchInput(query="待ち時間 救急 病院"))
    (record,) = state.research_log
    assert record.renderings == ("hospital emergency waiting time",) and record.hits
    assert outcome.payload["searched_as"] == ["待ち時間 救急 病院", "hospital emergency waiting time"]
    (notice,) = outcome.notices
    assert "HTTP 503" in notice.data["message"]


@pytest.mark.parametrize(
    ("env", "name"),
    [
        ({"FORGE_RESEARCH": "searxng", "FORGE_SEARXNG_URL": "http://127.0.0.1:8888"}, "searxng"),
        ({"FORGE_RESEARCH": "brave", "BRAVE_SEARCH_API_KEY": "b"}, "brave"),
        ({"FORGE_RESEARCH": "tavily", "TAVILY_API_KEY": "t"}, "tavily"),
        ({"FORGE_RESEARCH": "local"}, "local corpus"),
        ({"FORGE_RESEARCH": "web"}, "local corpus"),  # Anthropic's search runs inside the model's turn
    ],
)
async def test_forge_research_chooses_the_provider(env: dict[str, str], name: str) -> None:
    provider = build_research(Settings.from_env(env))
    assert provider.name == name
    close = getattr(provider, "aclose", None)
    if close is not None:
        await close()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"FORGE_RESEARCH": "searxng"}, "FORGE_SEARXNG_URL"),
        ({"FORGE_RESEARCH": "brave"}, "BRAVE_SEARCH_API_KEY"),
        ({"FORGE_RESEARCH": "tavily"}, "TAVILY_API_KEY"),
    ],
)
def test_a_web_api_without_its_url_or_key_says_what_to_set(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_research(Settings.from_env(env))


def test_an_unknown_research_provider_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="local, anthropic, searxng, brave, tavily"):
        Settings.from_env({"FORGE_RESEARCH": "bing"})

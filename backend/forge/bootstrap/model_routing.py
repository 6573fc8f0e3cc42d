"""Which provider and model play each role: generator, verifier, researcher.

Invariants:
    - A role is configured as `provider:model` (`anthropic:claude-sonnet-5-5`, `openai:gpt-4o`,
      `local:qwen2.5-7b-instruct` for any OpenAI-compatible server at OPENAI_BASE_URL) or `offline`.
    - With no key configured, every role is the offline model: the product always runs.
    - Building a route never makes a network call; `forge doctor` reports on routes without paying.
    - A dollar budget never binds silently at $0: with a role whose model has no known price, the
      session budgets by tokens (FORGE_BUDGET_TOKENS), and a dollar budget alone is refused, naming it.

Design decisions:
    - The verifier defaults to the generator but may be another model family (000 §4.3 asks for
      cross-family verification); the researcher is `local` (BM25 corpus) or `web` (the Anthropic
      generator's server-side web search, with the local corpus still behind the `research` tool).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from forge.config import Settings
from forge.core.llm.pricing import ModelPrice, price_for
from forge.core.session.spend import SpendBudget

DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-5-5"
DEFAULT_OPENAI_MODEL = "gpt-4o"


class Provider(str, Enum):
    OFFLINE = "offline"
    ANTHROPIC = "anthropic"
    OPENAI = "openai"
    LOCAL = "local"  # any OpenAI-compatible server (llama.cpp, vLLM, Ollama) at OPENAI_BASE_URL


@dataclass(frozen=True, slots=True)
class ModelRoute:
    provider: Provider
    model: str

    @property
    def name(self) -> str:
        return "offline" if self.provider == Provider.OFFLINE else f"{self.provider.value}:{self.model}"


@dataclass(frozen=True, slots=True)
class RoleRoutes:
    generator: ModelRoute
    verifier: ModelRoute
    researcher: str  # "local" or "web"


OFFLINE = ModelRoute(Provider.OFFLINE, "offline")


def parse_route(text: str) -> ModelRoute:
    value = text.strip()
    if value in ("", "offline"):
        return OFFLINE
    provider_name, _, model = value.partition(":")
    try:
        provider = Provider(provider_name)
    except ValueError:
        choices = ", ".join(p.value for p in Provider)
        raise ValueError(f"unknown model provider {provider_name!r} in {text!r}; use one of {choices}") from None
    if not model:
        defaults = {Provider.ANTHROPIC: DEFAULT_ANTHROPIC_MODEL, Provider.OPENAI: DEFAULT_OPENAI_MODEL}
        if provider not in defaults:
            raise ValueError(f"{text!r} needs a model name, e.g. '{provider.value}:qwen2.5-7b-instruct'")
        model = defaults[provider]
    return ModelRoute(provider, model)


def default_generator(settings: Settings) -> ModelRoute:
    if settings.anthropic_api_key:
        return ModelRoute(Provider.ANTHROPIC, DEFAULT_ANTHROPIC_MODEL)
    if settings.openai_api_key:
        return ModelRoute(Provider.OPENAI, DEFAULT_OPENAI_MODEL)
    return OFFLINE


def resolve_routes(settings: Settings) -> RoleRoutes:
    generator = parse_route(settings.model) if settings.model else default_generator(settings)
    verifier = parse_route(settings.verifier_model) if settings.verifier_model else generator
    return RoleRoutes(generator, verifier, settings.research)


def engine_concurrency(settings: Settings, routes: RoleRoutes) -> int:
    """Engine calls in flight: FORGE_ENGINE_CONCURRENCY when given; else FORGE_LOCAL_CONCURRENCY (1 by
    default) when a role runs on a local server, whose slots a wider fan-out would only queue behind
    (or time out on); else the default 24."""
    if settings.engine_concurrency_set:
        return settings.engine_concurrency
    local = Provider.LOCAL in (routes.generator.provider, routes.verifier.provider)
    return settings.local_concurrency if local else settings.engine_concurrency


def missing_for(route: ModelRoute, settings: Settings) -> list[str]:
    """What a route needs that the configuration lacks (empty when it can run)."""
    needs: Mapping[Provider, list[str]] = {
        Provider.OFFLINE: [],
        Provider.ANTHROPIC: [] if settings.anthropic_api_key else ["ANTHROPIC_API_KEY"],
        Provider.OPENAI: [] if settings.openai_api_key or settings.openai_base_url else ["OPENAI_API_KEY"],
        Provider.LOCAL: [] if settings.openai_base_url else ["OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1)"],
    }
    return list(needs[route.provider])


def unpriced_routes(routes: RoleRoutes, prices: Mapping[str, ModelPrice]) -> list[str]:
    """The roles' models that are billed per token but have no known price."""
    billed = [r for r in (routes.generator, routes.verifier) if r.provider not in (Provider.OFFLINE, Provider.LOCAL)]
    return sorted({r.name for r in billed if price_for(r.model, prices) is None})


def session_budget(settings: Settings, routes: RoleRoutes, prices: Mapping[str, ModelPrice]) -> SpendBudget:
    """FORGE_BUDGET_TOKENS / FORGE_BUDGET_USD, by tokens alone where a model's price is unknown."""
    unpriced = unpriced_routes(routes, prices)
    if not unpriced or settings.budget_usd is None:
        return SpendBudget(settings.budget_tokens, settings.budget_usd, settings.budget_web_searches)
    if settings.budget_tokens is None:
        raise ValueError(
            f"FORGE_BUDGET_USD cannot bind: no price is known for {', '.join(unpriced)}; set FORGE_BUDGET_TOKENS "
            "(the session then budgets by tokens) or add its prices to a FORGE_PRICES_FILE"
        )
    return SpendBudget(settings.budget_tokens, None, settings.budget_web_searches)

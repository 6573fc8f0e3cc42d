"""Which provider and model play each role: generator, verifier, researcher.

Invariants:
    - A role is configured as `provider:model` (`anthropic:claude-sonnet-5-5`, `openai:gpt-4o`,
      `local:qwen2.5-7b-instruct` for any OpenAI-compatible server at OPENAI_BASE_URL) or `offline`.
    - With no key configured, every role is the offline model: the product always runs.
    - Building a route never makes a network call; `forge doctor` reports on routes without paying.

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


def missing_for(route: ModelRoute, settings: Settings) -> list[str]:
    """What a route needs that the configuration lacks (empty when it can run)."""
    needs: Mapping[Provider, list[str]] = {
        Provider.OFFLINE: [],
        Provider.ANTHROPIC: [] if settings.anthropic_api_key else ["ANTHROPIC_API_KEY"],
        Provider.OPENAI: [] if settings.openai_api_key or settings.openai_base_url else ["OPENAI_API_KEY"],
        Provider.LOCAL: [] if settings.openai_base_url else ["OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1)"],
    }
    return list(needs[route.provider])

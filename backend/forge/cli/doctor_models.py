"""`forge doctor`'s model findings: per role the model, its thinking mode and effort, how engine stages
get structured output, its prices and what it lacks — read from the capability catalogue and the
price data, without calling the model (`refresh_models` reads the free Models API when asked).

Invariants:
    - No paid call: the only network call is the optional `GET /v1/models` of `refresh_models`.
    - An unknown price or an unknown model is a warning (the run works; its cost or wire is a guess),
      a missing key or an impossible route an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.bootstrap.model_routing import ModelRoute, Provider, missing_for
from forge.config import Settings
from forge.core.llm.capabilities import ModelCapabilities, StructuredMethod, ThinkingMode
from forge.core.llm.effort import ENGINE_SCOPE
from forge.core.llm.pricing import ModelPrice, price_for
from forge.providers.library_prices import LIBRARY_PRICES
from forge.providers.model_catalogue import ModelCatalogue


@dataclass(frozen=True, slots=True)
class Finding:
    topic: str
    value: str
    ok: bool = True
    fix: str | None = None
    warning: bool = False  # worth acting on, but the product runs


def _price_text(price: ModelPrice | None, route: ModelRoute) -> str:
    if route.provider == Provider.LOCAL:
        return "prices: none (a local server)"
    if price is None:
        return "prices: UNKNOWN"
    search = f", web search ${price.web_search_per_thousand:g}/1k" if price.web_search_per_thousand else ""
    return f"prices: ${price.input:g} in / ${price.output:g} out / ${price.cache_read:g} cache read per MTok{search}"


def _thinking_text(caps: ModelCapabilities, settings: Settings, role_scope: str) -> str:
    mode = caps.thinking_mode
    if mode is ThinkingMode.NONE:
        return "thinking: none"
    if mode is ThinkingMode.MANUAL and not caps.effort_levels:
        return "thinking: manual budget (8192 tokens), no effort"
    agent = caps.effort_for(settings.effort.level_for(role_scope))
    engine = caps.effort_for(settings.effort.level_for(ENGINE_SCOPE))
    return f"thinking: {mode.value}, effort {agent} (agent) / {engine} (engine)"


def _structured_text(route: ModelRoute, caps: ModelCapabilities, settings: Settings) -> str:
    if route.provider != Provider.ANTHROPIC:
        chosen = settings.openai_structured_output
        return (
            "structured output: "
            + {
                "auto": "response_format json_schema, forced tool if the server refuses it",
                "json_schema": "response_format json_schema",
                "tools": "forced tool call",
            }[chosen]
        )
    method = caps.structured_method
    return (
        "structured output: "
        + {
            StructuredMethod.JSON_SCHEMA: "output_config.format (JSON schema)",
            StructuredMethod.FORCED_TOOL: "forced tool call",
            StructuredMethod.NONE: "NONE (engine stages cannot run)",
        }[method]
    )


def route_finding(
    role: str, variable: str, route: ModelRoute, settings: Settings, catalogue: ModelCatalogue
) -> Finding:
    missing = missing_for(route, settings)
    if missing:
        return Finding(role, route.name, False, f"set {', '.join(missing)} or choose {variable}=offline")
    if route.provider == Provider.OFFLINE:
        return Finding(role, route.name)
    scope = "validate" if role.startswith("verifier") else "synthesize"
    caps = catalogue.capabilities(route.model) if route.provider == Provider.ANTHROPIC else None
    price = price_for(route.model, LIBRARY_PRICES)
    parts = [route.name]
    if caps is not None:
        parts += [_thinking_text(caps, settings, scope), f"capabilities from {caps.source}"]
        if caps.missing():
            parts.append("lacks: " + ", ".join(caps.missing()))
    parts += [_structured_text(route, caps or ModelCapabilities(route.model), settings), _price_text(price, route)]
    return _with_warnings(Finding(role, "; ".join(parts)), route, caps, price, settings, catalogue)


def _with_warnings(
    finding: Finding,
    route: ModelRoute,
    caps: ModelCapabilities | None,
    price: ModelPrice | None,
    settings: Settings,
    catalogue: ModelCatalogue,
) -> Finding:
    fixes = []
    if price is None and route.provider != Provider.LOCAL:
        budget = "" if settings.budget_tokens else "; set FORGE_BUDGET_TOKENS (sessions budget by tokens)"
        fixes.append(f"no price known for {route.model}: add it to a FORGE_PRICES_FILE{budget}")
    if caps is not None and not catalogue.known(route.model):
        fixes.append(f"{route.model} is not in the capability catalogue: run `forge doctor --refresh-models`")
    if caps is not None and caps.structured_method is StructuredMethod.NONE:
        return Finding(finding.topic, finding.value, False, "choose a model with structured outputs or forced tools")
    return Finding(finding.topic, finding.value, True, "; ".join(fixes) or None, warning=bool(fixes))


def cross_family_finding(generator: ModelRoute, verifier: ModelRoute, settings: Settings) -> Finding | None:
    """A verifier of another family is recommended when a second provider is configured."""
    families = {Provider.ANTHROPIC: bool(settings.anthropic_api_key)}
    families[Provider.OPENAI] = bool(settings.openai_api_key or settings.openai_base_url)
    if generator.provider == Provider.OFFLINE or verifier.provider != generator.provider:
        return None
    others = [p for p, configured in families.items() if configured and p != generator.provider]
    if not others:
        return None
    hint = "openai:gpt-4o" if others[0] == Provider.OPENAI else "anthropic:claude-opus-5-5"
    fix = f"set FORGE_VERIFIER_MODEL (e.g. {hint}) so claims are not judged by the family that proposed them"
    return Finding("cross-family verifier", "verifier is the generator's family", True, fix, warning=True)


def self_verification_finding(generator: ModelRoute, verifier: ModelRoute) -> Finding | None:
    """Says when the verifier is the generator itself: hypothesis scores and VERIFY then come from the
    model that proposed the ideas, and the preference-gaming check (generator's scores against the
    verifier's) cannot run."""
    if verifier != generator:
        return None
    if generator.provider == Provider.OFFLINE:
        value = "the verifier is the generator itself (the offline model; word rules score hypotheses)"
        return Finding("self-verification", value)
    value = f"the verifier is the generator itself ({generator.name}): no preference-gaming check"
    fix = "set FORGE_VERIFIER_MODEL to another model so its scores can be compared with the generator's"
    return Finding("self-verification", value, True, fix, warning=True)


async def refresh_models(settings: Settings, catalogue: ModelCatalogue) -> Finding:
    """Read the Models API (free) into the catalogue's cache file."""
    if not settings.anthropic_api_key:
        return Finding("model catalogue", "not refreshed", True, "set ANTHROPIC_API_KEY to read the Models API", True)
    import anthropic

    client = anthropic.AsyncAnthropic(api_key=settings.anthropic_api_key, base_url=settings.anthropic_base_url)
    note = await catalogue.refresh(client)
    return Finding("model catalogue", note, note.startswith("Models API:"), None)

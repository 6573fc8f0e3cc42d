"""What a model accepts on the wire: thinking modes, effort levels, structured outputs, forced tools.

Request code asks a ModelCapabilities value, never the model's name. Values come from Anthropic's
Models API (`GET /v1/models`, its `capabilities` object) when refreshed, else from the shipped table
(`providers/model_capabilities.json`); see `providers/model_catalogue.py`.

Invariants:
    - `thinking_types` are the `thinking.type` values the model accepts; a type not listed is one the
      API answers with a 400, so it is never sent.
    - `effort_levels` are the `output_config.effort` values accepted; empty means the parameter is
      refused. `effort_for` never returns a level outside them.
    - Forced tool use (`tool_choice` `any` or a named tool) is sent only when `forced_tool_use`; the
      Models API does not report it, so it comes from the shipped table (for a model the table does not
      know: refused exactly when the model refuses every way of turning thinking off, as the documented
      models that refuse it do).
    - Pure: no IO; parsing takes the plain dicts the SDK gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

EFFORT_LEVELS = ("low", "medium", "high", "xhigh", "max")
LATEST_WEB_SEARCH_TOOL = "web_search_20260209"
# The web fetch tool page (platform.claude.com, checked 2026-12-02): web_fetch_20260318 is the latest
# (dynamic filtering on Claude 4.6 and later); web_fetch_20250910 is the basic fetch for older models.
LATEST_WEB_FETCH_TOOL = "web_fetch_20260318"


class ThinkingMode(str, Enum):
    ADAPTIVE = "adaptive"  # thinking.type adaptive, depth by output_config.effort
    MANUAL = "manual"  # thinking.type enabled with budget_tokens (nothing else on this model)
    NONE = "none"  # no thinking parameter at all


class StructuredMethod(str, Enum):
    JSON_SCHEMA = "json_schema"  # Anthropic output_config.format / OpenAI response_format json_schema
    FORCED_TOOL = "forced_tool"  # the output schema as the one tool, tool_choice forcing it
    NONE = "none"


@dataclass(frozen=True, slots=True)
class ModelCapabilities:
    model: str
    thinking_types: frozenset[str] = frozenset()
    effort_levels: tuple[str, ...] = ()
    default_effort: str | None = None
    structured_outputs: bool = False
    forced_tool_use: bool = True
    context_window: int = 200_000
    max_output_tokens: int = 8192
    web_search: bool = False
    web_search_tool: str | None = None  # the server tool version to send (`web_search_20260209`, ...)
    web_fetch_tool: str | None = None  # the server web fetch version (`web_fetch_20260318`, ...); None: none
    min_cacheable_tokens: int = 1024  # shorter prompt prefixes are never cached (the prompt-caching page)
    source: str = "unknown model: conservative defaults"

    @property
    def thinking_mode(self) -> ThinkingMode:
        if "adaptive" in self.thinking_types:
            return ThinkingMode.ADAPTIVE
        if "enabled" in self.thinking_types:
            return ThinkingMode.MANUAL
        return ThinkingMode.NONE

    @property
    def thinking_can_be_off(self) -> bool:
        """Some request shape runs without up-front thinking (`disabled`, or no thinking at all)."""
        return "disabled" in self.thinking_types or self.thinking_mode is ThinkingMode.NONE

    @property
    def structured_method(self) -> StructuredMethod:
        if self.structured_outputs:
            return StructuredMethod.JSON_SCHEMA
        if self.forced_tool_use:
            return StructuredMethod.FORCED_TOOL
        return StructuredMethod.NONE

    def effort_for(self, wanted: str | None) -> str | None:
        """The accepted effort closest to `wanted` at or below it (else the lowest accepted); None
        when the model takes no effort parameter or nothing is wanted."""
        if not self.effort_levels or wanted is None:
            return None
        if wanted in self.effort_levels:
            return wanted
        rank = EFFORT_LEVELS.index(wanted) if wanted in EFFORT_LEVELS else len(EFFORT_LEVELS)
        below = [level for level in self.effort_levels if EFFORT_LEVELS.index(level) <= rank]
        return below[-1] if below else self.effort_levels[0]

    def missing(self) -> list[str]:
        """What this model cannot do that the product would use, in words for `forge doctor`."""
        gaps = {
            "no thinking": self.thinking_mode is ThinkingMode.NONE,
            "no effort control": not self.effort_levels and self.thinking_mode is not ThinkingMode.NONE,
            "no structured outputs": not self.structured_outputs,
            "no forced tool use": not self.forced_tool_use,
        }
        return [gap for gap, lacking in gaps.items() if lacking]


def _supported(value: Any) -> bool:
    return isinstance(value, Mapping) and bool(value.get("supported"))


def capabilities_from_row(model: str, row: Mapping[str, Any], source: str) -> ModelCapabilities:
    """A row of the shipped table (its keys are ModelCapabilities' fields)."""
    return ModelCapabilities(
        model=model,
        thinking_types=frozenset(row.get("thinking_types", ())),
        effort_levels=tuple(level for level in EFFORT_LEVELS if level in row.get("effort_levels", ())),
        default_effort=row.get("default_effort"),
        structured_outputs=bool(row.get("structured_outputs", False)),
        forced_tool_use=bool(row.get("forced_tool_use", True)),
        context_window=int(row.get("context_window", 200_000)),
        max_output_tokens=int(row.get("max_output_tokens", 8192)),
        web_search=bool(row.get("web_search_tool")),
        web_search_tool=row.get("web_search_tool"),
        web_fetch_tool=row.get("web_fetch_tool"),
        min_cacheable_tokens=int(row.get("min_cacheable_tokens", 1024)),
        source=f"{source}: {row['source']}" if row.get("source") else source,
    )


def _fetch_tool(caps: Mapping[str, Any]) -> str | None:
    return LATEST_WEB_FETCH_TOOL if _supported((caps.get("server_tools") or {}).get("web_fetch")) else None


def capabilities_from_model_info(info: Mapping[str, Any], known: ModelCapabilities | None) -> ModelCapabilities:
    """A Models API `ModelInfo` (as a dict): its limits and capabilities over what the table knew.

    `default_effort` and `forced_tool_use` are not in the API's object: the table's values stay, and
    for a model the table does not know, forced tool use is taken as refused when thinking cannot be off."""
    model = str(info.get("id", ""))
    caps = info.get("capabilities") or {}
    base = known or ModelCapabilities(model)
    if not caps:
        return replace(base, model=model, source="Models API (no capabilities) over " + base.source)
    thinking = caps.get("thinking") or {}
    types = thinking.get("types") or {}
    effort = caps.get("effort") or {}
    accepted = frozenset(t for t in ("adaptive", "enabled", "disabled", "between_tools") if _supported(types.get(t)))
    levels = tuple(level for level in EFFORT_LEVELS if effort.get("supported") and _supported(effort.get(level)))
    found = replace(
        base,
        model=model,
        thinking_types=accepted if thinking.get("supported") else frozenset(),
        effort_levels=levels,
        structured_outputs=_supported(caps.get("structured_outputs")),
        context_window=int(info.get("max_input_tokens") or base.context_window),
        max_output_tokens=int(info.get("max_tokens") or base.max_output_tokens),
        web_search=_supported((caps.get("server_tools") or {}).get("web_search")),
        web_search_tool=base.web_search_tool or LATEST_WEB_SEARCH_TOOL,
        web_fetch_tool=base.web_fetch_tool or _fetch_tool(caps),
        source="Models API",
    )
    if known is None:
        found = replace(found, forced_tool_use=found.thinking_can_be_off)
    return found

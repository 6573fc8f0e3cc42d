"""How hard a model works per call: an effort level per scope (a phase, or `engine` for the creative
engine's stages), defaulted here and overridable per deployment (FORGE_EFFORT).

Invariants:
    - One level per scope for a whole session: the scope's requests all carry the same level, so the
      prompt cache (which a change of thinking settings empties) holds within a phase. By default
      every agent phase has the same level, so it holds across phases too.
    - FORGE_EFFORT is either one level (`high`: every scope) or `scope=level` pairs separated by commas
      (`synthesize=high,validate=max,engine=low`, `*` for the rest); anything else is refused with
      what is accepted. Levels are the API's: low, medium, high, xhigh, max. A model that does not
      accept a level gets the nearest one below (`ModelCapabilities.effort_for`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from forge.core.llm.capabilities import EFFORT_LEVELS

AGENT_EFFORT = "high"  # the agent's phases reason (frame, map, synthesize, judge): one level for all
ENGINE_EFFORT = "medium"  # engine stages are one-shot structured answers to a precise brief
ENGINE_SCOPE = "engine"
SCOPES = ("decompose", "explore", "synthesize", "validate", "build", "crystallize", ENGINE_SCOPE)


def default_effort(scope: str) -> str:
    return ENGINE_EFFORT if scope == ENGINE_SCOPE else AGENT_EFFORT


@dataclass(frozen=True, slots=True)
class EffortPolicy:
    """The deployment's overrides: scope -> level, `*` for every scope not named."""

    levels: Mapping[str, str] = field(default_factory=dict)

    def level_for(self, scope: str) -> str:
        return self.levels.get(scope) or self.levels.get("*") or default_effort(scope)

    def describe(self) -> str:
        return ", ".join(f"{scope} {self.level_for(scope)}" for scope in SCOPES)


def parse_effort(text: str) -> EffortPolicy:
    """FORGE_EFFORT as a policy; ValueError naming what is accepted."""
    value = text.strip().lower()
    if not value:
        return EffortPolicy()
    if "=" not in value:
        return EffortPolicy({"*": _level(value)})
    levels: dict[str, str] = {}
    for pair in value.split(","):
        scope, _, level = (piece.strip() for piece in pair.partition("="))
        if scope != "*" and scope not in SCOPES:
            raise ValueError(f"FORGE_EFFORT names unknown scope {scope!r}; use one of {', '.join(SCOPES)} or *")
        levels[scope] = _level(level)
    return EffortPolicy(levels)


def _level(level: str) -> str:
    if level not in EFFORT_LEVELS:
        raise ValueError(f"FORGE_EFFORT level {level!r} is not one of {', '.join(EFFORT_LEVELS)}")
    return level

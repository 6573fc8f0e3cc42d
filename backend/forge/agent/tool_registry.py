"""The explicit registry of the 20 custom tools + research: every tool once, by name, in one order.

Invariants:
    - No auto-discovery: each tool is listed by hand in its phase's `phases/<phase>_tools.py`
      (or `phases/shared_tools.py`); this registry takes them from the hand-listed `PHASES`,
      in pipeline order, then the shared tools. A name listed twice is a bug (tested).
    - `phase_tool_lines(phase)` is the brief's list of what the phase offers, one line per tool (its
      description's first sentence), generated from the same registry, so it cannot drift from dispatch.
    - `all_tool_definitions()` is the one stable tool list for a whole session (so a provider's
      prompt cache survives phase changes); what a phase *offers* is its definition's
      `tool_names`, and dispatch refuses any other tool (TOOL_NOT_IN_PHASE).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from forge.agent.phases.registry import PHASES, phase_definition
from forge.agent.phases.shared_tools import SHARED_TOOLS
from forge.agent.tool_context import ToolSpec
from forge.core.domain_types import Phase
from forge.core.llm.messages import ToolDefinition

ALL_TOOLS: dict[str, ToolSpec] = {
    spec.name: spec for spec in (*(spec for d in PHASES.values() for spec in d.tools), *SHARED_TOOLS)
}


def tool_names_for_phase(phase: Phase) -> tuple[str, ...]:
    return phase_definition(phase).tool_names


def _without_titles(node: Any) -> Any:
    """The schema without pydantic's generated `title`s (they repeat each field's name; a field that
    is itself named "title" is a dict in `properties` and stays)."""
    if isinstance(node, dict):
        return {k: _without_titles(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_without_titles(v) for v in node]
    return node


def definition_of(spec: ToolSpec) -> ToolDefinition:
    return ToolDefinition(spec.name, spec.description, _without_titles(spec.input_model.model_json_schema()))


def tools_for_phase(phase: Phase) -> tuple[ToolDefinition, ...]:
    return tuple(definition_of(ALL_TOOLS[name]) for name in tool_names_for_phase(phase))


@cache
def all_tool_definitions() -> tuple[ToolDefinition, ...]:
    """Every tool once, in registry order: the same tuple on every call (built once: the runner sends
    it with every model request, and a provider's prompt cache needs it byte-identical)."""
    return tuple(definition_of(spec) for spec in ALL_TOOLS.values())


_FIRST_SENTENCE = re.compile(r"^(.+?[.!?])(?:\s|$)", re.DOTALL)


def _first_sentence(description: str) -> str:
    found = _FIRST_SENTENCE.match(description.strip())
    return " ".join((found.group(1) if found else description).split())


def phase_tool_lines(phase: Phase) -> list[str]:
    """`- name: what it does` for each tool the phase offers, in the order the model sees them."""
    return [f"- {name}: {_first_sentence(ALL_TOOLS[name].description)}" for name in tool_names_for_phase(phase)]

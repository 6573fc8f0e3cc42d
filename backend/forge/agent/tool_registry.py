"""The explicit registry of the 20 custom tools + research, and which phases offer which tools.

Invariants:
    - No auto-discovery: every tool is listed here by hand, once.
    - `tools_for_phase` is the single source of which tools a model sees in a phase; a call to a
      tool not offered in the current phase is refused by dispatch (TOOL_NOT_IN_PHASE).
"""

from __future__ import annotations

from forge.agent.handlers.build import BUILD_TOOLS
from forge.agent.handlers.crystallize import CROSS_CUTTING_TOOLS, CRYSTALLIZE_TOOLS
from forge.agent.handlers.decompose import DECOMPOSE_TOOLS
from forge.agent.handlers.explore import EXPLORE_TOOLS
from forge.agent.handlers.research import RESEARCH_TOOLS
from forge.agent.handlers.synthesize import SYNTHESIZE_TOOLS
from forge.agent.handlers.validate import VALIDATE_TOOLS
from forge.agent.tool_context import ToolSpec
from forge.core.domain_types import Phase
from forge.core.model_messages import ToolDefinition

ALL_TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        *DECOMPOSE_TOOLS,
        *EXPLORE_TOOLS,
        *SYNTHESIZE_TOOLS,
        *VALIDATE_TOOLS,
        *BUILD_TOOLS,
        *CRYSTALLIZE_TOOLS,
        *CROSS_CUTTING_TOOLS,
        *RESEARCH_TOOLS,
    )
}

_CROSS = ("get_session_status", "submit_user_insight")
_PHASE_TOOLS: dict[Phase, tuple[str, ...]] = {
    Phase.DECOMPOSE: ("research", *(t.name for t in DECOMPOSE_TOOLS), *_CROSS),
    Phase.EXPLORE: ("research", *(t.name for t in EXPLORE_TOOLS), *_CROSS),
    Phase.SYNTHESIZE: ("research", "get_negative_knowledge", *(t.name for t in SYNTHESIZE_TOOLS), *_CROSS),
    Phase.VALIDATE: ("research", *(t.name for t in VALIDATE_TOOLS), *_CROSS),
    Phase.BUILD: (*(t.name for t in BUILD_TOOLS), *_CROSS),
    Phase.CRYSTALLIZE: (*(t.name for t in CRYSTALLIZE_TOOLS), "get_session_status"),
}


def tool_names_for_phase(phase: Phase) -> tuple[str, ...]:
    return _PHASE_TOOLS[phase]


def definition_of(spec: ToolSpec) -> ToolDefinition:
    schema = spec.input_model.model_json_schema()
    schema.pop("title", None)
    return ToolDefinition(spec.name, spec.description, schema)


def tools_for_phase(phase: Phase) -> tuple[ToolDefinition, ...]:
    return tuple(definition_of(ALL_TOOLS[name]) for name in _PHASE_TOOLS[phase])

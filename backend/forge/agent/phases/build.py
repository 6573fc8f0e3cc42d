"""BUILD, defined in one place: the knowledge graph from the person's verdicts, then its gaps.

Invariants:
    - Its brief carries the round's claims with the person's verdicts (status) and the graph.
    - It offers no research: it works only from what the verdicts kept.
    - It pauses for the build decision once every accepted claim is in the graph
      (`forge.core.phases.close_build`, which also holds rule 11).
"""

from __future__ import annotations

from forge.agent.phases.build_tools import BUILD_TOOLS
from forge.agent.phases.compose_brief import claims_view, compose_brief, graph_view
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.agent.phases.shared_tools import CROSS_CUTTING
from forge.core.domain_types import Phase
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message
from forge.core.phases import close_build

INSTRUCTION = (
    "Build the knowledge graph from the person's verdicts: add accepted/qualified/merged claims with "
    "typed edges, then analyze gaps."
)


def brief(state: ForgeState) -> Message:
    context = {"claims": claims_view(state), "graph_claims": graph_view(state)}
    return compose_brief(Phase.BUILD, state, INSTRUCTION, context)


DEFINITION = PhaseDefinition(
    phase=Phase.BUILD,
    tools=BUILD_TOOLS,
    tool_names=(*names_of(BUILD_TOOLS), *CROSS_CUTTING),
    work_gate=close_build.check_build_work_complete,
    brief=brief,
    review=close_build.REVIEW,
    # Graph edges and short gap lists: small calls.
    max_tokens=4096,
)

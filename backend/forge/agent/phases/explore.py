"""EXPLORE, defined in one place: morphological box, distant analogies, contradictions, adjacent possible.

Invariants:
    - Its brief carries what DECOMPOSE produced and the person decided (fundamentals, selected
      reframings, assumptions) and the domains the person suggested.
    - It pauses for the explore review once `check_explore_work_complete` passes; the review and
      rule 2 live in `forge.core.phases.close_explore`.
"""

from __future__ import annotations

from forge.agent.phases.compose_brief import compose_brief
from forge.agent.phases.explore_tools import EXPLORE_TOOLS
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.agent.phases.shared_tools import CROSS_CUTTING, RESEARCH
from forge.core.domain_types import Phase
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message
from forge.core.phases import close_explore
from forge.core.state_codec import encode_value

INSTRUCTION = (
    "Explore the solution space: morphological box, >= 2 distant-domain analogies (research each "
    "domain first), >= 1 TRIZ contradiction, the adjacent possible."
)


def brief(state: ForgeState) -> Message:
    context = {
        "fundamentals": state.fundamentals,
        "selected_reframings": [r.text for r in state.selected_reframings],
        "assumptions": encode_value(state.assumptions),
        "suggested_domains": state.suggested_domains,
    }
    return compose_brief(Phase.EXPLORE, state, INSTRUCTION, context)


DEFINITION = PhaseDefinition(
    phase=Phase.EXPLORE,
    tools=EXPLORE_TOOLS,
    tool_names=(RESEARCH, *names_of(EXPLORE_TOOLS), *CROSS_CUTTING),
    work_gate=close_explore.check_explore_work_complete,
    brief=brief,
    review=close_explore.REVIEW,
    # One search_cross_domain call may reach ~20,000 characters (a 4,000-character description and
    # a 12-row mapping table), ~5k tokens: the largest single call of any phase.
    max_tokens=8192,
)

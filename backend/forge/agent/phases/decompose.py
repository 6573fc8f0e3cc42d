"""DECOMPOSE, defined in one place: fundamentals, state of the art, assumptions, reframings.

Invariants:
    - Its brief's context is the problem alone: nothing has been decided yet.
    - It pauses for the decompose review once `check_decompose_work_complete` passes; the
      review and rule 1 live in `forge.core.phases.close_decompose`.
"""

from __future__ import annotations

from forge.agent.phases.compose_brief import compose_brief
from forge.agent.phases.decompose_tools import DECOMPOSE_TOOLS
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.agent.phases.shared_tools import CROSS_CUTTING, RESEARCH
from forge.core.domain_types import Phase
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message
from forge.core.phases import close_decompose

INSTRUCTION = (
    "Decompose the problem: research it, then fundamentals, state of the art, >= 3 assumptions, >= 3 reframings."
)


def brief(state: ForgeState) -> Message:
    return compose_brief(Phase.DECOMPOSE, state, INSTRUCTION, {})


DEFINITION = PhaseDefinition(
    phase=Phase.DECOMPOSE,
    tools=DECOMPOSE_TOOLS,
    tool_names=(RESEARCH, *names_of(DECOMPOSE_TOOLS), *CROSS_CUTTING),
    work_gate=close_decompose.check_decompose_work_complete,
    brief=brief,
    review=close_decompose.REVIEW,
    # One reframe_problem call may carry 8 reframings of up to 2,000 characters (~4k tokens):
    # the bound must hold the largest call the schemas allow, or the call is cut and re-sent.
    max_tokens=8192,
)

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
from forge.core.llm.messages import Message
from forge.core.phases import close_decompose
from forge.core.session.forge_state import ForgeState

INSTRUCTION = """GOAL: understand the problem well enough that an expert would recognise its real difficulty, \
before proposing anything.
DO: research the problem first (2-3 independent queries in one turn: its mechanisms, measured numbers, \
what has been tried); decompose_to_fundamentals; map_state_of_art citing what research returned; \
extract_assumptions (>= 3); reframe_problem (>= 3, ideally one of each type).
EXCELLENT: fundamentals name quantities and mechanisms, not topics; the state of the art gives numbers and \
says where current practice falls short; each assumption would change the answer if it were false; each \
reframing opens a different solution space instead of paraphrasing the question.
DONE WHEN: fundamentals, a cited state of the art, >= 3 assumptions and >= 3 reframings are recorded. Then \
stop and summarise; the person selects reframings and confirms or rejects assumptions."""


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
    # 16k leaves room for several such calls in one turn (parallel tool calls are encouraged).
    max_tokens=16_384,
)

"""CRYSTALLIZE, defined in one place: the knowledge document, which ends the session.

Invariants:
    - Its brief carries the graph's claims and gaps.
    - No review follows: once the document exists (`forge.core.phases.close_crystallize`) the
      session is finished.
"""

from __future__ import annotations

from forge.agent.phases.compose_brief import compose_brief, graph_view
from forge.agent.phases.crystallize_tools import CRYSTALLIZE_TOOLS
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.core.domain_types import Phase
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message
from forge.core.phases import close_crystallize

INSTRUCTION = """GOAL: the person resolved the session; hand over the knowledge.
DO: call generate_knowledge_document once: it renders the document from what was recorded (claims, evidence, \
verdicts, negative knowledge, gaps). Then write a closing summary of at most 3 sentences: the strongest \
claim, its evidence, and the first thing to test."""


def brief(state: ForgeState) -> Message:
    context = {"graph_claims": graph_view(state), "gaps": state.gaps}
    return compose_brief(Phase.CRYSTALLIZE, state, INSTRUCTION, context)


DEFINITION = PhaseDefinition(
    phase=Phase.CRYSTALLIZE,
    tools=CRYSTALLIZE_TOOLS,
    tool_names=(*names_of(CRYSTALLIZE_TOOLS), "get_session_status"),
    work_gate=close_crystallize.check_crystallize_work_complete,
    brief=brief,
    review=None,
    # The document is rendered by code from the state (generate_knowledge_document takes no
    # arguments), so the model writes one call and a closing line; the bound leaves room for
    # THINKING_BUDGET.
    max_tokens=16_384,
)

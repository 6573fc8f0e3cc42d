"""BUILD, defined in one place: the knowledge graph from the person's verdicts, then its gaps.

Invariants:
    - Its brief carries the round's claims with the person's verdicts (status), the graph, the
      assumptions still standing and the morphological box (gaps, convergence locks and unexplored
      options are about them; the context curator may leave the phases that recorded them out).
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
from forge.core.llm.messages import Message
from forge.core.phases import close_build
from forge.core.session.forge_state import ForgeState

INSTRUCTION = """GOAL: make this round's kept knowledge cumulative and show what is still unknown.
DO: add_to_knowledge_graph for every claim your reviewer accepted, qualified or merged (see each claim's \
verdict), with typed edges to graph claims where a relation really holds (read an edge as 'this claim \
<edge_type> that claim'); then analyze_gaps: questions the graph cannot answer yet, specific enough to \
research next round, and any convergence lock (every claim leaning on one assumption or source).
DONE WHEN: every kept claim is in the graph and the gaps are recorded. Then stop and summarise; the person \
decides on another round, a deep dive, an insight of their own, or resolving the session."""


def brief(state: ForgeState) -> Message:
    standing = [{"text": a.text} for a in state.assumptions if a.confirmed is not False]
    box = [{"name": p.name, "options": list(p.options)} for p in state.morphological_box]
    context = {
        "claims": claims_view(state),
        "graph_claims": graph_view(state),
        "assumptions": standing,
        "morphological_box": box,
    }
    return compose_brief(Phase.BUILD, state, INSTRUCTION, context)


DEFINITION = PhaseDefinition(
    phase=Phase.BUILD,
    tools=BUILD_TOOLS,
    tool_names=(*names_of(BUILD_TOOLS), *CROSS_CUTTING),
    work_gate=close_build.check_build_work_complete,
    brief=brief,
    review=close_build.REVIEW,
    # Graph edges and short gap lists are small calls; the bound leaves room for THINKING_BUDGET.
    max_tokens=16_384,
)

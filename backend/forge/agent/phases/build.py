"""BUILD, defined in one place: the knowledge graph from the person's verdicts, then its gaps.

Invariants:
    - Its brief carries only what its tools and goal use: the round's claims with the person's
      verdicts, their boundaries (antitheses), sources and lineage (`BUILD_CLAIM_FIELDS`), the graph
      and the assumptions still standing (convergence locks are about them).
    - It is `own_context`: its requests send its brief and what followed, never the earlier
      conversation (the brief holds all it works from), so the lightest phase costs the fewest tokens.
    - It offers no research: it works only from what the verdicts kept.
    - It pauses for the build decision once every accepted claim is in the graph
      (`forge.core.phases.close_build`, which also holds rule 11).
"""

from __future__ import annotations

from forge.agent.phases.build_tools import BUILD_TOOLS
from forge.agent.phases.compose_brief import BUILD_CLAIM_FIELDS, claims_view, compose_brief, graph_view
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
    context = {
        "claims": claims_view(state, BUILD_CLAIM_FIELDS),
        "graph_claims": graph_view(state),
        "assumptions": [a.text for a in state.assumptions if a.confirmed is not False],
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
    own_context=True,
)

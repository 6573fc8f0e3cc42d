"""CRYSTALLIZE, defined in one place: the knowledge document, which ends the session.

Invariants:
    - Its brief is built from the state and holds everything the model needs to write the narrative:
      the graph's claims (verdict, qualification, falsifiability condition, mean score, confidence,
      sources), the negative knowledge and the gaps; the phase is `own_context`, so its requests send
      this brief instead of the whole session's conversation.
    - When Solve already built the AnswerPack, the brief carries its direct answer and compliance
      status (`solve_answer`), so the narrative cannot contradict the answer that opens the document.
    - No review follows: once the document exists (`forge.core.phases.close_crystallize`) the
      session is finished.
"""

from __future__ import annotations

from typing import Any

from forge.agent.phases.compose_brief import compose_brief, verdict_of
from forge.agent.phases.crystallize_tools import CRYSTALLIZE_TOOLS
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.agent.phases.shared_tools import CROSS_CUTTING
from forge.core.domain_types import Phase
from forge.core.llm.messages import Message
from forge.core.phases import close_crystallize
from forge.core.session.forge_state import ForgeState

INSTRUCTION = """GOAL: the person resolved the session; hand over the knowledge to someone who will act on it.
DO: call generate_knowledge_document once, writing the executive summary, the recommendations and the open \
questions from this brief alone (it holds every claim the person kept, with its verdict and qualification, \
the rejected directions and the gaps). The ten sections that follow your text are built by code from the \
record. Then write a closing line for the person.
EXCELLENT: the summary leads with the strongest claim and its qualification, says how it survived \
falsification and how novel it is, and never claims more than the graph holds; each recommendation names \
what to try, where, and the result that would stop it, in one or two sentences — the document already \
carries every claim in full, so do not restate a claim; open questions are the ones that block action."""


def _claims(state: ForgeState) -> list[dict[str, Any]]:
    return [
        {
            "text": c.text,
            "verdict": verdict_of(c),
            "qualification": c.qualification,
            "falsifiability_condition": c.falsifiability_condition,
            "mean_score": round(c.scores.mean, 2) if c.scores else None,
            "confidence": c.confidence.value,
            "sources": [e.source for e in c.evidence],
        }
        for c in state.knowledge_graph_nodes
    ]


def brief(state: ForgeState) -> Message:
    context: dict[str, Any] = {
        "graph_claims": _claims(state),
        "negative_knowledge": [{"claim": n.claim_text, "reason": n.reason} for n in state.negative_knowledge],
        "gaps": state.gaps,
    }
    if state.answer_pack is not None:  # Solve ran first: the summary must agree with its answer
        pack = state.answer_pack
        context["solve_answer"] = {
            "direct_answer": pack.direct_answer,
            "constraint_compliance": pack.compliance.status.value,
            "violations": [c.constraint for c in pack.compliance.violations],
            "unresolved_high_risks": pack.solve.unresolved_high_risks,
        }
        if pack.cannot_be_met is not None:  # the violating solution was withheld: say so, never present it
            context["solve_answer"]["cannot_be_met"] = [
                {"constraint": u.constraint, "why": u.why, "relaxing_would_allow": u.relaxing_allows}
                for u in pack.cannot_be_met.constraints
            ]
    return compose_brief(Phase.CRYSTALLIZE, state, INSTRUCTION, context)


DEFINITION = PhaseDefinition(
    phase=Phase.CRYSTALLIZE,
    tools=CRYSTALLIZE_TOOLS,
    tool_names=(*names_of(CRYSTALLIZE_TOOLS), *CROSS_CUTTING),
    work_gate=close_crystallize.check_crystallize_work_complete,
    brief=brief,
    review=None,
    # One call with a few paragraphs; the bound leaves room for THINKING_BUDGET.
    max_tokens=16_384,
    own_context=True,
)

"""VALIDATE, defined in one place: falsification, novelty and a score for every claim of the round.

Invariants:
    - Its brief carries the round's claims (by index, as the tools address them) and the graph.
    - It pauses for the verdicts once every claim is scored (`forge.core.phases.close_validate`).
"""

from __future__ import annotations

from forge.agent.phases.compose_brief import claims_view, compose_brief, graph_view
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.agent.phases.shared_tools import CROSS_CUTTING, RESEARCH
from forge.agent.phases.validate_tools import VALIDATE_TOOLS
from forge.core.domain_types import Phase
from forge.core.llm.messages import Message
from forge.core.phases import close_validate
from forge.core.session.forge_state import ForgeState

INSTRUCTION = """GOAL: you are now an independent verifier, not the author of these claims. Find out which \
claims are wrong before the person relies on them: assume each is false until the evidence says otherwise.
DO for each claim (claims are independent: work on them in parallel): research aimed at disproving it \
(counter-examples, failed trials, boundary cases) -> attempt_falsification, testing it also against every \
hard constraint, with survived=false when the evidence breaks it; research prior art -> check_novelty naming \
the closest prior work and its sources; then score_claim on the anchored scales with a rationale.
THINK FIRST: before each verdict, find the claim's weakest link (the step with the least evidence or the \
assumption a hard constraint or a rejected assumption would break) and aim the attempt there.
EXCELLENT: an attempt that could really have failed; prior art searched by mechanism, not by the claim's \
wording; scores that differ between claims, 0.8+ only where the anchor is met.
DONE WHEN: every claim is falsification-tested, novelty-checked and scored. Then stop and summarise; the \
person accepts, qualifies, merges or rejects each claim."""


def brief(state: ForgeState) -> Message:
    context = {"claims": claims_view(state), "graph_claims": graph_view(state)}
    return compose_brief(Phase.VALIDATE, state, INSTRUCTION, context)


DEFINITION = PhaseDefinition(
    phase=Phase.VALIDATE,
    tools=VALIDATE_TOOLS,
    tool_names=(RESEARCH, *names_of(VALIDATE_TOOLS), *CROSS_CUTTING),
    work_gate=close_validate.check_validate_work_complete,
    brief=brief,
    review=close_validate.REVIEW,
    # The verifier reasons before it judges (THINKING_BUDGET, where the provider supports it), then
    # parallel falsification/novelty/score calls (~1k tokens each).
    max_tokens=16_384,
)

"""VALIDATE, defined in one place: falsification, novelty and a score for every claim of the round.

Invariants:
    - When the person gave feedback on claims at the claims review, the brief opens with the step
      that acts on it: revise_claim for each such claim (by index and id) before any test; the
      checks refuse such a claim until then and the work gate asks for it (FEEDBACK_UNADDRESSED).
    - Its brief carries the round's claims (by index, as the tools address them) and the graph;
      each claim VERIFY judged carries that verdict (`verify`), and the red team's open challenges
      are listed (`verify_in_brief`), with an instruction to engage with both.
    - It pauses for the verdicts once every claim is scored (`forge.core.phases.close_validate`).
"""

from __future__ import annotations

from forge.agent.phases.compose_brief import VALIDATE_CLAIM_FIELDS, claims_view, compose_brief, graph_view
from forge.agent.phases.phase_definition import PhaseDefinition, names_of
from forge.agent.phases.shared_tools import CROSS_CUTTING, RESEARCH
from forge.agent.phases.validate_tools import VALIDATE_TOOLS
from forge.agent.phases.verify_in_brief import red_team_challenges, verify_verdicts
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


VERIFIED = """VERIFY, an independent verifier, has already judged the claims (each claim's `verify`: logic, \
novelty with the prior art it found, confidence, position consistency, status against its pass threshold). \
Engage with its verdict: aim your falsification at the weakest dimension it found, name its prior art in \
check_novelty when it is the closest work, and where your score departs from its final score by more than \
2 points (on its 0-10 scale), say why in the rationale."""
CHALLENGED = """RED TEAM: `challenges` lists what the supervisor's red team found failing in the candidates \
(targets are pool hypothesis or claim ids); a claim built on a challenged candidate must answer the challenge \
in its falsification attempt."""


FEEDBACK = """FIRST, THE PERSON'S FEEDBACK: the person reviewed the claims and gave feedback on {claims}. Act \
on it before you test anything: for each, call revise_claim — with revised_text when the feedback shows the claim \
should change (narrower scope, another mechanism, a sharper test), or with the text kept and a `response` that \
answers the feedback point by point when the claim stands. The person reads your response at the verdicts review; \
the checks refuse a claim whose feedback is not acted on yet. Then verify the claims as they now read."""


def feedback_step(state: ForgeState) -> str:
    """The revision step that opens VALIDATE, or "" when no claim of the round has the person's feedback."""
    claims = [f"claim {i} ({c.id})" for i, c in enumerate(state.current_round_claims) if c.user_feedback]
    return FEEDBACK.format(claims=", ".join(claims)) if claims else ""


def instruction(state: ForgeState) -> str:
    verified = VERIFIED if state.verifications else ""
    challenged = CHALLENGED if red_team_challenges(state) else ""
    return "\n".join(p for p in (feedback_step(state), INSTRUCTION, verified, challenged) if p)


def _claims(state: ForgeState) -> list[dict[str, object]]:
    verdicts = verify_verdicts(state)
    return [
        view | ({"verify": verdicts[view["id"]]} if view["id"] in verdicts else {})
        for view in claims_view(state, VALIDATE_CLAIM_FIELDS)
    ]


def brief(state: ForgeState) -> Message:
    context: dict[str, object] = {"claims": _claims(state), "graph_claims": graph_view(state)}
    challenges = red_team_challenges(state)
    if challenges:
        context["challenges"] = challenges
    return compose_brief(Phase.VALIDATE, state, instruction(state), context)


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

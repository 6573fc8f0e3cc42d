"""The person's claim feedback is acted on before VALIDATE tests the claim, through the whole exchange
with a scripted model: the claims review attaches the feedback and opens VALIDATE; its brief opens
with the revision step naming the claim by index and id, and the decision line says the person gave
it; a test of the claim is refused until revise_claim acts on it; the revised claim is then tested,
and the work gate holds while a claim's feedback is still open. VERIFY opened VALIDATE before the
revision, so the revision tells the model its verdict was on the earlier wording."""

from __future__ import annotations

from uuid import UUID

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import ClaimId, ClaimType, Phase, ReviewType, SessionId
from forge.core.llm.messages import ToolResult
from forge.core.phases.close_validate import check_validate_work_complete
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.inputs import ClaimFeedback, ClaimsReview
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ResearchHit
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.verdicts import VerifyStatus

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HIT = ResearchHit(
    "https://example.org/triage-pooling",
    "Pooled triage queues in emergency departments",
    "Pooling triage queues across emergency wards cut waits at peak hours in two hospitals.",
)
FEEDBACK = "Only at peak hours? Say when pooling stops helping."
REVISED = "Pooling triage queues across emergency wards cuts waits at peak hours, not when wards are idle."
REVISE = {
    "claim_index": 0,
    "revised_text": REVISED,
    "falsifiability_condition": "Median wait at peak hours falls 15% within 8 weeks; no change off-peak.",
    "response": "Narrowed to peak hours, as the feedback asks; off-peak the pooled queue has nothing to balance.",
}
FALSIFY = {
    "claim_index": 0,
    "approach": "Looked for pooled triage failing at peak hours.",
    "result": "Two hospitals saw shorter peak waits; none saw longer ones.",
    "survived": True,
    "evidence_sources": [HIT.source],
}


def claims_awaiting_review() -> ForgeState:
    state = ForgeState(problem=PROBLEM)
    state.enter_phase(Phase.SYNTHESIZE)
    claims = [
        Claim(ClaimId(UUID(int=n)), text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE, synthesized=True)
        for n, text in (
            (1, "Pooling triage queues across emergency wards cuts waits"),
            (2, "Fast-track lanes cut waits"),
        )
    ]
    state.current_round_claims = claims
    state.antitheses_searched = {0, 1}
    state.await_review(ReviewType.CLAIMS_REVIEW)
    return state


def script() -> ScriptedModel:
    return ScriptedModel(
        [
            turn(call("research", {"query": "pooled triage queues emergency wards fail"})),
            turn(call("attempt_falsification", FALSIFY)),
            turn(call("revise_claim", REVISE)),
            turn(call("research", {"query": "pooled triage queues emergency wards peak hours fail"})),
            turn(call("attempt_falsification", FALSIFY)),
            turn(text="claim 0 revised and survived; claim 1 is next"),
        ]
    )


def _result_of(model: ScriptedModel, request: int) -> ToolResult:
    return next(p for p in model.requests[request].messages[-1].parts if isinstance(p, ToolResult))


async def test_feedback_from_the_claims_review_is_revised_before_the_claim_is_tested() -> None:
    ids = CountingIds()
    applied = apply_review(claims_awaiting_review(), ClaimsReview((ClaimFeedback(0, FEEDBACK),)), ids)
    assert isinstance(applied, ReviewApplied) and applied.next_phase is Phase.VALIDATE
    state = applied.state
    state.verifications[ClaimId(UUID(int=1))] = ClaimVerification(
        ClaimId(UUID(int=1)), "verifier", VerifyStatus.PASSED, 7.0, None, None, 0.9, 0.9, None, True, (), 3, (), ""
    )  # VERIFY opened VALIDATE and judged the claim as it read before the revision
    model = script()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, "scripted")
    await record_run(AgentRunner(model, max_nudges=0), ctx, [phase_kickoff(state)])

    brief = model.requests[0].messages[0].text
    assert brief.startswith("[forge phase=validate round=1]\nFIRST, THE PERSON'S FEEDBACK")
    assert f"gave feedback on claim 0 ({UUID(int=1)})" in brief
    assert f"- The person's feedback on claim {UUID(int=1)} “Pooling triage" in brief
    assert "act on it first: revise_claim with claim_index 0, before testing the claim." in brief

    refused = _result_of(model, 2)
    assert refused.is_error and ErrorCode.FEEDBACK_UNADDRESSED.value in refused.content
    assert FEEDBACK in refused.content
    revised = _result_of(model, 3)
    assert not revised.is_error and '"revised": true' in revised.content
    assert "feedback acted on 1/1, falsification 0/2" in revised.content
    assert "VERIFY judged the wording before this revision" in revised.content
    assert not _result_of(model, 5).is_error  # the revised claim is tested

    claim = state.current_round_claims[0]
    assert claim.text == REVISED and claim.revised_from == "Pooling triage queues across emergency wards cuts waits"
    assert claim.feedback_response == REVISE["response"] and claim.user_feedback == FEEDBACK
    assert claim.falsifiability_condition.startswith("Median wait at peak hours")
    assert 0 in state.falsification_attempted


async def test_the_work_gate_holds_while_feedback_is_open_and_later_briefs_carry_the_answer() -> None:
    ids = CountingIds()
    applied = apply_review(claims_awaiting_review(), ClaimsReview((ClaimFeedback(1, "Which lanes?"),)), ids)
    assert isinstance(applied, ReviewApplied)
    state = applied.state
    gate = check_validate_work_complete(state)
    assert gate is not None and gate.code is ErrorCode.FEEDBACK_UNADDRESSED and "(by index): 1." in gate.message
    answer = {"claim_index": 1, "response": "Kept: the claim names the lanes already, fast-track for minor cases."}
    model = ScriptedModel([turn(call("revise_claim", {"claim_index": 0, "response": "Nothing was asked here."})),
                           turn(call("revise_claim", answer)), turn(text="answered")])  # fmt: skip
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, "scripted")
    await record_run(AgentRunner(model, max_nudges=0), ctx, [phase_kickoff(state)])

    no_feedback = _result_of(model, 1)
    assert no_feedback.is_error and "Claim 0 has no feedback from the person" in no_feedback.content
    assert state.current_round_claims[1].text == "Fast-track lanes cut waits"  # kept, answered
    assert state.current_round_claims[1].revised_from is None
    gate = check_validate_work_complete(state)
    assert gate is not None and gate.code is ErrorCode.PHASE_WORK_INCOMPLETE  # now only the scores are missing
    state.enter_phase(Phase.BUILD)
    assert "kept, with this answer: Kept: the claim names the lanes" in phase_kickoff(state).text

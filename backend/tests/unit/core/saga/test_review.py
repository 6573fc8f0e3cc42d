from uuid import UUID

from forge.core.domain_types import BuildDecision, Phase, ReviewType
from forge.core.frame.audit_constraints import ConstraintAudit
from forge.core.frame.problem_frame import AuditedFrame, ProblemFrame
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.inputs import BuildDecisionReview, ReviewRejection, SupervisorDecisions
from forge.core.saga.observe import open_finding_lines
from forge.core.saga.records import Checkpoint, Finding, FindingKind
from forge.core.saga.state import SupervisionState
from forge.core.saga.supervise import run_checkpoint
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import decode_state, encode_state


def _new_id() -> UUID:
    return UUID(int=1)


def _state_with_findings() -> ForgeState:
    frame = ProblemFrame("Cut waits", "ED", "wait", hard_constraints=("No new hires",))
    state = ForgeState(problem="Cut waits", problem_frame=AuditedFrame(frame, ConstraintAudit((), ())))
    violation = Finding(FindingKind.HARD_CONSTRAINT_VIOLATION, 2, 0, ("a", "b"), "breaks")
    anti = Finding(
        FindingKind.ANTI_PATTERN, 1, 0, ("a",), "more staff", suggested_constraint="Change the flow, not headcount."
    )
    result = run_checkpoint(SupervisionState(), Checkpoint.CP4, 0, [violation, anti], batch_size=2)
    state.supervision = result.state
    state.current_phase = Phase.BUILD
    state.await_review(ReviewType.BUILD_DECISION)
    return state


def test_the_checkpoint_paused_the_pipeline_and_suggested_a_constraint():
    sup = _state_with_findings().supervision
    assert sup is not None and sup.paused
    assert [d.kind.value for d in sup.directives] == ["FLAG_HYPOTHESIS", "PAUSE_PIPELINE", "ADD_CONSTRAINT"]


def test_a_review_adopts_the_suggested_constraint_and_dismisses_the_pausing_finding():
    state = _state_with_findings()
    sup = state.supervision
    assert sup is not None
    suggestion = sup.directives[-1].id
    pausing = sup.paused_by
    assert pausing is not None
    decisions = SupervisorDecisions(dismissed_findings=(pausing,), adopted_constraints=(suggestion,))
    applied = apply_review(
        state,
        BuildDecisionReview(BuildDecision.ADD_INSIGHT, user_insight="Noon discharges free beds.", supervisor=decisions),
        _new_id,
    )
    assert isinstance(applied, ReviewApplied)
    after = applied.state
    assert applied.next_phase is None and after.user_insights == ["Noon discharges free beds."]
    assert after.problem_frame is not None
    assert after.problem_frame.frame.hard_constraints == ("No new hires", "Change the flow, not headcount.")
    assert after.supervision is not None and not after.supervision.paused
    assert after.supervision.adopted == (suggestion,)
    assert after.supervision.finding(pausing).dismissed  # type: ignore[union-attr]
    assert "adopted 1 suggested constraint" in applied.summary
    assert state.supervision is sup  # the original is untouched


def test_unknown_ids_are_rejected_and_nothing_changes():
    state = _state_with_findings()
    bad = apply_review(
        state,
        BuildDecisionReview(
            BuildDecision.ADD_INSIGHT,
            user_insight="x",
            supervisor=SupervisorDecisions(dismissed_findings=("nope",)),
        ),
        _new_id,
    )
    assert isinstance(bad, ReviewRejection) and "unknown findings" in bad.message
    flag = state.supervision.directives[0].id  # type: ignore[union-attr]
    not_a_constraint = apply_review(
        state,
        BuildDecisionReview(
            BuildDecision.ADD_INSIGHT,
            user_insight="x",
            supervisor=SupervisorDecisions(adopted_constraints=(flag,)),
        ),
        _new_id,
    )
    assert isinstance(not_a_constraint, ReviewRejection) and "ADD_CONSTRAINT" in not_a_constraint.message


def test_the_supervision_survives_the_state_codec():
    state = _state_with_findings()
    assert decode_state(encode_state(state)) == state


def test_rerunning_a_recorded_checkpoint_changes_nothing():
    sup = _state_with_findings().supervision
    assert sup is not None
    again = run_checkpoint(sup, Checkpoint.CP4, 0, [Finding(FindingKind.SCORE_COMPRESSION, 0.1, 0.8, (), "m")], 5)
    assert again.already_recorded and again.state == sup and again.findings == ()


def test_the_answer_pack_lists_the_findings_the_person_did_not_dismiss():
    state = _state_with_findings()
    sup = state.supervision
    assert sup is not None and len(sup.findings) == 2
    lines = open_finding_lines(state)
    assert [line.split(": ", 1)[1] for line in lines] == [f.finding.message for f in sup.findings]
    assert all(
        line.startswith(f"CP-4 round 0, layer {f.finding.layer}:") for line, f in zip(lines, sup.findings, strict=True)
    )
    decisions = SupervisorDecisions(dismissed_findings=(sup.findings[0].id,))
    applied = apply_review(state, BuildDecisionReview(BuildDecision.RESOLVE, supervisor=decisions), _new_id)
    assert isinstance(applied, ReviewApplied)
    assert [line.endswith(sup.findings[1].finding.message) for line in open_finding_lines(applied.state)] == [True]

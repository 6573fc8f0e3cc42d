"""CP-1 at the decompose review: a conflict is shown with how to resolve it, the review is refused
until one side is dropped or relaxed, and the autopilot stops there instead of choosing."""

from __future__ import annotations

from uuid import UUID

from forge.core.domain_types import Phase, ReframingId, ReframingType, ReviewType
from forge.core.frame.constraint_changes import ConstraintChange, changed_frame, open_conflicts
from forge.core.frame.problem_frame import AuditedFrame, audit_frame, make_frame
from forge.core.phases.close_decompose import decompose_review_payload
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.review.inputs import DecomposeReview, ReviewRejection
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Assumption, Reframing, StateOfArt


def conflicting_frame() -> AuditedFrame:
    frame = make_frame(
        "Cut emergency wait times",
        "emergency department",
        "median wait under 30 minutes",
        hard_constraints=["no overtime", "use overtime", "no new beds"],
        success_criteria=["median wait under 30 minutes within 6 months"],
    )
    assert not isinstance(frame, str)
    return audit_frame(frame)


def test_a_conflict_names_both_constraints_by_index() -> None:
    (conflict,) = open_conflicts(conflicting_frame())
    assert conflict.indices == (0, 1)
    assert conflict.constraints == ("no overtime", "use overtime")
    assert "forbids what the other requires" in conflict.message


def test_dropping_or_relaxing_one_side_leaves_no_conflict() -> None:
    audited = conflicting_frame()
    dropped = changed_frame(audited, [ConstraintChange(1)])
    relaxed = changed_frame(audited, [ConstraintChange(0, "at most 4 overtime hours per nurse a week")])
    assert isinstance(dropped, AuditedFrame) and isinstance(relaxed, AuditedFrame)
    assert dropped.frame.hard_constraints == ("no overtime", "no new beds")
    assert relaxed.frame.hard_constraints[0] == "at most 4 overtime hours per nurse a week"
    assert open_conflicts(dropped) == [] and open_conflicts(relaxed) == []
    assert (
        changed_frame(audited, [ConstraintChange(9)]) == "constraint_changes name constraints [9]; the frame has 0..2."
    )


def at_decompose_review(frame: AuditedFrame) -> ForgeState:
    state = ForgeState(
        problem="How can a hospital cut emergency wait times?\n\nConstraints:\n- no overtime",
        fundamentals=["arrival rate"],
        state_of_art=StateOfArt("fast tracks", ()),
        assumptions=[Assumption(f"a{i}") for i in range(3)],
        reframings=[Reframing(ReframingId(UUID(int=20 + i)), f"r{i}", ReframingType.SCOPE_CHANGE) for i in range(3)],
        problem_frame=frame,
    )
    state.awaiting_user_input, state.awaiting_input_type = True, ReviewType.DECOMPOSE_REVIEW
    return state


def test_the_review_shows_the_conflict_and_refuses_to_go_on_until_one_side_goes() -> None:
    state = at_decompose_review(conflicting_frame())
    payload = decompose_review_payload(state)
    assert [c["text"] for c in payload["constraints"]] == ["no overtime", "use overtime", "no new beds"]
    (shown,) = payload["constraint_conflicts"]
    assert shown["indices"] == [0, 1] and '[{"index": 0}] drops “no overtime”' in shown["resolve"]
    assert shown["message"].startswith("“no overtime” and “use overtime” conflict")  # the SPA shows this

    refused = apply_review(state, DecomposeReview(selected_reframings=(0,)), lambda: "id")
    assert isinstance(refused, ReviewRejection)
    assert "no answer can meet them all" in refused.message and "“use overtime”" in refused.message

    review = DecomposeReview(selected_reframings=(0,), constraint_changes=(ConstraintChange(1),))
    applied = apply_review(state, review, lambda: "id")
    assert isinstance(applied, ReviewApplied) and applied.next_phase is Phase.EXPLORE
    assert applied.state.problem_frame is not None
    assert applied.state.problem_frame.frame.hard_constraints == ("no overtime", "no new beds")
    assert "changed 1 constraint(s)" in applied.summary


def test_the_autopilot_stops_at_a_conflict_and_says_why() -> None:
    policy = AutopilotPolicy()
    state = at_decompose_review(conflicting_frame())
    reason = policy.stop_reason(state, ReviewType.DECOMPOSE_REVIEW)
    assert reason is not None and reason.startswith("Autopilot stopped at the decompose review")
    assert "“no overtime”" in reason and "“use overtime”" in reason and "your decision" in reason
    settled = changed_frame(state.problem_frame, [ConstraintChange(1)]) if state.problem_frame else None
    assert isinstance(settled, AuditedFrame)
    assert policy.stop_reason(at_decompose_review(settled), ReviewType.DECOMPOSE_REVIEW) is None
    assert policy.stop_reason(state, ReviewType.EXPLORE_REVIEW) is None

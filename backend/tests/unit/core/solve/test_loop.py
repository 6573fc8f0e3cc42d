"""The Reasoner's dual loop as a pure state machine: plan ↔ audit until no high risk (inner), risks
escalated to constraints (outer), repeated risks reframed, and the three ways it ends."""

from __future__ import annotations

from collections.abc import Sequence

from support.solve_examples import LIMIT

from forge.core.solve.constraints import ConstraintOrigin, ConstraintPriority, ConstraintSpec, ConstraintType
from forge.core.solve.loop import (
    AuditStep,
    Convergence,
    Finished,
    NoteKind,
    PlanStep,
    QualityAudit,
    Risk,
    RiskSeverity,
    SolutionPlan,
    SolveConfig,
    SolveLoop,
    next_action,
    record_audit,
    record_failure,
    record_plan,
    start_solve,
)


def high(text: str, mitigation: str = "") -> Risk:
    return Risk(text, RiskSeverity.HIGH, mitigation)


def drive(loop: SolveLoop, audits: Sequence[Sequence[Risk]]) -> tuple[Finished, list[PlanStep]]:
    """Answer every plan step with a numbered plan and every audit with the next scripted risks."""
    plans: list[PlanStep] = []
    scripted = iter(audits)
    while True:
        action = next_action(loop)
        if isinstance(action, Finished):
            return action, plans
        if isinstance(action, PlanStep):
            plans.append(action)
            loop = record_plan(loop, SolutionPlan(f"plan {len(plans)}", (f"step of plan {len(plans)}",)))
        else:
            assert isinstance(action, AuditStep)
            loop = record_audit(loop, QualityAudit(tuple(next(scripted))))


def test_the_inner_loop_replans_with_the_high_risks_until_an_audit_finds_none() -> None:
    first = [high("triage nurses are overloaded at 9 pm"), Risk("signage is unclear", RiskSeverity.MEDIUM)]
    finished, plans = drive(start_solve([LIMIT]), [first, []])
    assert finished.status is Convergence.CONVERGED and finished.unresolved_high_risks == 0
    assert plans[1].prior_risks == (first[0],)  # only the high risk is fed back
    assert finished.best is not None and finished.best.plan.summary == "plan 2" and finished.attempts == 2


def test_unresolved_high_risks_become_constraints_and_the_loop_ends_at_its_limits() -> None:
    config = SolveConfig(inner_max=2, outer_max=2)
    audits = [
        [high("beds block the corridor")],
        [high("lab results arrive late at night")],
        [high("ambulance arrivals bunch up on mondays")],
        [high("pharmacy closes before the evening peak")],
    ]
    finished, plans = drive(start_solve([LIMIT], config), audits)
    assert finished.status is Convergence.LIMITS_REACHED and finished.unresolved_high_risks == 1
    assert len(plans) == 4 and finished.outer_rounds == 2 and finished.attempts == 4
    added = [c for c in finished.constraints if c.origin is ConstraintOrigin.RISK_REFINEMENT]
    assert [c.text for c in added] == ["The solution must remove this risk: lab results arrive late at night"]
    assert plans[2].constraints == finished.constraints and plans[2].prior_risks == ()
    assert [n.kind for n in finished.notes] == [NoteKind.ADDED]


def test_risks_that_give_no_new_constraint_end_the_loop() -> None:
    config = SolveConfig(inner_max=1, outer_max=3)
    existing = ConstraintSpec(
        "ambulance handover under 15 minutes",
        ConstraintPriority.HIGH,
        ConstraintType.SOFT,
        ConstraintOrigin.DOMAIN,
        0.7,
    )
    risk = high("handover is slow", mitigation="ambulance handover under 15 minutes")
    finished, plans = drive(start_solve([LIMIT, existing], config), [[risk]])
    assert finished.status is Convergence.NO_NEW_CONSTRAINTS and finished.unresolved_high_risks == 1
    assert len(plans) == 1 and [n.kind for n in finished.notes] == [NoteKind.DUPLICATE]


def test_a_risk_repeated_in_the_next_round_triggers_a_reframe() -> None:
    config = SolveConfig(inner_max=3, outer_max=1)
    audits = [[high("triage nurses are overloaded at night")], [high("triage nurses overloaded at night")], []]
    finished, plans = drive(start_solve([LIMIT], config), audits)
    assert [p.reframe for p in plans] == [False, False, True]
    assert [n.kind for n in finished.notes] == [NoteKind.REFRAME]
    assert finished.status is Convergence.CONVERGED


def test_a_failed_call_finishes_with_the_best_attempt_so_far() -> None:
    loop = record_plan(start_solve([LIMIT]), SolutionPlan("plan 1", ("a",)))
    loop = record_audit(loop, QualityAudit((high("a risk that stays"),)))
    finished = next_action(record_failure(loop, "plan: the model is down"))
    assert isinstance(finished, Finished) and finished.status is Convergence.FAILED
    assert finished.best is not None and finished.unresolved_high_risks == 1 and "down" in finished.failure

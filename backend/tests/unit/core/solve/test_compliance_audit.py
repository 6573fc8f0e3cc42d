"""The hard-constraint compliance audit: one check per constraint, revise on a violation while
revisions remain, then report — a violation is never a compliant status."""

from __future__ import annotations

from forge.core.solve.compliance_audit import (
    MAX_REVISIONS,
    ComplianceStatus,
    ComplianceVerdict,
    Decision,
    JudgedConstraint,
    complete_checks,
    compliance_result,
    decide,
)
from forge.core.solve.constraints import ConstraintOrigin, ConstraintPriority, ConstraintSpec, ConstraintType

HARD = tuple(
    ConstraintSpec(t, ConstraintPriority.CRITICAL, ConstraintType.HARD, ConstraintOrigin.USER, 1.0)
    for t in ("without more staff", "budget under 50k")
)


def test_a_constraint_the_auditor_did_not_judge_is_unclear_never_passed() -> None:
    checks = complete_checks(
        HARD,
        [JudgedConstraint(1, ComplianceVerdict.PASS, "costs 20k"), JudgedConstraint(9, ComplianceVerdict.PASS, "x")],
    )
    assert [c.verdict for c in checks] == [ComplianceVerdict.UNCLEAR, ComplianceVerdict.PASS]
    assert [c.constraint for c in checks] == ["without more staff", "budget under 50k"]
    assert compliance_result(checks, 0).status is ComplianceStatus.UNVERIFIED


def test_a_violation_is_revised_twice_then_reported() -> None:
    checks = complete_checks(HARD, [JudgedConstraint(0, ComplianceVerdict.VIOLATION, "hires 2 nurses")])
    assert [decide(checks, n) for n in range(MAX_REVISIONS + 1)] == [Decision.REVISE, Decision.REVISE, Decision.REPORT]
    result = compliance_result(checks, MAX_REVISIONS)
    assert result.status is ComplianceStatus.VIOLATION and [v.reason for v in result.violations] == ["hires 2 nurses"]


def test_all_passed_is_compliant_and_accepted() -> None:
    checks = complete_checks(HARD, [JudgedConstraint(i, ComplianceVerdict.PASS, "ok") for i in range(2)])
    assert decide(checks, 0) is Decision.ACCEPT
    assert compliance_result(checks, 0).status is ComplianceStatus.COMPLIANT

"""The problem frame: invariants on construction, CP-1 applied to its constraints."""

from __future__ import annotations

from forge.core.frame.audit_constraints import ConstraintFindingKind
from forge.core.frame.problem_frame import ProblemFrame, audit_frame, make_frame


def test_refuses_a_frame_without_an_objective() -> None:
    assert (
        make_frame("   ", "waits", "shorter") == "The frame needs an objective: one sentence saying what must change."
    )


def test_lists_are_stripped_and_distinct_and_tags_lower_case() -> None:
    frame = make_frame(
        "Cut emergency waits",
        "emergency department",
        "shorter waits",
        stakeholders=["patients", " Patients ", "", "nurses"],
        domain_tags=["Healthcare Operations", "healthcare operations"],
    )
    assert isinstance(frame, ProblemFrame)
    assert frame.stakeholders == ("patients", "nurses") and frame.domain_tags == ("healthcare operations",)


def test_audit_merges_duplicate_constraints_across_hard_and_soft_and_keeps_findings() -> None:
    frame = make_frame(
        "Cut emergency waits",
        "emergency department",
        "shorter waits",
        hard_constraints=["no more staff", "without hiring more staff"],
        soft_constraints=["keep costs reasonable"],
    )
    assert isinstance(frame, ProblemFrame)
    audited = audit_frame(frame)
    assert audited.frame.hard_constraints == ("no more staff",)
    assert audited.frame.soft_constraints == ("keep costs reasonable",)
    assert [f.kind for f in audited.audit.findings] == [
        ConstraintFindingKind.DUPLICATE,
        ConstraintFindingKind.UNDECIDABLE,
    ]

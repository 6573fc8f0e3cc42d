"""CP-1 constraint audit: duplicates merged, conflicts and uncheckable constraints flagged."""

from __future__ import annotations

from forge.core.frame.audit_constraints import (
    Constraint,
    ConstraintFindingKind,
    ConstraintKind,
    audit_constraints,
    is_negative,
    subject_stems,
)


def texts(*items: str) -> list[Constraint]:
    return [Constraint(t) for t in items]


def test_merges_two_wordings_of_the_same_limit_and_keeps_the_first() -> None:
    audit = audit_constraints(texts("no new roads", "without building new roads", "keep the bus fare"))
    assert [c.text for c in audit.kept] == ["no new roads", "keep the bus fare"]
    (duplicate,) = audit.of_kind(ConstraintFindingKind.DUPLICATE)
    assert duplicate.indices == (0, 1)


def test_keeps_the_first_wording_even_when_a_later_one_is_longer() -> None:
    audit = audit_constraints(texts("no new staff", "no new nursing staff"))
    assert [c.text for c in audit.kept] == ["no new staff"]


def test_a_requirement_and_a_prohibition_on_one_subject_are_a_conflict_not_a_duplicate() -> None:
    audit = audit_constraints(texts("must use the existing database", "cannot use the existing database"))
    assert len(audit.kept) == 2 and audit.of_kind(ConstraintFindingKind.DUPLICATE) == []
    (conflict,) = audit.of_kind(ConstraintFindingKind.CONFLICT)
    assert conflict.indices == (0, 1) and "forbids" in conflict.message


def test_bounds_that_no_value_meets_are_a_conflict() -> None:
    audit = audit_constraints(texts("budget under $10k", "a budget of at least $20k"))
    (conflict,) = audit.of_kind(ConstraintFindingKind.CONFLICT)
    assert "at most 10000" in conflict.message and "at least 20000" in conflict.message


def test_bounds_that_leave_room_are_not_a_conflict_nor_a_duplicate() -> None:
    audit = audit_constraints(texts("budget under $30k", "budget of at least $20k"))
    assert audit.findings == ()
    assert len(audit.kept) == 2


def test_a_vague_limit_without_a_number_is_undecidable() -> None:
    audit = audit_constraints(texts("keep costs reasonable", "costs under 5000 EUR a month"))
    (undecidable,) = audit.of_kind(ConstraintFindingKind.UNDECIDABLE)
    assert undecidable.indices == (0,) and "how much" in undecidable.message


def test_unrelated_constraints_pass_untouched_with_their_kind() -> None:
    items = [Constraint("no new roads"), Constraint("finish within 12 months", ConstraintKind.SOFT)]
    audit = audit_constraints(items)
    assert audit.kept == tuple(items) and audit.findings == ()


def test_subject_ignores_light_verbs_and_numbers() -> None:
    assert subject_stems("without building 3 new roads") == subject_stems("no roads")
    assert is_negative("without new hires") and not is_negative("with two extra nurses")

"""Solve's constraint library and compiler: origins, HardCore at both ends of a prompt, an
ActiveSoftSet of 3-6 by relevance, the cap of 15 that never prunes the person's constraints,
semantic deduplication and conflict detection."""

from __future__ import annotations

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.solve.constraints import (
    LIBRARY_CAP,
    ConstraintOrigin,
    ConstraintPriority,
    ConstraintSpec,
    ConstraintType,
    add_constraints,
    cap_library,
    compile_constraints,
    constraint_conflicts,
    session_constraints,
    wrap_prompt,
)


def soft(text: str, weight: float = 0.5, origin: ConstraintOrigin = ConstraintOrigin.DOMAIN) -> ConstraintSpec:
    return ConstraintSpec(text, ConstraintPriority.MEDIUM, ConstraintType.SOFT, origin, weight)


def hard(text: str, origin: ConstraintOrigin = ConstraintOrigin.DOMAIN) -> ConstraintSpec:
    return ConstraintSpec(text, ConstraintPriority.HIGH, ConstraintType.HARD, origin, 0.8)


def user(text: str) -> ConstraintSpec:
    return ConstraintSpec(text, ConstraintPriority.CRITICAL, ConstraintType.HARD, ConstraintOrigin.USER, 1.0)


def test_the_persons_listed_and_quoted_limits_are_user_constraints_and_the_frames_own_are_domain() -> None:
    problem = "How can a hospital cut emergency wait times without more staff?\n\nConstraints:\n- budget under 50k"
    frame = ProblemFrame(
        "Cut wait times",
        "emergency department",
        "shorter waits",
        hard_constraints=("budget under 50k", "without more staff", "keep triage safety standards"),
        soft_constraints=("prefer changes nurses can run themselves",),
    )
    library = session_constraints(problem, frame)
    by_text = {c.text: c for c in library}
    assert by_text["budget under 50k"].origin is ConstraintOrigin.USER
    assert by_text["without more staff"].origin is ConstraintOrigin.USER  # quoted from the statement
    assert by_text["keep triage safety standards"].origin is ConstraintOrigin.DOMAIN
    assert by_text["keep triage safety standards"].type is ConstraintType.HARD
    assert by_text["prefer changes nurses can run themselves"].type is ConstraintType.SOFT
    assert [c.text for c in library].count("budget under 50k") == 1


def test_the_hardcore_holds_every_hard_constraint_and_opens_and_closes_the_prompt() -> None:
    library = [user("without more staff"), hard("keep triage safety standards"), soft("prefer night shifts")]
    compiled = compile_constraints(library, "waiting room flow")
    assert compiled.hard_core == (library[0], library[1])
    prompt = wrap_prompt(compiled, "THE BODY")
    before, after = prompt.split("THE BODY")
    for c in compiled.hard_core:
        assert c.text in before and c.text in after
    assert "prefer night shifts" in before and "prefer night shifts" not in after


def test_the_active_soft_set_takes_three_then_up_to_six_relevant_ones() -> None:
    unrelated = [soft(f"preference number {i} about paperwork") for i in range(5)]
    relevant = [soft("shorten the triage queue at night"), soft("triage queue visible on a screen")]
    compiled = compile_constraints([*unrelated, *relevant], "triage queue")
    assert 3 <= len(compiled.active_soft) <= 6
    assert set(relevant) <= set(compiled.active_soft)
    assert len(compiled.active_soft) + len(compiled.dormant_soft) == 7


def test_the_active_soft_set_never_exceeds_six_and_is_smaller_only_when_fewer_exist() -> None:
    many = [soft(f"triage queue option {i}") for i in range(10)]
    assert len(compile_constraints(many, "triage queue option").active_soft) == 6
    assert len(compile_constraints(many[:2], "anything").active_soft) == 2


def test_the_library_cap_prunes_lowest_value_non_user_constraints_first() -> None:
    people = [user(f"limit {i} on topic {i}") for i in range(5)]
    others = [soft(f"soft preference {i} on area {i}", weight=i / 20) for i in range(12)]
    kept, pruned = cap_library([*people, *others])
    assert len(kept) == LIBRARY_CAP and set(people) <= set(kept)
    assert pruned == (others[0], others[1])  # the two lowest weights


def test_the_cap_yields_to_the_persons_constraints() -> None:
    people = [user(f"limit {i} on subject {i}") for i in range(LIBRARY_CAP + 2)]
    kept, pruned = cap_library([*people, soft("a preference")])
    assert kept == tuple(people) and pruned == (soft("a preference"),)


def test_a_new_constraint_that_says_what_the_library_says_is_refused() -> None:
    library = (user("without more staff"), soft("keep the triage queue under twenty patients"))
    refined = ConstraintSpec(
        "keep the triage queue under twenty patients at all times",
        ConstraintPriority.HIGH,
        ConstraintType.SOFT,
        ConstraintOrigin.RISK_REFINEMENT,
        0.7,
    )
    fresh = ConstraintSpec(
        "measure door-to-doctor time daily",
        ConstraintPriority.HIGH,
        ConstraintType.SOFT,
        ConstraintOrigin.RISK_REFINEMENT,
        0.7,
    )
    addition = add_constraints(library, [refined, fresh])
    assert addition.duplicates == (refined,) and addition.added == (fresh,)
    assert addition.library == (*library, fresh)


def test_opposite_constraints_on_one_subject_are_a_conflict() -> None:
    conflicts = constraint_conflicts([user("no overtime for nurses"), soft("require overtime for nurses"), soft("x")])
    assert len(conflicts) == 1 and "conflict" in conflicts[0].message
    assert not constraint_conflicts([user("no overtime for nurses"), soft("measure waits daily")])

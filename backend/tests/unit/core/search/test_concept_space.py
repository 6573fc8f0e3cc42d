"""Concept spaces: a shipped space is chosen by its cue terms (keeping the frame's hard constraints),
otherwise one is derived from the frame; element ids and kinds."""

from __future__ import annotations

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.search.concept_space import (
    ElementKind,
    SpaceOrigin,
    TransformOp,
    derive_concept_space,
    resolve_concept_space,
    space_prompt_text,
)
from forge.knowledge.load_concept_spaces import load_concept_spaces

SHIPPED = load_concept_spaces()
HOSPITAL = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))


def test_a_problem_that_names_a_shipped_domain_gets_its_space_with_the_frames_hard_constraints() -> None:
    space = resolve_concept_space(HOSPITAL, "How can a hospital cut emergency wait times for patients?", SHIPPED)
    assert space.origin is SpaceOrigin.SHIPPED and space.domain_id == "healthcare_operations"
    assert space.hard_constraints[-1].text == "without more staff"
    assert space.kinds()[space.hard_constraints[-1].id] is ElementKind.HARD_CONSTRAINT


def test_a_problem_outside_every_shipped_domain_gets_a_space_derived_from_its_frame() -> None:
    frame = ProblemFrame(
        "Make sourdough rise faster",
        "dough",
        "faster rise",
        ("no additives",),
        ("keep the taste",),
        ("rise within 4 hours",),
        ("bakers",),
    )
    space = resolve_concept_space(frame, "How can sourdough rise faster?", SHIPPED)
    assert space.origin is SpaceOrigin.DERIVED
    assert [e.text for e in space.hard_constraints] == ["no additives"]
    assert [e.text for e in space.soft_preferences] == ["keep the taste"]
    assert any(e.text == "rise within 4 hours" for e in space.assumptions_fixed)
    assert space.assumptions_mutable and all("dough" in e.text or "bakers" in e.text for e in space.assumptions_mutable)
    assert TransformOp.DROP_CONSTRAINT in space.allowed_ops  # there is a soft preference to drop


def test_a_derived_space_without_soft_preferences_does_not_offer_drop_constraint() -> None:
    assert TransformOp.DROP_CONSTRAINT not in derive_concept_space(HOSPITAL).allowed_ops


def test_element_ids_are_unique_and_the_prompt_marks_what_never_changes() -> None:
    for space in SHIPPED:
        ids = list(space.kinds())
        assert len(ids) == len(set(ids))
    text = space_prompt_text(SHIPPED[0])
    assert "Hard constraints (NEVER change)" in text and "am:1:" in text


def test_a_derived_space_never_offers_a_hard_constraint_as_a_mutable_assumption() -> None:
    frame = ProblemFrame(
        "Double evening visitors",
        "evening visitors",
        "more visitors",
        ("without longer staff hours",),
        scope="Within the problem as stated: double evening visitors without longer staff hours",
    )
    space = derive_concept_space(frame)
    assert space.assumptions_mutable
    assert not any("staff hours" in e.text for e in space.assumptions_mutable)

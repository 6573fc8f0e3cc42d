"""The problem frame reads a trailing "Constraints:" list (how the API stores a session's constraints)."""

from __future__ import annotations

from forge.offline.frame.problem_frame import frame_problem

LISTED = "How can a hospital cut emergency wait times?\n\nConstraints:\n- without more staff\n- GDPR compliance"


def test_listed_constraints_follow_the_ones_in_the_sentence() -> None:
    frame = frame_problem(LISTED)
    assert frame.constraints == ("without more staff", "GDPR compliance")
    assert frame.target == "emergency wait times" and frame.goal == "reduce emergency wait times without more staff"
    assert "constraint" not in frame.levers and "constraint" not in frame.key_terms
    assert "staff" in frame.levers and frame.actors[0] == "hospital"


def test_a_listed_constraint_reads_like_the_same_constraint_in_the_sentence() -> None:
    inline = frame_problem("How can a hospital cut emergency wait times without more staff?")
    listed = frame_problem("How can a hospital cut emergency wait times?\n\nConstraints:\n- Without more staff.")
    assert (listed.target, listed.constraints, set(listed.levers), listed.actors) == (
        inline.target,
        inline.constraints,
        set(inline.levers),
        inline.actors,
    )


def test_a_constraint_in_both_places_is_kept_once() -> None:
    frame = frame_problem(
        "How can a hospital cut emergency wait times without more staff?\nConstraints:\n- without more staff"
    )
    assert frame.constraints == ("without more staff",)

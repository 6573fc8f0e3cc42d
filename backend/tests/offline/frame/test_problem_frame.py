"""ProblemFrame: the target, direction, constraints, levers and actors read from the problem's own words."""

from __future__ import annotations

import pytest

from forge.offline.frame.problem_frame import frame_problem


class TestFrameProblem:
    def test_hospital_problem_has_target_constraint_levers_and_actor(self) -> None:
        frame = frame_problem("How can a hospital cut emergency wait times without more staff?")
        assert frame.target == "emergency wait times"
        assert frame.goal_verb == "cut" and frame.goal_direction == "decrease"
        assert frame.constraints == ("without more staff",)
        assert set(frame.levers) == {"staff", "hospital"}
        assert frame.actors[0] == "hospital"
        assert frame.goal == "reduce emergency wait times without more staff"

    def test_keep_down_is_a_decrease_and_with_a_fixed_budget_is_a_constraint(self) -> None:
        frame = frame_problem("How can a city keep heat-wave deaths down with a fixed budget?")
        assert frame.target == "heat-wave deaths"
        assert frame.goal_direction == "decrease"
        assert frame.constraints == ("with a fixed budget",)
        assert "budget" in frame.levers and frame.actors == ("city",)

    def test_target_keeps_its_of_phrase_and_levers_fall_back_to_the_actor(self) -> None:
        frame = frame_problem("How can we reduce churn of open-source contributors?")
        assert frame.target == "churn of open-source contributors"
        assert frame.constraints == ()
        assert frame.levers[0] == "contributor workload"

    @pytest.mark.parametrize(
        ("problem", "target", "direction"),
        [
            ("How can a small farm increase crop yields under drought?", "crop yields", "increase"),
            ("How can we speed up drug discovery?", "drug discovery", "increase"),
            ("How can a bakery stop wasting bread at closing time?", "wasting bread", "decrease"),
            ("How can a museum shorten entry queues without more staff?", "entry queues", "decrease"),
            ("Orchards lose blossoms to late frost. How can growers protect the blossoms?", "blossoms", "achieve"),
        ],
    )
    def test_goal_verbs_set_target_and_direction(self, problem: str, target: str, direction: str) -> None:
        frame = frame_problem(problem)
        assert (frame.target, frame.goal_direction) == (target, direction)

    def test_a_long_target_keeps_its_whole_noun_phrase(self) -> None:
        frame = frame_problem(
            "How can we reduce p99 write latency of our order-processing service without new database hardware?"
        )
        assert frame.target == "p99 write latency of our order-processing service"

    def test_a_target_too_long_to_keep_loses_its_trailing_modifier(self) -> None:
        frame = frame_problem(
            "How can we reduce average end-to-end checkout page load time of our mobile web shop app?"
        )
        assert frame.target == "average end-to-end checkout page load time"

    def test_several_constraints_are_found_in_order(self) -> None:
        frame = frame_problem("How can schools improve reading scores without longer school days but with volunteers?")
        assert frame.constraints == ("without longer school days", "but with volunteers")

    def test_a_verb_inside_a_constraint_is_not_the_goal(self) -> None:
        frame = frame_problem("How can a project keep its maintainers from burning out while growing its user base?")
        assert (frame.goal_verb, frame.target) == ("keep", "maintainers")

    def test_a_goal_verb_used_as_a_noun_is_not_the_goal(self) -> None:
        frame = frame_problem("Commuters wait at the tram stop is a daily complaint; the stop is cold.")
        assert "stop" not in frame.goal_verb and not frame.target.startswith("is ")

    def test_key_terms_leave_out_goal_verbs(self) -> None:
        frame = frame_problem("How can a hospital cut emergency wait times without more staff?")
        assert "cut" not in frame.key_terms and "emergency" in frame.key_terms

    def test_levers_are_nouns_of_the_problem_not_its_verb_forms(self) -> None:
        frame = frame_problem("How can an open-source project keep maintainers from burning out?")
        assert "burning" not in frame.levers and "project" in frame.levers

    def test_the_same_text_gives_the_same_frame(self) -> None:
        text = "How can a city keep heat-wave deaths down with a fixed budget?"
        assert frame_problem(text) == frame_problem(text)


@pytest.mark.parametrize(
    ("problem", "quoted"),
    [
        ("Why do open-source contributors leave?", "«Why do open-source contributors leave»"),
        ("Our nightly deploy fails twice a week. How do we fix this?", "«Our nightly deploy fails twice a week»"),
        ("How can a library lend more books without more shelves?", "«How can a library lend more books»"),
    ],
)
def test_without_a_goal_it_can_read_the_target_quotes_the_problems_own_words(problem: str, quoted: str) -> None:
    frame = frame_problem(problem)
    assert (frame.target, frame.goal_direction, frame.direction_verb) == (quoted, "achieve", "address")
    assert frame.levers and frame.actors


@pytest.mark.parametrize(
    "problem", ["如何在不增加人手的情况下缩短医院急诊的等待时间？", "人手を増やさずに救急の待ち時間を短縮するには？"]
)
def test_a_chinese_or_japanese_problem_is_its_own_target(problem: str) -> None:
    frame = frame_problem(problem)
    assert frame.target == problem.rstrip("？") and frame.key_terms and frame.levers

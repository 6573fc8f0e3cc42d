"""ProblemFrame heuristics on several differently phrased problems."""

from __future__ import annotations

import pytest

from forge.offline.frame.problem_frame import frame_problem


class TestFrameProblem:
    def test_hospital_problem_has_target_constraint_levers_and_actor(self) -> None:
        frame = frame_problem("How can a hospital cut emergency wait times without more staff?")
        assert frame.target == "emergency wait times"
        assert frame.goal_verb == "cut" and frame.goal_direction == "decrease"
        assert frame.constraints == ("without more staff",)
        assert set(frame.levers) == {"staff", "hospital"} and frame.lever == "the staff"
        assert frame.actors[0] == "hospital"
        assert frame.goal == "reduce emergency wait times without more staff"

    def test_keep_down_is_a_decrease_and_with_a_fixed_budget_is_a_constraint(self) -> None:
        frame = frame_problem("How can a city keep heat-wave deaths down with a fixed budget?")
        assert frame.target == "heat-wave deaths"
        assert frame.goal_direction == "decrease"
        assert frame.constraints == ("with a fixed budget",)
        assert "budget" in frame.levers and frame.actors == ("city",)
        assert frame.plural and frame.be == "are"

    def test_target_keeps_its_of_phrase_and_levers_fall_back_to_the_actor(self) -> None:
        frame = frame_problem("How can we reduce churn of open-source contributors?")
        assert frame.target == "churn of open-source contributors"
        assert not frame.plural
        assert frame.constraints == ()
        assert frame.levers[0] == "contributor workload"
        assert frame.actors == ("contributors",)

    @pytest.mark.parametrize(
        ("problem", "target", "direction"),
        [
            ("How can a small farm increase crop yields under drought?", "crop yields", "increase"),
            ("How do we make onboarding faster for new hires?", "the speed of onboarding", "increase"),
            ("How can we speed up drug discovery?", "drug discovery", "increase"),
            ("How can a bakery stop wasting bread at closing time?", "wasting bread", "decrease"),
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

    def test_a_target_too_long_to_keep_loses_its_trailing_modifier_not_its_last_words(self) -> None:
        frame = frame_problem(
            "How can we reduce average end-to-end checkout page load time of our mobile web shop app?"
        )
        assert frame.target == "average end-to-end checkout page load time"

    def test_constraint_terms_come_after_other_levers(self) -> None:
        frame = frame_problem("How can a bakery reduce unsold bread at closing time without losing customers?")
        assert frame.levers.index("customer") > frame.levers.index("closing")

    def test_several_constraints_are_found_in_order(self) -> None:
        frame = frame_problem("How can schools improve reading scores without longer school days but with volunteers?")
        assert frame.constraints == ("without longer school days", "but with volunteers")

    def test_without_a_goal_verb_the_salient_terms_become_the_target(self) -> None:
        frame = frame_problem("Why do open-source contributors leave?")
        assert frame.target == "open-source contributor"
        assert frame.goal_direction == "achieve"
        assert frame.levers and frame.actors

    def test_key_terms_leave_out_goal_verbs(self) -> None:
        frame = frame_problem("How can a hospital cut emergency wait times without more staff?")
        assert "cut" not in frame.key_terms and "emergency" in frame.key_terms

    def test_the_same_text_gives_the_same_frame(self) -> None:
        text = "How can a city keep heat-wave deaths down with a fixed budget?"
        assert frame_problem(text) == frame_problem(text)


def test_keep_x_from_y_targets_the_thing_to_prevent_even_with_a_later_growth_verb() -> None:
    frame = frame_problem(
        "How can an open-source project keep its maintainers from burning out while growing its user base?"
    )
    assert frame.target == "maintainers burning out" and frame.goal_direction == "decrease"
    assert (
        frame_problem("How do we stop small farms from going bankrupt after droughts?").target
        == "small farms going bankrupt"
    )
    assert frame_problem("How can we prevent volunteers from leaving the project?").target == "volunteers leaving"


@pytest.mark.parametrize(
    ("problem", "target", "direction"),
    [
        (
            "Our gym loses half of its new members in spring because the car park is full. "
            "How can we keep them coming without a bigger car park?",
            "new members who keep coming",
            "increase",
        ),
        (
            "Our repository has 60 open issues and three maintainers. How do we triage them faster?",
            "the speed of triaging open issues",
            "increase",
        ),
        (
            "Shoppers leave their baskets at the delivery step. How can we get more of them to pay?",
            "shoppers who pay",
            "increase",
        ),
        (
            "The press line wastes a tenth of the steel as offcuts. How can we use less steel per part?",
            "steel per part",
            "decrease",
        ),
        (
            "Residents miss their bin collection days. How can the council make sure they put bins out?",
            "residents who put bins out",
            "increase",
        ),
        ("How can we split the backlog into parts to reduce delay?", "delay", "decrease"),
    ],
)
def test_the_goal_comes_from_the_question_with_its_pronoun_resolved(problem: str, target: str, direction: str) -> None:
    frame = frame_problem(problem)
    assert (frame.target, frame.goal_direction) == (target, direction)


def test_a_goal_verb_used_as_a_noun_is_not_the_goal() -> None:
    frame = frame_problem("Commuters wait at the tram stop is a daily complaint; the stop is cold.")
    assert "stop" not in frame.goal_verb
    assert not frame.target.startswith("is ")


def test_the_objective_uses_the_questions_own_verb() -> None:
    frame = frame_problem("Orchards lose blossoms to late frost. How can growers protect the blossoms cheaply?")
    assert (frame.direction_verb, frame.target) == ("protect", "blossoms")
    assert frame.goal == "protect blossoms"


def test_question_words_and_pronouns_before_s_are_no_actors() -> None:
    assert frame_problem("What's the best way to lower churn?").actors == ("the people affected",)


def test_an_aside_after_the_subject_leaves_the_goal_to_the_whole_text() -> None:
    frame = frame_problem("How can we, with a fixed budget, cut energy use in our office?")
    assert (frame.target, frame.goal_direction) == ("energy use", "decrease")


def test_levers_are_things_to_act_on_not_the_verbs_of_the_story() -> None:
    frame = frame_problem("Readers abandon long articles and never come back. How can we keep readers?")
    assert not {"abandon", "never", "come"} & set(frame.levers)
    assert "article" in frame.levers or "articles" in frame.levers


@pytest.mark.parametrize(
    ("problem", "target"),
    [
        (
            "Our nightly deploy fails twice a week because of a flaky test. How do we fix this?",
            "nightly deploy failing",
        ),
        ("Most of our tomato plants die in the first month. How can we stop that?", "tomato plants dying"),
        ("Support tickets pile up every Monday. What should we do?", "support tickets piling up"),
        ("The canteen throws away a third of its soup every day. What can it do?", "canteen throwing away soup"),
    ],
)
def test_a_question_that_names_nothing_else_targets_the_stated_situation(problem: str, target: str) -> None:
    frame = frame_problem(problem)
    assert (frame.target, frame.goal_direction) == (target, "decrease")
    assert not {"die", "pile", "fail", "throw", "twice"} & set(frame.levers)


def test_a_directional_verb_in_the_text_wins_over_the_stated_situation() -> None:
    frame = frame_problem("Our clinic wants to reduce no-shows. What should we do?")
    assert (frame.target, frame.goal_direction) == ("no-shows", "decrease")

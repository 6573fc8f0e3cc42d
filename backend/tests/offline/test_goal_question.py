"""Reading the goal clause of a problem written as context then a question, and its pronouns."""

from __future__ import annotations

import pytest

from forge.offline.text.goal_question import (
    acts_on_people,
    is_verb_form,
    object_of,
    read_goal_clause,
    resolve_pronoun,
    situation_gist,
)


@pytest.mark.parametrize(
    ("problem", "verb", "rest"),
    [
        ("How can a small town attract young families?", "attract", "young families"),
        ("How do we review them faster?", "review", "them faster"),
        ("How can our support team answer tickets sooner?", "answer", "tickets sooner"),
        ("Can we still protect the orchard?", "protect", "the orchard"),
        ("How to keep volunteers coming back?", "keep", "volunteers coming back"),
        ("Small clinics cannot keep vaccines cold. How can they store them safely?", "store", "them safely"),
    ],
)
def test_the_main_verb_follows_the_questions_subject(problem: str, verb: str, rest: str) -> None:
    clause = read_goal_clause(problem)
    assert clause is not None
    assert (clause.verb, clause.rest) == (verb, rest)


def test_the_context_is_the_text_before_the_question() -> None:
    clause = read_goal_clause("Trains are late every Monday. Drivers blame the signals. How can we fix them?")
    assert clause is not None
    assert clause.context == "trains are late every monday. drivers blame the signals."


def test_without_a_question_an_opening_verb_is_a_request() -> None:
    clause = read_goal_clause("Our app starts slowly on old phones. Make it start in under two seconds.")
    assert clause is not None
    assert (clause.verb, clause.rest) == ("make", "it start in under two seconds")


@pytest.mark.parametrize(
    "problem",
    ["Why do our best engineers leave?", "What can we do about it?", "The bakery throws away bread.", ""],
)
def test_no_clause_when_no_sentence_asks_for_an_action(problem: str) -> None:
    assert read_goal_clause(problem) is None


def test_third_person_forms_of_lexicon_verbs_are_verbs() -> None:
    assert is_verb_form("loses") and is_verb_form("answers") and is_verb_form("lose")
    assert not is_verb_form("requests") and not is_verb_form("visitors")


class TestResolvePronoun:
    def test_a_plural_pronoun_acted_on_prefers_things_over_people(self) -> None:
        context = "our project has 40 open pull requests and two maintainers."
        assert resolve_pronoun("them faster", context, acts=False) == "open pull requests faster"

    def test_a_pronoun_that_acts_prefers_people(self) -> None:
        context = "customers abandon their carts at the payment step."
        resolved = resolve_pronoun("them finishing checkout", context, acts=True)
        assert resolved == "customers finishing checkout"

    def test_a_direct_object_is_preferred_over_a_prepositional_one(self) -> None:
        context = "small clinics in rural areas cannot keep vaccines cold during power cuts."
        assert resolve_pronoun("them", context, acts=False) == "vaccines"

    def test_a_verb_that_looks_plural_is_no_candidate(self) -> None:
        context = "our city library loses many evening visitors in winter."
        assert resolve_pronoun("them coming", context, acts=False) == ("evening visitors coming")

    def test_it_points_back_to_the_contexts_first_noun_phrase(self) -> None:
        context = "our mobile app takes 8 seconds to start."
        assert resolve_pronoun("it start", context, acts=False) == "mobile app start"

    def test_no_agreeing_phrase_leaves_the_text_as_it_is(self) -> None:
        assert resolve_pronoun("them", "the river floods the town.", acts=False) == "them"
        assert resolve_pronoun("that", "drivers spend hours parking.", acts=False) == "that"


def test_a_verb_that_takes_people_makes_its_pronoun_mean_people() -> None:
    frame_context = "prices keep rising and young nurses leave the town."
    clause = read_goal_clause(f"{frame_context} How can the clinic retain them?")
    assert clause is not None
    assert resolve_pronoun(clause.rest, clause.context, acts=acts_on_people(clause.verb)) == ("young nurses")
    assert resolve_pronoun(clause.rest, clause.context, acts=False) == "prices"


@pytest.mark.parametrize(
    ("sentence", "subject", "verb", "obj"),
    [
        ("Our nightly build fails twice a week.", ["nightly", "build"], "fail", ""),
        ("Half of our seedlings die in the first month.", ["seedlings"], "die", ""),
        ("The river floods the lower town every spring.", ["river"], "flood", "lower town"),
        ("Our bakery throws away a fifth of its bread every evening.", ["bakery"], "throw", "away bread"),
    ],
)
def test_a_stated_situation_gives_its_subject_verb_and_object(
    sentence: str, subject: list[str], verb: str, obj: str
) -> None:
    gist = situation_gist(sentence)
    assert gist is not None
    assert (gist[0], gist[1], object_of(gist[2])) == (subject, verb, obj)


@pytest.mark.parametrize(
    "sentence", ["We need to cut cloud costs.", "Our hospital wants to reduce wait times.", "Why?"]
)
def test_no_situation_without_a_noun_subject_and_a_lexicon_verb(sentence: str) -> None:
    assert situation_gist(sentence) is None

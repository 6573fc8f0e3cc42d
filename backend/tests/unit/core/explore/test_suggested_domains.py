"""Which shipped domain a person's suggestion names, and which suggestions still wait."""

from __future__ import annotations

from support.knowledge_examples import make_domain

from forge.core.explore.suggested_domains import (
    SuggestionOutcome,
    SuggestionSource,
    closest_domain,
    describe_outcomes,
    match_suggestion,
    not_in_library,
    pending_suggestions,
)

QUEUEING = make_domain("queueing_theory", name="Queueing theory", cues=("queue", "waiting", "server"))
SWARM = make_domain(
    "swarm", name="Swarm intelligence and collective behaviour", cues=("colony", "foraging", "flock", "trail")
)
OPTIMISATION = make_domain("optimisation", name="Mathematical optimisation", cues=("objective", "solver"))
LIBRARY = (QUEUEING, SWARM, OPTIMISATION)


def test_a_suggestion_names_a_domain_by_id_or_name_in_any_case() -> None:
    assert match_suggestion("QUEUEING THEORY", LIBRARY) is QUEUEING
    assert match_suggestion("swarm", LIBRARY) is SWARM


def test_a_suggestion_names_a_domain_whose_name_holds_all_its_terms() -> None:
    assert match_suggestion("queueing", LIBRARY) is QUEUEING
    assert match_suggestion("mathematical optimization", LIBRARY) is OPTIMISATION  # spelling folds


def test_a_suggestion_names_the_domain_whose_cues_hold_most_of_its_terms() -> None:
    assert match_suggestion("ant colony foraging", LIBRARY) is SWARM


def test_a_suggestion_that_names_nothing_shipped_names_none() -> None:
    assert match_suggestion("medieval poetry", LIBRARY) is None
    assert match_suggestion("   ", LIBRARY) is None
    assert match_suggestion("colony ships of the future galaxy", LIBRARY) is None  # 1 of 5 terms is not enough


def test_the_closest_domain_shares_any_term_and_none_shares_nothing() -> None:
    assert closest_domain("colony ships of the future galaxy", LIBRARY) is SWARM
    assert closest_domain("medieval poetry", LIBRARY) is None and closest_domain("  ", LIBRARY) is None


def test_a_suggestion_outside_the_library_is_explained_in_plain_words() -> None:
    note = not_in_library("medieval poetry", 3)
    outcome = SuggestionOutcome("medieval poetry", SuggestionSource.NONE, note=note)
    text = describe_outcomes([outcome])
    assert "not one of the 3 source domains shipped" in text and "real model" in text
    assert text.endswith("explore it.") and "`" not in text


def test_pending_suggestions_skip_explored_ones_and_repeats() -> None:
    done = [SuggestionOutcome("Queueing", SuggestionSource.LIBRARY, "queueing_theory", "Queueing theory", 3)]
    assert pending_suggestions(["queueing", " Ant colonies ", "ant  colonies", "", "poetry"], done) == [
        "Ant colonies",
        "poetry",
    ]


def test_the_outcomes_read_as_one_sentence_each() -> None:
    text = describe_outcomes(
        [
            SuggestionOutcome("queueing", SuggestionSource.LIBRARY, "q", "Queueing theory", 3, note="from the library"),
            SuggestionOutcome("poetry", SuggestionSource.NONE, note="the offline model cannot describe new domains"),
        ]
    )
    assert "'queueing' → Queueing theory (from the library): 3 hypotheses" in text
    assert "'poetry' was not explored: the offline model cannot describe new domains" in text

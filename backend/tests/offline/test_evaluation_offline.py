"""The offline stand-in for `forge eval`: word rules, labelled as such in every answer and rationale,
deterministic, and blind to order (the same two answers in both orders get mirrored verdicts)."""

from __future__ import annotations

from forge.core.evaluation.records import MacGyverItem, MooseChemItem, Preference, ScanItem, ScanPair
from forge.core.evaluation.scoring import MacGyverGrade
from forge.engine.evaluation.answer_requests import concept_mapping_request, direct_request
from forge.engine.evaluation.judge_requests import macgyver_grade_request, matched_score_request, pairwise_request
from forge.offline.evaluation_offline import offline_answer, offline_grade, offline_mapping, offline_preference

SCAN = ScanItem(
    "a -> b", "mind", "computer", (ScanPair("memory", "memory store", ()), ScanPair("thought", "process", ()))
)
PAPER = MooseChemItem(
    "0", "T", "How can a gel conduct ions?", "", "A salted polyvinyl alcohol gel frozen in one direction."
)
SOLVABLE = MacGyverItem("1", "Reach a key. Tools available: a spoon, a string.", True, "Tie the string to the spoon.")


def test_the_offline_answer_to_a_question_says_it_is_no_model() -> None:
    answer = offline_answer(direct_request(PAPER)).answer
    assert answer.startswith("Offline stand-in (no model) on: ") and "gel" in answer


def test_the_offline_scan_answers_pair_concepts_by_spelling_and_say_so() -> None:
    assert offline_answer(direct_request(SCAN)).answer.splitlines()[0] == "memory -> memory store"
    rows = offline_mapping(concept_mapping_request(SCAN)).mapping
    assert (rows[0].target_concept, rows[0].source_concept) == ("memory", "memory store")
    assert all(r.source_relation.startswith("Offline word rule") for r in rows)


def test_the_offline_judge_measures_shared_terms_and_labels_it() -> None:
    rated = offline_grade(matched_score_request(PAPER, "A salted polyvinyl alcohol gel frozen in one direction."))
    assert rated.rationale.startswith("Offline word rule, not a judgment") and getattr(rated, "score", None) == 5
    graded = offline_grade(macgyver_grade_request(SOLVABLE, "Lift the sofa."))
    assert getattr(graded, "grade", None) == MacGyverGrade.INFEASIBLE


def test_the_offline_preference_mirrors_when_the_order_is_swapped() -> None:
    good, poor = "Tie the string to the spoon.", "Lift the sofa."
    first = offline_preference(pairwise_request(SOLVABLE, good, poor, "macgyver")).preferred
    second = offline_preference(pairwise_request(SOLVABLE, poor, good, "macgyver")).preferred
    assert (first, second) == (Preference.A, Preference.B)

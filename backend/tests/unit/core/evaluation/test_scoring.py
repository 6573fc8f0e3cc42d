"""The suites' scoring rules, the pairwise tie rule and the one-to-one mapping constraint."""

from __future__ import annotations

from forge.core.evaluation.records import Arm, Preference, ScanItem, ScanPair
from forge.core.evaluation.scoring import (
    MacGyverGrade,
    fold_word,
    macgyver_score,
    matched_score,
    one_to_one,
    pairwise_winner,
    parse_mapping_lines,
    scan_correct,
    scan_score,
)

ATOM = ScanItem(
    "atom -> solar system",
    "atom",
    "solar system",
    (ScanPair("nucleus", "sun", ()), ScanPair("electron", "planet", ("moon",)), ScanPair("orbit", "orbit", ())),
)


def test_a_scan_concept_is_right_on_the_gold_word_or_an_alternative_after_folding() -> None:
    mapping = {"Nucleus": "The Sun", "electron": "moons", "orbit": "comet"}
    assert scan_correct(ATOM, mapping) == {"nucleus": True, "electron": True, "orbit": False}
    assert scan_score(ATOM, mapping) == 2 / 3


def test_an_unmapped_scan_concept_is_wrong() -> None:
    assert scan_score(ATOM, {}) == 0.0


def test_scan_offers_its_source_concepts_sorted_so_their_order_says_nothing() -> None:
    assert ATOM.candidates == ("orbit", "planet", "sun")


def test_folding_drops_case_articles_and_a_plural_s_but_not_a_double_s() -> None:
    assert fold_word("The Planets") == "planet"
    assert fold_word("glass") == "glass"


def test_macgyver_scores_feasible_answers_and_unsolvable_ones_said_so_for_the_right_reason() -> None:
    assert macgyver_score(MacGyverGrade.EFFICIENT, solvable=True) == 1.0
    assert macgyver_score(MacGyverGrade.INEFFICIENT, solvable=True) == 1.0
    assert macgyver_score(MacGyverGrade.INFEASIBLE, solvable=True) == 0.0
    assert macgyver_score(MacGyverGrade.CORRECT_RIGHT_REASON, solvable=False) == 1.0
    assert macgyver_score(MacGyverGrade.CORRECT_WRONG_REASON, solvable=False) == 0.0
    assert macgyver_score(MacGyverGrade.WRONG_SOLUTION, solvable=False) == 0.0


def test_a_grade_of_the_other_kind_of_problem_scores_nothing() -> None:
    assert macgyver_score(MacGyverGrade.CORRECT_RIGHT_REASON, solvable=True) == 0.0
    assert macgyver_score(MacGyverGrade.EFFICIENT, solvable=False) == 0.0


def test_the_matched_score_is_clamped_to_0_5() -> None:
    assert [matched_score(v) for v in (-1, 2.4, 7)] == [0.0, 2.0, 5.0]


def test_both_orders_preferring_the_same_arm_make_it_the_winner() -> None:
    assert pairwise_winner(Preference.A, Preference.B) == Arm.ENGINE
    assert pairwise_winner(Preference.B, Preference.A) == Arm.DIRECT


def test_a_judge_that_prefers_the_same_position_in_both_orders_makes_a_tie() -> None:
    assert pairwise_winner(Preference.A, Preference.A) is None
    assert pairwise_winner(Preference.B, Preference.B) is None


def test_a_tie_in_either_order_is_a_tie() -> None:
    assert pairwise_winner(Preference.A, Preference.TIE) is None
    assert pairwise_winner(Preference.TIE, Preference.A) is None


def test_one_to_one_keeps_a_source_for_one_target_only() -> None:
    rows = [("nucleus", "sun"), ("electron", "Sun"), ("electron", "planet"), ("nucleus", "moon")]
    assert one_to_one(rows) == {"nucleus": "sun", "electron": "planet"}


def test_plain_mapping_lines_are_read_in_their_usual_spellings() -> None:
    text = "Here is the mapping:\n- nucleus -> sun\n* electron: planet\norbit → orbit.\n"
    assert parse_mapping_lines(text) == [("nucleus", "sun"), ("electron", "planet"), ("orbit", "orbit")]

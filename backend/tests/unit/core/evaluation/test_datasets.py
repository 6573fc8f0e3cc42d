"""The suites' data files read in their published formats, and what to fix when one is wrong."""

from __future__ import annotations

import json

from forge.core.evaluation.datasets import DataProblem, read_items
from forge.core.evaluation.records import MacGyverItem, MooseChemItem, ScanItem, Suite


def test_macgyver_jsonl_rows_become_problems_with_their_gold_solution() -> None:
    row = {"id": "7", "problem": "Open a jar.", "solvable": False, "unconventional": None, "solution": "", "label": "x"}
    assert read_items(Suite.MACGYVER, json.dumps(row) + "\n\n") == [MacGyverItem("7", "Open a jar.", False, "")]


def test_moose_chem_papers_take_the_strict_question_and_survey_when_present_and_their_key_points() -> None:
    paper = {
        "id": 3,
        "title": "T",
        "background_question": "loose?",
        "background_question_strict": "strict?",
        "background_survey": "loose survey",
        "background_survey_strict": None,
        "ground_truth_hypothesis": "H",
    }
    assert read_items(Suite.MOOSE_CHEM, json.dumps([paper])) == [
        MooseChemItem("3", "T", "strict?", "loose survey", "H")
    ]


def test_scan_rows_are_grouped_by_domain_pair_in_file_order() -> None:
    rows = [
        {
            "target_domain": "atom",
            "source_domain": "solar system",
            "target_word": "nucleus",
            "source_word": "sun",
            "alternatives": [],
        },
        {
            "target_domain": "mind",
            "source_domain": "computer",
            "target_word": "memory",
            "source_word": "disk",
            "alternatives": ["ram"],
        },
        {
            "target_domain": "atom",
            "source_domain": "solar system",
            "target_word": "electron",
            "source_word": "planet",
            "alternatives": [],
        },
    ]
    items = read_items(Suite.SCAN, "\n".join(json.dumps(r) for r in rows))
    assert isinstance(items, list) and [i.id for i in items] == ["atom -> solar system", "mind -> computer"]
    first = items[0]
    assert isinstance(first, ScanItem) and first.target_words == ("nucleus", "electron")
    assert isinstance(items[1], ScanItem) and items[1].pairs[0].alternatives == ("ram",)


def test_a_line_that_is_not_json_says_which_line() -> None:
    problem = read_items(Suite.SCAN, '{"a": 1}\nnot json\n')
    assert isinstance(problem, DataProblem) and problem.message.startswith("line 2 is not JSON")


def test_a_row_without_a_field_names_the_field_and_the_format() -> None:
    problem = read_items(Suite.MACGYVER, json.dumps({"id": "1", "problem": "p"}))
    assert isinstance(problem, DataProblem) and "'solvable'" in problem.message and "MacGyver JSONL" in problem.message


def test_moose_chem_must_be_a_list_of_papers() -> None:
    problem = read_items(Suite.MOOSE_CHEM, json.dumps({"papers": []}))
    assert isinstance(problem, DataProblem) and "MOOSE-Chem benchmark JSON" in problem.message


def test_an_empty_file_has_no_items() -> None:
    assert isinstance(read_items(Suite.SCAN, ""), DataProblem)

"""A problem's constraints are stored as a trailing list in its text and read back from it."""

from __future__ import annotations

import pytest

from forge.core.frame.problem_constraints import ProblemParts, join_constraints, split_constraints

STATEMENT = "How can a hospital cut emergency wait times?"
LISTED = f"{STATEMENT}\n\nConstraints:\n- without more staff\n- GDPR compliance"


def test_joins_the_statement_and_a_normalised_list() -> None:
    assert join_constraints(STATEMENT, ["without  more\tstaff", " GDPR compliance "]) == LISTED


def test_no_constraints_leave_the_statement_unchanged() -> None:
    assert join_constraints(STATEMENT, []) == STATEMENT
    assert split_constraints(STATEMENT) == ProblemParts(STATEMENT, ())


def test_split_returns_the_statement_and_the_items() -> None:
    assert split_constraints(LISTED) == ProblemParts(STATEMENT, ("without more staff", "GDPR compliance"))


@pytest.mark.parametrize(
    "items",
    [["a"], ["without more staff", "budget stays flat"], ["• odd bullet", "- dash inside", "Constraints:"]],
)
def test_split_gives_back_what_join_stored(items: list[str]) -> None:
    assert split_constraints(join_constraints(STATEMENT, items)) == ProblemParts(STATEMENT, tuple(items))


@pytest.mark.parametrize(
    "problem",
    [
        f"{STATEMENT}\nConstraints: none",
        f"Constraints:\n{STATEMENT}",
        f"{STATEMENT}\nConstraints:\n- without more staff\nand then some prose",
        f"{STATEMENT}\nConstraints:",
    ],
)
def test_text_that_is_not_a_trailing_list_stays_in_the_statement(problem: str) -> None:
    assert split_constraints(problem) == ProblemParts(problem, ())


@pytest.mark.parametrize(
    ("problem", "statement", "items"),
    [
        (
            "如何缩短急诊等待时间？\n\n约束：\n- 不增加人手\n- 预算不超过5万元",
            "如何缩短急诊等待时间？",
            ("不增加人手", "预算不超过5万元"),
        ),
        ("如何缩短急诊等待时间？\n约束条件:\n・不增加人手", "如何缩短急诊等待时间？", ("不增加人手",)),
        (
            "救急の待ち時間を短くするには？\n\n制約：\n・人員を増やさない\n・予算は500万円以内",
            "救急の待ち時間を短くするには？",
            ("人員を増やさない", "予算は500万円以内"),
        ),
        (
            "救急の待ち時間を短くするには？\n制約条件：\n- 人員を増やさない",
            "救急の待ち時間を短くするには？",
            ("人員を増やさない",),
        ),
    ],
)
def test_a_constraints_heading_written_in_chinese_or_japanese_is_recognised(
    problem: str, statement: str, items: tuple[str, ...]
) -> None:
    assert split_constraints(problem) == ProblemParts(statement, items)


def test_a_chinese_heading_followed_by_prose_stays_in_the_statement() -> None:
    problem = "如何缩短急诊等待时间？\n约束：\n不增加人手，而且预算有限"
    assert split_constraints(problem) == ProblemParts(problem, ())

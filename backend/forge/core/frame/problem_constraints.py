"""A problem statement and its constraints, stored together as one text.

A session keeps one `problem` text (what every model reads). Constraints given separately are
appended to it as a trailing list — a line "Constraints:" then one "- item" line each — and read back
from it by whoever needs them apart (the API's session resource, the offline model's problem frame).

Invariants:
    - `split_constraints(join_constraints(s, items))` gives back `s` and the items, whitespace-
      normalised, for any statement `s` that does not itself end in such a list.
    - Text without a well-formed trailing list splits into (the text, no constraints): a heading
      followed by prose, or a heading with nothing after it, is left to the statement.
    - A person may write the list in the problem's own language: the heading is recognised in
      English, Chinese and Japanese ("Constraints:", "约束：", "约束条件：", "限制条件：", "制約：",
      "制約条件："), with an ASCII or a full-width colon, and an item may start with "・" or
      "·" as well as "-", "*" or "•". `join_constraints` always writes the English heading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

CONSTRAINTS_HEADING = "Constraints:"

_HEADING = re.compile(r"^\s*(?:constraints|约束|约束条件|限制条件|制約|制約条件)\s*[:：]\s*$", re.IGNORECASE)
_ITEM = re.compile(r"^\s*(?:[-*\u2022]\s+|[\u30fb\u00b7]\s*)(.*\S)\s*$")


@dataclass(frozen=True, slots=True)
class ProblemParts:
    statement: str
    constraints: tuple[str, ...]


def normalise_constraint(item: str) -> str:
    """One line, single spaces: a constraint is a short phrase, not a paragraph."""
    return " ".join(item.split())


def join_constraints(statement: str, constraints: Sequence[str]) -> str:
    """The statement followed by the constraints list; the statement alone when there are none."""
    items = [normalise_constraint(c) for c in constraints]
    if not items:
        return statement
    return "\n".join([statement, "", CONSTRAINTS_HEADING, *(f"- {item}" for item in items)])


def split_constraints(problem: str) -> ProblemParts:
    """The statement and the items of its trailing constraints list (none if there is no such list)."""
    lines = problem.rstrip().splitlines()
    heading = next((i for i in range(len(lines) - 1, -1, -1) if _HEADING.match(lines[i])), None)
    if heading is None:
        return ProblemParts(problem, ())
    matches = [_ITEM.match(line) for line in lines[heading + 1 :] if line.strip()]
    if not matches or any(m is None for m in matches):
        return ProblemParts(problem, ())
    items = tuple(normalise_constraint(m.group(1)) for m in matches if m is not None)
    return ProblemParts("\n".join(lines[:heading]).strip(), items)

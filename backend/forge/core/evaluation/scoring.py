"""Scores of the three suites' protocols, the pairwise tie rule and the one-to-one mapping constraint.

Invariants:
    - SCAN (Czinczoll et al.): a target concept is right when its source concept equals the gold word
      or one of its alternatives after folding (case, an article, a plural "s"); the item's score is the
      share of its target concepts mapped right. No judge.
    - MacGyver (Tian et al.): the judge's category; a solvable problem's answer scores 1 when it is
      feasible and effective with only the given items (efficient or inefficient), an unsolvable one's
      when it says so for the right reason.
    - MOOSE-Chem (Yang et al.): the judge's Matched Score, clamped to 0-5.
    - Pairwise: asked with the engine first and with the direct answer first; the two must agree on
      the same ARM, else it is a tie (a position-biased judge cannot make a winner).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import Enum

from forge.core.evaluation.records import Arm, Preference, ScanItem


class MacGyverGrade(str, Enum):
    EFFICIENT = "efficient"  # feasible, effective, no wasted step or item
    INEFFICIENT = "inefficient"  # feasible and effective, but roundabout
    INFEASIBLE = "infeasible"  # would not work, or uses what is not given
    CORRECT_RIGHT_REASON = "correct_right_reason"  # unsolvable: says so, for the right reason
    CORRECT_WRONG_REASON = "correct_wrong_reason"  # unsolvable: says so, for a wrong reason
    WRONG_SOLUTION = "wrong_solution"  # unsolvable: offers a solution anyway


CORRECT_GRADES = frozenset({MacGyverGrade.EFFICIENT, MacGyverGrade.INEFFICIENT, MacGyverGrade.CORRECT_RIGHT_REASON})
SOLVABLE_GRADES = (MacGyverGrade.EFFICIENT, MacGyverGrade.INEFFICIENT, MacGyverGrade.INFEASIBLE)
UNSOLVABLE_GRADES = (
    MacGyverGrade.CORRECT_RIGHT_REASON,
    MacGyverGrade.CORRECT_WRONG_REASON,
    MacGyverGrade.WRONG_SOLUTION,
)


def fold_word(word: str) -> str:
    text = re.sub(r"[^a-z0-9 ]+", " ", word.casefold())
    text = " ".join(w for w in text.split() if w not in {"a", "an", "the"})
    return text[:-1] if len(text) > 3 and text.endswith("s") and not text.endswith("ss") else text


def scan_correct(item: ScanItem, mapping: Mapping[str, str]) -> dict[str, bool]:
    """Per target concept: is the mapped source concept the gold word or an alternative?"""
    folded = {fold_word(k): v for k, v in mapping.items()}
    right: dict[str, bool] = {}
    for pair in item.pairs:
        answer = fold_word(folded.get(fold_word(pair.target_word), ""))
        right[pair.target_word] = bool(answer) and answer in {
            fold_word(w) for w in (pair.source_word, *pair.alternatives)
        }
    return right


def scan_score(item: ScanItem, mapping: Mapping[str, str]) -> float:
    right = scan_correct(item, mapping)
    return sum(right.values()) / len(right) if right else 0.0


def macgyver_score(grade: MacGyverGrade, solvable: bool) -> float:
    """1 for a correct answer of the problem's kind; a grade of the other kind (the judge mixed them up) is 0."""
    allowed = SOLVABLE_GRADES if solvable else UNSOLVABLE_GRADES
    return 1.0 if grade in allowed and grade in CORRECT_GRADES else 0.0


def matched_score(value: float) -> float:
    return float(min(5.0, max(0.0, round(value))))


def _preferred_arm(preference: Preference, shown_first: Arm) -> Arm | None:
    if preference == Preference.TIE:
        return None
    other = Arm.DIRECT if shown_first == Arm.ENGINE else Arm.ENGINE
    return shown_first if preference == Preference.A else other


def pairwise_winner(engine_first: Preference, direct_first: Preference) -> Arm | None:
    """The arm both orders prefer, else None (a tie): a swap that flips the verdict is position bias."""
    first = _preferred_arm(engine_first, Arm.ENGINE)
    second = _preferred_arm(direct_first, Arm.DIRECT)
    return first if first == second else None


def one_to_one(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Structure-mapping's one-to-one constraint over (target, source) rows in the model's order: a
    target keeps its first source, and a source already taken by another target is not reused."""
    chosen: dict[str, str] = {}
    seen: set[str] = set()
    taken: set[str] = set()
    for target, source in pairs:
        key, value = fold_word(target), fold_word(source)
        if key and value and key not in seen and value not in taken:
            chosen[target] = source
            seen.add(key)
            taken.add(value)
    return chosen


def parse_mapping_lines(text: str) -> list[tuple[str, str]]:
    """A plain answer's "target -> source" lines (also "target: source", "target = source", bullets)."""
    pairs: list[tuple[str, str]] = []
    for line in text.splitlines():
        parts = re.split(r"\s*(?:->|→|=>|:|=)\s*", line.strip().lstrip("-*• ").strip(), maxsplit=1)
        if len(parts) == 2 and parts[0] and parts[1]:
            pairs.append((parts[0].strip("*_ "), parts[1].strip("*_. ")))
    return pairs

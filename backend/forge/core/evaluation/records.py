"""The records of an evaluation: suites, arms, the items of each suite's data file, and what one arm
answered on one item (its score, the judge's rationale, cost and time).

Invariants:
    - Frozen records; ids are the data file's own (SCAN has none: a domain pair's id is
      `<target domain> -> <source domain>`).
    - A score is on the suite's scale (`SCALES`): SCAN and MacGyver 0-1, MOOSE-Chem's Matched Score 0-5.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Suite(str, Enum):
    MACGYVER = "macgyver"
    MOOSE_CHEM = "moose-chem"
    SCAN = "scan"


class Arm(str, Enum):
    ENGINE = "engine"  # a full autopilot session (SCAN: the engine's concept mapping)
    DIRECT = "direct"  # the same generator model asked once with a plain prompt


# Each suite's score range, said in every report.
SCALES: dict[Suite, tuple[float, float]] = {
    Suite.SCAN: (0.0, 1.0),
    Suite.MACGYVER: (0.0, 1.0),
    Suite.MOOSE_CHEM: (0.0, 5.0),
}
JUDGED = frozenset({Suite.MACGYVER, Suite.MOOSE_CHEM})


@dataclass(frozen=True, slots=True)
class MacGyverItem:
    id: str
    problem: str
    solvable: bool
    solution: str  # the gold (human) solution, with the data's "<br>" step separators


@dataclass(frozen=True, slots=True)
class MooseChemItem:
    id: str
    title: str
    question: str
    survey: str
    hypothesis: str  # the paper's ground-truth hypothesis
    key_points: str = ""  # the benchmark's note on the hypothesis's key points (its evaluation reads it)


@dataclass(frozen=True, slots=True)
class ScanPair:
    target_word: str
    source_word: str
    alternatives: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ScanItem:
    id: str
    target_domain: str
    source_domain: str
    pairs: tuple[ScanPair, ...]

    @property
    def target_words(self) -> tuple[str, ...]:
        return tuple(p.target_word for p in self.pairs)

    @property
    def candidates(self) -> tuple[str, ...]:
        """The source concepts offered, sorted (their order says nothing about the answer)."""
        return tuple(sorted({p.source_word for p in self.pairs}, key=str.casefold))


EvalItem = MacGyverItem | MooseChemItem | ScanItem


@dataclass(frozen=True, slots=True)
class ItemResult:
    """One arm on one item. `score` None: the arm gave no answer (`error` says why); it counts as 0."""

    item_id: str
    arm: Arm
    score: float | None
    rationale: str
    cost_usd: float
    seconds: float
    model: str
    answer: str = ""
    category: str = ""
    error: str = ""


class Preference(str, Enum):
    """The judge's choice between the answer shown first (A) and second (B)."""

    A = "A"
    B = "B"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class PairwiseResult:
    """Engine against direct on one item, asked in both orders; `winner` None is a tie."""

    item_id: str
    engine_first: Preference  # engine shown as A
    direct_first: Preference  # direct shown as A
    winner: Arm | None
    rationale: str
    cost_usd: float

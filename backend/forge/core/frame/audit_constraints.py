"""CP-1, the constraint audit (seed 000 §7 stage 1): duplicates merged, conflicts and uncheckable
constraints flagged, before any idea is measured against them.

Invariants:
    - Pure and deterministic; of two duplicates the first is kept, in its own words (callers put
      the person's constraints first, so a model's rewording never replaces theirs).
    - Two constraints are duplicates when they have the same polarity (both forbid, or both
      require) and the same subject: the same content stems once light verbs ("build", "use",
      "hire", …) are set aside, or one's stems contain the other's with a Jaccard overlap ≥ 0.5.
    - A conflict is two kept constraints on the same subject with opposite polarity, or numeric
      bounds on the same subject that no value satisfies (an upper bound below a lower bound).
    - An undecidable constraint uses a vague qualifier ("reasonable", "as soon as possible", …)
      and gives no number: nobody can check a claim against it as written.
    - Findings name the constraints by their index in the input, with a message saying what to do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.research.text_terms import content_terms


class ConstraintKind(str, Enum):
    HARD = "hard"  # a limit: a recommendation that breaks it is out
    SOFT = "soft"  # a preference: traded off, not enforced


@dataclass(frozen=True, slots=True)
class Constraint:
    text: str
    kind: ConstraintKind = ConstraintKind.HARD


class ConstraintFindingKind(str, Enum):
    DUPLICATE = "duplicate"
    CONFLICT = "conflict"
    UNDECIDABLE = "undecidable"


@dataclass(frozen=True, slots=True)
class AuditFinding:
    kind: ConstraintFindingKind
    indices: tuple[int, ...]  # into the audited input
    message: str


@dataclass(frozen=True, slots=True)
class ConstraintAudit:
    kept: tuple[Constraint, ...]  # the input without the duplicates that were merged away
    findings: tuple[AuditFinding, ...]

    def of_kind(self, kind: ConstraintFindingKind) -> list[AuditFinding]:
        return [f for f in self.findings if f.kind is kind]


_NEGATIONS = re.compile(
    r"\b(?:no|not|never|without|cannot|can't|mustn't|must not|avoid|forbid(?:den)?|prohibit(?:ed)?|none|zero|nor)\b",
    re.IGNORECASE,
)
_LIGHT_VERBS = frozenset(
    """build building built use using used add adding added hire hiring hired buy buying bought keep
    keeping make making have having need needing must should shall allow allowed allowing require
    required requiring get getting spend spending change changing introduce introducing exceed
    exceeding stay staying remain remaining increase increasing reduce reducing least most more less
    than under over below above within maximum minimum max min per""".split()
)
_VAGUE = re.compile(
    r"\b(?:reasonabl[ey]|appropriate(?:ly)?|adequate(?:ly)?|sufficient(?:ly)?|acceptabl[ey]|good|nice|"
    r"as soon as possible|asap|as much as possible|as little as possible|minimal|fast enough|cheap enough|"
    r"user[- ]friendly|easy|simple|efficient(?:ly)?|robust|scalable|flexible|optimal)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d")
_NUMBERS = re.compile(r"\d+(?:[.,]\d+)?")
_UPPER = re.compile(
    r"\b(?:under|below|at most|no more than|less than|max(?:imum)?|up to|within|not exceed(?:ing)?|cap(?:ped)? at)\s*"
    r"[$€£]?\s*(\d+(?:[.,]\d+)?)\s*(k|m|thousand|million)?",
    re.IGNORECASE,
)
_LOWER = re.compile(
    r"\b(?:at least|no less than|more than|over|above|min(?:imum)?|no fewer than)\s*"
    r"[$€£]?\s*(\d+(?:[.,]\d+)?)\s*(k|m|thousand|million)?",
    re.IGNORECASE,
)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}


def _stem(term: str) -> str:
    for suffix in ("ing", "ed"):
        if len(term) > len(suffix) + 3 and term.endswith(suffix):
            return term[: -len(suffix)]
    return term


def subject_stems(text: str) -> frozenset[str]:
    """What a constraint is about: its content stems without light verbs, bound words or numbers."""
    terms = (t for t in content_terms(text) if t not in _LIGHT_VERBS and not _NUMBER.search(t))
    return frozenset(_stem(t) for t in terms)


def is_negative(text: str) -> bool:
    return _NEGATIONS.search(text) is not None


def _same_subject(a: frozenset[str], b: frozenset[str]) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True
    overlap = len(a & b) / len(a | b)
    return (a <= b or b <= a) and overlap >= 0.5


def _bound(pattern: re.Pattern[str], text: str) -> float | None:
    match = pattern.search(text)
    if match is None:
        return None
    return float(match.group(1).replace(",", "")) * _SCALE.get((match.group(2) or "").lower(), 1.0)


@dataclass(frozen=True, slots=True)
class _Reading:
    index: int
    constraint: Constraint
    subject: frozenset[str]
    negative: bool


def audit_constraints(constraints: Sequence[Constraint]) -> ConstraintAudit:
    readings = [_Reading(i, c, subject_stems(c.text), is_negative(c.text)) for i, c in enumerate(constraints)]
    kept, findings = _merge_duplicates(readings)
    findings += _conflicts(kept)
    findings += [
        _undecidable(r) for r in kept if _VAGUE.search(r.constraint.text) and not _NUMBER.search(r.constraint.text)
    ]
    findings.sort(key=lambda f: (f.indices, f.kind.value))
    return ConstraintAudit(tuple(r.constraint for r in kept), tuple(findings))


def _merge_duplicates(readings: list[_Reading]) -> tuple[list[_Reading], list[AuditFinding]]:
    kept: list[_Reading] = []
    findings: list[AuditFinding] = []
    for reading in readings:
        twin = next((k for k in kept if _says_the_same(k, reading)), None)
        if twin is None:
            kept.append(reading)
            continue
        findings.append(
            AuditFinding(
                ConstraintFindingKind.DUPLICATE,
                (twin.index, reading.index),
                f"“{reading.constraint.text}” says the same as “{twin.constraint.text}”; kept the latter once.",
            )
        )
    return kept, findings


def _says_the_same(a: _Reading, b: _Reading) -> bool:
    # Different numbers on one subject are different limits (maybe a conflict), never duplicates.
    numbers_a, numbers_b = _NUMBERS.findall(a.constraint.text), _NUMBERS.findall(b.constraint.text)
    return a.negative == b.negative and sorted(numbers_a) == sorted(numbers_b) and _same_subject(a.subject, b.subject)


def _conflicts(kept: list[_Reading]) -> list[AuditFinding]:
    findings = []
    for i, a in enumerate(kept):
        for b in kept[i + 1 :]:
            if not _same_subject(a.subject, b.subject):
                continue
            if a.negative != b.negative:
                message = "one forbids what the other requires"
            elif (reason := _empty_range(a.constraint.text, b.constraint.text)) is not None:
                message = reason
            else:
                continue
            findings.append(
                AuditFinding(
                    ConstraintFindingKind.CONFLICT,
                    (a.index, b.index),
                    f"“{a.constraint.text}” and “{b.constraint.text}” conflict: {message}; keep one or reword them.",
                )
            )
    return findings


def _empty_range(a: str, b: str) -> str | None:
    for upper_text, lower_text in ((a, b), (b, a)):
        upper, lower = _bound(_UPPER, upper_text), _bound(_LOWER, lower_text)
        if upper is not None and lower is not None and upper < lower:
            return f"no value is at most {upper:g} and at least {lower:g}"
    return None


def _undecidable(reading: _Reading) -> AuditFinding:
    return AuditFinding(
        ConstraintFindingKind.UNDECIDABLE,
        (reading.index,),
        f"“{reading.constraint.text}” cannot be checked as written; say how much (a number, a unit, a date).",
    )

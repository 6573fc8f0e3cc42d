"""Resolving a technical contradiction with the classic TRIZ matrix: the model names the improving
and the worsening engineering parameters, the matrix gives the principles (000 §4.1 TRIZ, issue 11).

Invariants:
    - A parameter reference is a number (`"9"`, `"#9"`, `"9 Speed"`) or a parameter's exact name
      (case and punctuation ignored). A number and a name that disagree are refused, never guessed.
    - With a cell, the recorded principles are exactly the cell's, in matrix order, as labels
      (`"10. Preliminary action"`), followed by the model's own picks that are real principles
      outside the cell; where the classic matrix is empty, the model's picks are the principles.
    - Names that are none of the 40 principles are kept as written (the person still reads them) and
      reported back, so the model can correct them.
    - Same parameter on both sides is refused: that is a physical contradiction, resolved by
      separation, not by the matrix.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.explore.library_records import TrizKnowledge, TrizParameter, TrizPrinciple
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.records import TrizCell

_LEADING_NUMBER = re.compile(r"^\s*(?:#|no\.?\s*|n°\s*)?(\d{1,3})\b[\s.:)\-]*(.*)$", re.IGNORECASE)
_NON_WORD = re.compile(r"[^\w]+")


@dataclass(frozen=True, slots=True)
class TrizResolution:
    """What a contradiction records: the matrix cell and its principles, plus what the model added."""

    cell: TrizCell
    principles: tuple[str, ...]  # labels: the cell's, then the model's own real principles
    added_by_model: tuple[str, ...]  # real principles the model named that are not in the cell
    not_principles: tuple[str, ...]  # names that match none of the 40 principles


def _normal(text: str) -> str:
    return _NON_WORD.sub(" ", text.lower()).strip()


def _by_name(items: Sequence[TrizParameter] | Sequence[TrizPrinciple], name: str) -> int | None:
    wanted = _normal(name)
    return next((item.number for item in items if _normal(item.name) == wanted), None)


def resolve_parameter(triz: TrizKnowledge, reference: str) -> TrizParameter | None:
    """The parameter a reference names, or None when it names none (or a number and a name disagree)."""
    match = _LEADING_NUMBER.match(reference)
    if match:
        parameter = triz.parameter(int(match.group(1)))
        rest = match.group(2).strip()
        if parameter is None or (rest and _by_name(triz.parameters, rest) not in (None, parameter.number)):
            return None
        return parameter
    number = _by_name(triz.parameters, reference)
    return triz.parameter(number) if number is not None else None


def resolve_principle(triz: TrizKnowledge, reference: str) -> TrizPrinciple | None:
    """The principle a reference names: by number (`"35"`, `"35. Parameter changes"`) or by exact name."""
    match = _LEADING_NUMBER.match(reference)
    if match:
        principle = triz.principle(int(match.group(1)))
        rest = match.group(2).strip()
        if principle is None or (rest and _by_name(triz.principles, rest) not in (None, principle.number)):
            return None
        return principle
    number = _by_name(triz.principles, reference)
    return triz.principle(number) if number is not None else None


def parameter_catalogue(triz: TrizKnowledge) -> str:
    """The 39 parameters as one line each, for an error message the model can act on."""
    return "; ".join(f"{p.number} {p.name}" for p in triz.parameters)


def _unknown_parameter(role: str, reference: str, triz: TrizKnowledge) -> RuleViolation:
    return RuleViolation(
        ErrorCode.INVALID_INPUT,
        f"{role}_parameter '{reference}' is not one of the 39 TRIZ engineering parameters. Give its number "
        f"(1-39) or exact name: {parameter_catalogue(triz)}.",
    )


def resolve_contradiction(
    triz: TrizKnowledge, improving_ref: str, worsening_ref: str, proposed: Sequence[str]
) -> TrizResolution | RuleViolation:
    improving = resolve_parameter(triz, improving_ref)
    if improving is None:
        return _unknown_parameter("improving", improving_ref, triz)
    worsening = resolve_parameter(triz, worsening_ref)
    if worsening is None:
        return _unknown_parameter("worsening", worsening_ref, triz)
    cell = triz.matrix.lookup(improving.number, worsening.number)
    if not isinstance(cell, tuple):
        return RuleViolation(
            ErrorCode.INVALID_INPUT,
            cell.message + " Leave improving_parameter and worsening_parameter out and describe the "
            "separation in resolution_direction, or name two different parameters.",
        )
    named = [(text, resolve_principle(triz, text)) for text in proposed]
    own = [p.number for _, p in named if p is not None and p.number not in cell]
    matrix_labels = [p.label for n in cell if (p := triz.principle(n)) is not None]
    own_labels = [p.label for n in dict.fromkeys(own) if (p := triz.principle(n)) is not None]
    not_principles = tuple(text for text, p in named if p is None)
    return TrizResolution(
        TrizCell(improving.number, worsening.number, cell, improving.name, worsening.name),
        tuple(matrix_labels + own_labels) + not_principles,
        tuple(own_labels),
        not_principles,
    )

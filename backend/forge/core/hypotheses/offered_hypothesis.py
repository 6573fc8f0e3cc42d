"""A pool hypothesis as a brief offers it to the agent: what it says, its mapping score and whether it
passed the mapping-quality gate. BISO's head and the suggested domains' results (`PoolCandidate`) add
the domain it came from; SEARCH's children (`SearchCandidate`) add their operator and lineage.

Invariants:
    - Pure, frozen; built from a `Hypothesis` when the stage that made it runs, and kept in the state
      (a brief is built from the state alone). The mapping score is rounded to one decimal.
    - Each kind encodes flat (`state_codec`): its own fields beside these, so the review payloads
      (`api/schemas/review_payloads.py`, whose views a test checks against these types) and stored
      sessions keep one shape per kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from forge.core.hypotheses.pool import GateStatus, Hypothesis


@dataclass(frozen=True, slots=True)
class OfferedHypothesis:
    id: str
    title: str
    statement: str
    mechanism: str
    observable: str
    mapping_score: float
    gate_passed: bool

    @property
    def rank(self) -> tuple[bool, float]:
        """Gate first (passed before failed), then the mapping score."""
        return (self.gate_passed, self.mapping_score)


OfferedT = TypeVar("OfferedT", bound=OfferedHypothesis)


def offered_from(h: Hypothesis, kind: type[OfferedT], **own: Any) -> OfferedT:
    """The pool's `h` offered as `kind`, with that kind's `own` fields."""
    return kind(
        id=h.id,
        title=h.title,
        statement=h.statement,
        mechanism=h.mechanism,
        observable=h.observable,
        mapping_score=round(h.gate.mapping_score, 1),
        gate_passed=h.gate.status is GateStatus.PASSED,
        **own,
    )

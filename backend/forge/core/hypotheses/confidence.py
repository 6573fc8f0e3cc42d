"""C-values (seed 004 §2.2, §5): how a remembered hypothesis's confidence moves with evidence.

Invariants:
    - Every rule maps [0, 1] into [C_MIN, C_MAX] ∪ {its input where the rule allows it}; support
      never lowers C, contradiction never raises it, and both approach their bound with diminishing steps.
    - Pure functions of floats: no clock, no state; the usage history is written by the caller.
"""

from __future__ import annotations

from enum import StrEnum

INITIAL_C = 0.3
C_MAX = 0.95
C_MIN = 0.05
SUPPORT_RATE = 0.1
CONTRADICTION_FACTOR = 0.9
REFINEMENT_FACTOR = 0.9
REFINEMENT_FLOOR = 0.3
CHILD_BOOST = 1.2
RETRIEVAL_MIN_C = 0.2


class MemoryOutcome(StrEnum):
    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    REFINED = "refined"


def supported(c: float) -> float:
    """Support: c + (1 - c)·0.1, at most 0.95."""
    return min(C_MAX, c + (1 - c) * SUPPORT_RATE)


def contradicted(c: float) -> float:
    """Contradiction: c·0.9, at least 0.05."""
    return max(C_MIN, c * CONTRADICTION_FACTOR)


def refined_parent(c: float) -> float:
    """Refinement, the parent: c·0.9, at least 0.3 (a refined idea was worth refining)."""
    return max(REFINEMENT_FLOOR, c * REFINEMENT_FACTOR)


def refined_child(parent_c: float) -> float:
    """Refinement, the child: 1.2 × the parent's C (after its refinement update), at most 0.95."""
    return min(C_MAX, parent_c * CHILD_BOOST)


def after_outcome(c: float, outcome: MemoryOutcome) -> float:
    """The C of an episode after one event (REFINED is the parent's side of a refinement)."""
    if outcome == MemoryOutcome.SUPPORTED:
        return supported(c)
    if outcome == MemoryOutcome.CONTRADICTED:
        return contradicted(c)
    return refined_parent(c)

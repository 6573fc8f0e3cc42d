"""C-values (seed 004 §2.2, §5): how a remembered hypothesis's confidence moves with evidence.

Invariants:
    - Every rule maps [0, 1] into [C_MIN, C_MAX] ∪ {its input where the rule allows it}; support
      never lowers C, contradiction and refinement of the parent never raise it, and both approach
      their bound with diminishing steps.
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
    """The kind of one C change (seed 004 §3.2 `outcome`, with §10's kinds)."""

    CREATED = "created"  # the episode's first entry: its initial C (§10.3), before any update
    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    REFINED = "refined"
    REPEATED = "repeated"  # the same hypothesis judged again in a session that already moved it: C unchanged (§10.4)
    QUERY_MATCH = "query_match"  # a new question retrieved it (§10.2)
    MUTUAL_SUPPORT = "mutual_support"  # a related hypothesis was accepted (§10.2)
    CONFLICT = "conflict"  # a related hypothesis was judged the other way (§10.2)


class EpisodeType(StrEnum):
    """Seed 004 §2.3. Memory stores HYPOTHESIS episodes; the other kinds name what a later store may hold."""

    FACT = "fact"
    HYPOTHESIS = "hypothesis"
    QUESTION = "question"
    REASONING = "reasoning"


def supported(c: float) -> float:
    """Support: c + (1 - c)·0.1, at most 0.95."""
    return min(C_MAX, c + (1 - c) * SUPPORT_RATE)


def contradicted(c: float) -> float:
    """Contradiction: c·0.9, at least 0.05."""
    return max(C_MIN, c * CONTRADICTION_FACTOR)


def refined_parent(c: float) -> float:
    """Refinement, the parent (§5.3 "slightly lowered"): c·0.9, floored at 0.3 (a refined idea was
    worth refining) but never raised: a parent already below 0.3 keeps its C."""
    return min(c, max(REFINEMENT_FLOOR, c * REFINEMENT_FACTOR))


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

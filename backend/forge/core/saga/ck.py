"""The C-K coordinator (seed 000 §2.4, §5.5): which space the session is expanding — concepts (C,
undecided propositions: hypotheses) or knowledge (K, decided ones: evidence, mechanisms) — as a
pure state machine.

Invariants:
    - C→K on `evidence_gap` or `non_operationalizable`; K→C on `new_mechanism`, `new_evidence` or
      `structure_found`; `coverage_plateau` is a C→K knowledge expansion, judged per SEARCH round: the
      MOME coverage of the pool after the round's children gained less than PLATEAU_GAIN over the
      coverage the round's seeds were chosen on (its children filled no new region of the grid).
      A trigger that points at the space the session is already in changes nothing.
    - Anti-oscillation: no transition until `MIN_PHASE_DURATION_S` seconds after the last one
      (time is passed in, never read). K expansions are capped at `MAX_K_EXPANSIONS` per session;
      past the cap a C→K trigger is held and says so.
    - Every decision is returned with its reason; the state records the transitions taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

MIN_PHASE_DURATION_S = 10.0
MAX_K_EXPANSIONS = 5
PLATEAU_GAIN = 0.02


class Space(str, Enum):
    CONCEPT = "C"
    KNOWLEDGE = "K"


class CKTrigger(str, Enum):
    EVIDENCE_GAP = "evidence_gap"
    NON_OPERATIONALIZABLE = "non_operationalizable"
    NEW_MECHANISM = "new_mechanism"
    NEW_EVIDENCE = "new_evidence"
    STRUCTURE_FOUND = "structure_found"
    COVERAGE_PLATEAU = "coverage_plateau"


TOWARD: dict[CKTrigger, Space] = {
    CKTrigger.EVIDENCE_GAP: Space.KNOWLEDGE,
    CKTrigger.NON_OPERATIONALIZABLE: Space.KNOWLEDGE,
    CKTrigger.COVERAGE_PLATEAU: Space.KNOWLEDGE,
    CKTrigger.NEW_MECHANISM: Space.CONCEPT,
    CKTrigger.NEW_EVIDENCE: Space.CONCEPT,
    CKTrigger.STRUCTURE_FOUND: Space.CONCEPT,
}


@dataclass(frozen=True, slots=True)
class CKTransition:
    source: Space
    target: Space
    trigger: CKTrigger
    at: float


@dataclass(frozen=True, slots=True)
class CKState:
    space: Space = Space.CONCEPT
    entered_at: float | None = None  # None: never transitioned (no anti-oscillation hold)
    k_expansions: int = 0
    transitions: tuple[CKTransition, ...] = ()


@dataclass(frozen=True, slots=True)
class CKDecision:
    state: CKState
    transition: CKTransition | None
    reason: str


def step(state: CKState, trigger: CKTrigger, now: float) -> CKDecision:
    target = TOWARD[trigger]
    if target is state.space:
        return CKDecision(state, None, f"{trigger.value}: already in {target.value}-space")
    if state.entered_at is not None and now - state.entered_at < MIN_PHASE_DURATION_S:
        held = now - state.entered_at
        return CKDecision(state, None, f"{trigger.value} held: only {held:.1f}s in {state.space.value}-space")
    if target is Space.KNOWLEDGE and state.k_expansions >= MAX_K_EXPANSIONS:
        return CKDecision(state, None, f"{trigger.value} held: {MAX_K_EXPANSIONS} knowledge expansions already")
    transition = CKTransition(state.space, target, trigger, now)
    expansions = state.k_expansions + (target is Space.KNOWLEDGE)
    moved = replace(
        state, space=target, entered_at=now, k_expansions=expansions, transitions=(*state.transitions, transition)
    )
    return CKDecision(moved, transition, f"{trigger.value}: {state.space.value}→{target.value}")


def run_triggers(state: CKState, triggers: Sequence[CKTrigger], now: float) -> tuple[CKState, list[CKDecision]]:
    """Apply triggers in order (the first that moves the state holds the rest by anti-oscillation)."""
    decisions = []
    for trigger in triggers:
        decision = step(state, trigger, now)
        decisions.append(decision)
        state = decision.state
    return state, decisions


def coverage_plateau(before: float, after: float) -> bool:
    """One SEARCH round's MOME coverage gain (`before`: the pool its seeds were chosen on; `after`: with
    its children) is below PLATEAU_GAIN."""
    return after - before < PLATEAU_GAIN

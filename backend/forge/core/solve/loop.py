"""Solve's Reasoner as data (seed 000 §6.2–6.5): the seven steps, the BeliefState they build, and
the dual loop as a pure state machine that a shell drives call by call.

    next_action(loop) -> PlanStep | AuditStep | Finished
    record_plan(loop, plan) -> loop          (step 5)
    record_audit(loop, audit) -> loop        (step 6; decides inner/outer/finish)
    record_failure(loop, message) -> loop    (a model call failed: finish with the best so far)

Invariants:
    - Inner loop: plan ↔ audit until an audit finds no high risk (CONVERGED) or `inner_max`
      audits ran in this outer round; each re-plan carries the last audit's high risks.
    - Outer loop: when the inner loop ends with high risks, each becomes a risk-refinement
      constraint, deduplicated against the library (`add_constraints`); none new → finished
      NO_NEW_CONSTRAINTS; `outer_max` outer rounds done → finished LIMITS_REACHED; else the
      library grows and the next outer round starts with no prior risks.
    - Repeated risk: when a high risk is ≥ REPEAT_SIMILARITY (0.6) similar to one of the previous
      audit's, the loop notes REFRAME and the next plan is asked to restructure, not patch.
    - Every note (reframe, constraints added, duplicates refused, conflicts, pruned) is kept in
      order; the outcome keeps the best plan (fewest high risks, the later on a tie) and counts
      its unresolved high risks. The state is immutable; every transition returns a new one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from forge.core.solve.constraints import (
    ConstraintOrigin,
    ConstraintPriority,
    ConstraintSpec,
    ConstraintType,
    Similarity,
    add_constraints,
    constraint_conflicts,
    term_jaccard,
)

REPEAT_SIMILARITY = 0.6


class ReasonerStep(str, Enum):
    PROBLEM_ANALYSIS = "problem_analysis"
    HYPOTHESIS_EVALUATION = "hypothesis_evaluation"
    EVIDENCE_GATHERING = "evidence_gathering"
    CROSS_VALIDATION = "cross_validation"
    SOLUTION_PLANNING = "solution_planning"
    QUALITY_AUDIT = "quality_audit"
    BELIEF_SYNTHESIS = "belief_synthesis"


class RiskSeverity(str, Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


@dataclass(frozen=True, slots=True)
class Risk:
    text: str
    severity: RiskSeverity
    mitigation: str = ""  # what would remove it, when the auditor knows


@dataclass(frozen=True, slots=True)
class SolutionPlan:
    summary: str
    steps: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class QualityAudit:
    risks: tuple[Risk, ...]

    @property
    def high(self) -> tuple[Risk, ...]:
        return tuple(r for r in self.risks if r.severity is RiskSeverity.HIGH)


@dataclass(frozen=True, slots=True)
class Analysis:
    """Steps 1–4: what the problem is, which hypotheses hold, what evidence there is, what disagrees."""

    problem_analysis: str
    hypothesis_assessments: tuple[str, ...]
    evidence: tuple[str, ...]
    cross_checks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BeliefState:
    """Step 7: the Reasoner's synthesis, what the Talker writes the solution from."""

    analysis: Analysis
    plan: SolutionPlan
    audit: QualityAudit
    constraints: tuple[ConstraintSpec, ...]
    steps: tuple[ReasonerStep, ...] = tuple(ReasonerStep)


class NoteKind(str, Enum):
    REFRAME = "constraint_reframe_triggered"
    ADDED = "constraint_added"
    DUPLICATE = "constraint_duplicate"
    CONFLICT = "constraint_conflict_detected"
    PRUNED = "constraint_pruned"


@dataclass(frozen=True, slots=True)
class LoopNote:
    kind: NoteKind
    outer_round: int
    inner_round: int
    text: str


class Convergence(str, Enum):
    CONVERGED = "zero_high_risks"
    LIMITS_REACHED = "limits_reached"
    NO_NEW_CONSTRAINTS = "no_new_constraints"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class SolveConfig:
    inner_max: int = 3
    outer_max: int = 2


@dataclass(frozen=True, slots=True)
class Attempt:
    outer_round: int
    inner_round: int
    plan: SolutionPlan
    audit: QualityAudit


@dataclass(frozen=True, slots=True)
class SolveLoop:
    config: SolveConfig
    constraints: tuple[ConstraintSpec, ...]
    outer_round: int = 1
    inner_round: int = 0  # audits done in this outer round
    prior_risks: tuple[Risk, ...] = ()
    reframe: bool = False
    pending_plan: SolutionPlan | None = None
    attempts: tuple[Attempt, ...] = ()
    notes: tuple[LoopNote, ...] = ()
    finished: Convergence | None = None
    failure: str = ""


@dataclass(frozen=True, slots=True)
class PlanStep:
    outer_round: int
    inner_round: int  # the audit this plan will be the (inner_round + 1)-th of
    constraints: tuple[ConstraintSpec, ...]
    prior_risks: tuple[Risk, ...]
    reframe: bool


@dataclass(frozen=True, slots=True)
class AuditStep:
    plan: SolutionPlan
    constraints: tuple[ConstraintSpec, ...]


@dataclass(frozen=True, slots=True)
class Finished:
    status: Convergence
    best: Attempt | None
    unresolved_high_risks: int
    constraints: tuple[ConstraintSpec, ...]
    outer_rounds: int
    attempts: int
    notes: tuple[LoopNote, ...] = field(default=())
    failure: str = ""


def start_solve(constraints: Sequence[ConstraintSpec], config: SolveConfig = SolveConfig()) -> SolveLoop:
    return SolveLoop(config, tuple(constraints))


def best_attempt(attempts: Sequence[Attempt]) -> Attempt | None:
    best: Attempt | None = None
    for attempt in attempts:
        if best is None or len(attempt.audit.high) <= len(best.audit.high):
            best = attempt
    return best


def next_action(loop: SolveLoop) -> PlanStep | AuditStep | Finished:
    if loop.finished is not None:
        best = best_attempt(loop.attempts)
        unresolved = len(best.audit.high) if best is not None else 0
        return Finished(
            loop.finished,
            best,
            unresolved,
            loop.constraints,
            loop.outer_round,
            len(loop.attempts),
            loop.notes,
            loop.failure,
        )
    if loop.pending_plan is not None:
        return AuditStep(loop.pending_plan, loop.constraints)
    return PlanStep(loop.outer_round, loop.inner_round, loop.constraints, loop.prior_risks, loop.reframe)


def record_plan(loop: SolveLoop, plan: SolutionPlan) -> SolveLoop:
    return replace(loop, pending_plan=plan)


def record_failure(loop: SolveLoop, message: str) -> SolveLoop:
    return replace(loop, finished=Convergence.FAILED, failure=message, pending_plan=None)


def _note(loop: SolveLoop, kind: NoteKind, text: str) -> LoopNote:
    return LoopNote(kind, loop.outer_round, loop.inner_round, text)


def repeated_risks(
    previous: Sequence[Risk], current: Sequence[Risk], similarity: Similarity = term_jaccard
) -> tuple[Risk, ...]:
    """The current high risks that repeat one of the previous round's (similarity ≥ 0.6)."""
    return tuple(r for r in current if any(similarity(r.text, p.text) >= REPEAT_SIMILARITY for p in previous))


def record_audit(loop: SolveLoop, audit: QualityAudit, similarity: Similarity = term_jaccard) -> SolveLoop:
    assert loop.pending_plan is not None, "record_audit follows record_plan"
    attempt = Attempt(loop.outer_round, loop.inner_round + 1, loop.pending_plan, audit)
    loop = replace(loop, pending_plan=None, inner_round=loop.inner_round + 1, attempts=(*loop.attempts, attempt))
    high = audit.high
    if not high:
        return replace(loop, finished=Convergence.CONVERGED)
    repeats = repeated_risks(loop.prior_risks, high, similarity)
    notes = tuple(_note(loop, NoteKind.REFRAME, f"Repeated risk: {r.text}") for r in repeats)
    loop = replace(loop, notes=(*loop.notes, *notes), reframe=bool(repeats), prior_risks=high)
    if loop.inner_round < loop.config.inner_max:
        return loop
    return _escalate(loop, high, similarity)


def risk_to_constraint(risk: Risk) -> ConstraintSpec:
    text = risk.mitigation.strip() or f"The solution must remove this risk: {risk.text.strip()}"
    return ConstraintSpec(text, ConstraintPriority.HIGH, ConstraintType.SOFT, ConstraintOrigin.RISK_REFINEMENT, 0.7)


def _escalate(loop: SolveLoop, high: Sequence[Risk], similarity: Similarity) -> SolveLoop:
    """The outer loop: unresolved high risks become constraints, or the loop finishes."""
    if loop.outer_round >= loop.config.outer_max:
        return replace(loop, finished=Convergence.LIMITS_REACHED)
    addition = add_constraints(loop.constraints, [risk_to_constraint(r) for r in high], similarity)
    notes = [_note(loop, NoteKind.ADDED, c.text) for c in addition.added]
    notes += [_note(loop, NoteKind.DUPLICATE, c.text) for c in addition.duplicates]
    notes += [_note(loop, NoteKind.PRUNED, c.text) for c in addition.pruned]
    new_conflicts = [
        c for c in constraint_conflicts(addition.library) if c.first in addition.added or c.second in addition.added
    ]
    notes += [_note(loop, NoteKind.CONFLICT, c.message) for c in new_conflicts]
    loop = replace(loop, notes=(*loop.notes, *notes))
    if not addition.added:
        return replace(loop, finished=Convergence.NO_NEW_CONSTRAINTS)
    return replace(
        loop,
        constraints=addition.library,
        outer_round=loop.outer_round + 1,
        inner_round=0,
        prior_risks=(),
        reframe=False,
    )

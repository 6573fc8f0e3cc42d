"""The problem frame (seed 000 §3, stage 1 of §7): what is to change, for whom, within which limits,
and how success is recognised — the reference every later stage measures ideas against.

Invariants:
    - `objective` is never empty; every list holds distinct, stripped, non-empty items.
    - Hard constraints are limits (a recommendation that breaks one is out); soft ones are
      preferences. The constraint audit (CP-1) runs over both, hard first.
    - `domain_tags` are lower-case words or short phrases naming the problem's own field(s); the
      source-domain selector keeps its distance from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from forge.core.frame.audit_constraints import Constraint, ConstraintAudit, ConstraintKind, audit_constraints


def distinct_items(items: Iterable[str]) -> tuple[str, ...]:
    """Stripped, non-empty, first occurrence kept (case-insensitive)."""
    seen: set[str] = set()
    kept: list[str] = []
    for item in items:
        text = " ".join(item.split())
        if text and text.lower() not in seen:
            seen.add(text.lower())
            kept.append(text)
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class ProblemFrame:
    objective: str
    target_object: str
    target_outcome: str
    hard_constraints: tuple[str, ...] = ()
    soft_constraints: tuple[str, ...] = ()
    success_criteria: tuple[str, ...] = ()
    stakeholders: tuple[str, ...] = ()
    scope: str = ""
    domain_tags: tuple[str, ...] = ()

    def constraints(self) -> list[Constraint]:
        hard = [Constraint(text, ConstraintKind.HARD) for text in self.hard_constraints]
        return hard + [Constraint(text, ConstraintKind.SOFT) for text in self.soft_constraints]


def make_frame(
    objective: str,
    target_object: str,
    target_outcome: str,
    *,
    hard_constraints: Iterable[str] = (),
    soft_constraints: Iterable[str] = (),
    success_criteria: Iterable[str] = (),
    stakeholders: Iterable[str] = (),
    scope: str = "",
    domain_tags: Iterable[str] = (),
) -> ProblemFrame | str:
    """A frame with its invariants, or a message saying what is missing."""
    objective = " ".join(objective.split())
    if not objective:
        return "The frame needs an objective: one sentence saying what must change."
    return ProblemFrame(
        objective=objective,
        target_object=" ".join(target_object.split()),
        target_outcome=" ".join(target_outcome.split()),
        hard_constraints=distinct_items(hard_constraints),
        soft_constraints=distinct_items(soft_constraints),
        success_criteria=distinct_items(success_criteria),
        stakeholders=distinct_items(stakeholders),
        scope=" ".join(scope.split()),
        domain_tags=tuple(t.lower() for t in distinct_items(domain_tags)),
    )


@dataclass(frozen=True, slots=True)
class AuditedFrame:
    """A frame after CP-1: duplicate constraints merged away, the findings kept for the review."""

    frame: ProblemFrame
    audit: ConstraintAudit


def audit_frame(frame: ProblemFrame) -> AuditedFrame:
    audit = audit_constraints(frame.constraints())
    hard = tuple(c.text for c in audit.kept if c.kind is ConstraintKind.HARD)
    soft = tuple(c.text for c in audit.kept if c.kind is ConstraintKind.SOFT)
    merged = ProblemFrame(
        frame.objective,
        frame.target_object,
        frame.target_outcome,
        hard,
        soft,
        frame.success_criteria,
        frame.stakeholders,
        frame.scope,
        frame.domain_tags,
    )
    return AuditedFrame(merged, audit)

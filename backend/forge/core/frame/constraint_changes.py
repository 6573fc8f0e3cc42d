"""The frame's constraints as the person sees and changes them: the numbered list the decompose
review shows, the conflicts CP-1 finds in it, and dropping or relaxing one to resolve a conflict.

Invariants:
    - Constraints are numbered as `ProblemFrame.constraints()` lists them: hard first, then soft;
      a change names a constraint by that index.
    - `open_conflicts` re-audits the frame as it stands (duplicates are merged already), so its
      indices are into that same list; a conflict is CP-1's critical finding (seed 000 §7 stage 1).
    - `changed_frame` drops (no new text) or rewords (the relaxed text) the named constraints and
      audits the result again; an index out of range is refused with the valid range.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from forge.core.frame.audit_constraints import ConstraintFindingKind, ConstraintKind, audit_constraints
from forge.core.frame.problem_frame import AuditedFrame, ProblemFrame, audit_frame


@dataclass(frozen=True, slots=True)
class ConstraintChange:
    index: int  # into ProblemFrame.constraints() (hard, then soft)
    relaxed_to: str | None = None  # None: drop the constraint; else its new, looser wording


@dataclass(frozen=True, slots=True)
class ConstraintConflict:
    indices: tuple[int, ...]
    constraints: tuple[str, ...]
    message: str


def numbered_constraints(frame: ProblemFrame) -> list[dict[str, object]]:
    return [{"index": i, "text": c.text, "kind": c.kind.value} for i, c in enumerate(frame.constraints())]


def open_conflicts(audited: AuditedFrame | None) -> list[ConstraintConflict]:
    """CP-1's critical findings on the frame as it stands (none without a frame)."""
    if audited is None:
        return []
    constraints = audited.frame.constraints()
    audit = audit_constraints(constraints)
    return [
        ConstraintConflict(f.indices, tuple(constraints[i].text for i in f.indices), f.message)
        for f in audit.of_kind(ConstraintFindingKind.CONFLICT)
    ]


def how_to_resolve(conflict: ConstraintConflict) -> str:
    """The conflict and the way out, in the person's terms."""
    first, second = conflict.indices[0], conflict.indices[-1]
    return (
        f"{conflict.message} To go on, drop or relax one of them: constraint_changes "
        f'[{{"index": {first}}}] drops “{conflict.constraints[0]}”, '
        f'[{{"index": {second}, "relaxed_to": "<looser wording>"}}] rewords “{conflict.constraints[-1]}”.'
    )


def changed_frame(audited: AuditedFrame, changes: Sequence[ConstraintChange]) -> AuditedFrame | str:
    """The frame with the changes made and audited again, or a message naming a bad index."""
    constraints = audited.frame.constraints()
    bad = sorted({c.index for c in changes if not 0 <= c.index < len(constraints)})
    if bad:
        return f"constraint_changes name constraints {bad}; the frame has 0..{len(constraints) - 1}."
    by_index = {c.index: c for c in changes}
    kept = []
    for i, constraint in enumerate(constraints):
        change = by_index.get(i)
        if change is None:
            kept.append(constraint)
        elif change.relaxed_to is not None and change.relaxed_to.strip():
            kept.append(replace(constraint, text=" ".join(change.relaxed_to.split())))
    hard = tuple(c.text for c in kept if c.kind is ConstraintKind.HARD)
    soft = tuple(c.text for c in kept if c.kind is ConstraintKind.SOFT)
    return audit_frame(replace(audited.frame, hard_constraints=hard, soft_constraints=soft))

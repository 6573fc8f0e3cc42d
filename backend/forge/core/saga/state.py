"""What the supervisor (SAGA's slow agent) keeps with a session: its findings, directives and
checkpoint audits, and the fast path's parameters the directives changed.

Invariants:
    - Frozen; every change is a new value (`record`, `apply_directive`), so a step that fails to
      commit leaves the stored supervision as it was.
    - Findings and directives are recorded once by id: recording an id already held is a no-op
      (a resumed run that repeats a checkpoint does not double anything).
    - `weights` always sum to 1 over the five composite dimensions; `quota_changes` stay within
      ±`MAX_QUOTA_CHANGE` per operator.
    - The pipeline is paused while `paused_by` names a finding; RESUME clears it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from forge.core.saga.budget import BudgetLedger
from forge.core.saga.ck import CKState
from forge.core.saga.patterns import PatternSighting
from forge.core.saga.records import (
    CheckpointAudit,
    Directive,
    DirectiveId,
    DirectiveKind,
    FindingId,
    SupervisorFinding,
)
from forge.core.selection.composite_score import COMPOSITE_WEIGHTS

MAX_QUOTA_CHANGE = 3


@dataclass(frozen=True, slots=True)
class SupervisionState:
    findings: tuple[SupervisorFinding, ...] = ()
    directives: tuple[Directive, ...] = ()
    checkpoints: tuple[CheckpointAudit, ...] = ()
    weights: dict[str, float] = field(default_factory=lambda: dict(COMPOSITE_WEIGHTS))
    quota_changes: dict[str, int] = field(default_factory=dict)
    flagged: tuple[str, ...] = ()
    challenges: tuple[DirectiveId, ...] = ()  # INJECT_CHALLENGE directives not yet put to the red team
    paused_by: FindingId | None = None
    adopted: tuple[DirectiveId, ...] = ()  # ADD_CONSTRAINT directives the person made theirs
    budget: BudgetLedger = field(default_factory=BudgetLedger)
    ck: CKState = field(default_factory=CKState)
    patterns: tuple[PatternSighting, ...] = ()  # this session's pattern sightings (Layer 3)
    coverage: tuple[float, ...] = ()  # MOME coverage per SEARCH round (C-K plateau signal)
    challenged: tuple[str, ...] = ()  # red-team targets answered, by content fingerprint: never asked again

    @property
    def paused(self) -> bool:
        return self.paused_by is not None

    def finding(self, finding_id: str) -> SupervisorFinding | None:
        return next((f for f in self.findings if f.id == finding_id), None)

    def directive(self, directive_id: str) -> Directive | None:
        return next((d for d in self.directives if d.id == directive_id), None)

    def has_checkpoint(self, checkpoint: str, round_: int, search_round: int = 1) -> bool:
        """Whether this checkpoint ran in this round (for CP-5: after this SEARCH round of it)."""
        return any(
            c.checkpoint.value == checkpoint and c.round == round_ and c.search_round == search_round
            for c in self.checkpoints
        )

    def active_findings(self) -> list[SupervisorFinding]:
        return [f for f in self.findings if not f.dismissed]


def record_findings(state: SupervisionState, findings: tuple[SupervisorFinding, ...]) -> SupervisionState:
    known = {f.id for f in state.findings}
    new = tuple(f for f in findings if f.id not in known)
    return replace(state, findings=(*state.findings, *new)) if new else state


def record_checkpoint(state: SupervisionState, audit: CheckpointAudit) -> SupervisionState:
    if state.has_checkpoint(audit.checkpoint.value, audit.round, audit.search_round):
        return state
    return replace(state, checkpoints=(*state.checkpoints, audit))


def apply_directive(state: SupervisionState, directive: Directive) -> SupervisionState:
    """The state after the fast path takes `directive` (recorded once; a repeat changes nothing)."""
    if state.directive(directive.id) is not None:
        return state
    s = replace(state, directives=(*state.directives, directive))
    kind = directive.kind
    if kind is DirectiveKind.ADJUST_WEIGHTS:
        return replace(s, weights=normalized(directive.weights))
    if kind is DirectiveKind.ADJUST_SEARCH_PARAMS:
        changes = dict(s.quota_changes)
        for operator, delta in directive.quota_changes.items():
            changes[operator] = max(-MAX_QUOTA_CHANGE, min(MAX_QUOTA_CHANGE, changes.get(operator, 0) + delta))
        return replace(s, quota_changes=changes)
    if kind is DirectiveKind.INJECT_CHALLENGE:
        return replace(s, challenges=(*s.challenges, directive.id))
    if kind is DirectiveKind.PAUSE_PIPELINE:
        return replace(s, paused_by=directive.finding_id)
    if kind is DirectiveKind.RESUME_PIPELINE:
        return replace(s, paused_by=None)
    if kind is DirectiveKind.FLAG_HYPOTHESIS:
        return replace(s, flagged=tuple(dict.fromkeys((*s.flagged, *directive.hypothesis_ids))))
    return s  # ADD_CONSTRAINT: a suggestion until the person adopts it at a review


def normalized(weights: dict[str, float]) -> dict[str, float]:
    kept = {d: max(0.0, weights.get(d, 0.0)) for d in COMPOSITE_WEIGHTS}
    total = sum(kept.values())
    if total <= 0:
        return dict(COMPOSITE_WEIGHTS)
    return {d: round(w / total, 6) for d, w in kept.items()}

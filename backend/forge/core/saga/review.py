"""What a person decides about the supervisor at a review: dismiss a finding, or adopt a
suggested constraint (an ADD_CONSTRAINT directive) as one of their own hard constraints.

Invariants:
    - Works on the state it is given (`apply_review` passes its copy): either every decision
      applies or a `ReviewRejection` says which id is unknown and nothing is changed.
    - Dismissing the finding that paused the pipeline resumes it (a RESUME_PIPELINE directive
      naming that finding is recorded). A dismissed finding stays listed, marked dismissed.
    - An adopted constraint joins the frame's hard constraints and the frame is audited again
      (CP-1's rules: a duplicate of the person's own constraint is merged away).
"""

from __future__ import annotations

from dataclasses import replace

from forge.core.frame.problem_frame import audit_frame
from forge.core.review.inputs import ReviewRejection, SupervisorDecisions, invalid_review
from forge.core.saga.records import Directive, DirectiveId, DirectiveKind
from forge.core.saga.state import SupervisionState, apply_directive
from forge.core.session.forge_state import ForgeState


def check_supervisor_decisions(state: ForgeState, decisions: SupervisorDecisions) -> ReviewRejection | None:
    sup = state.supervision or SupervisionState()
    unknown = [i for i in decisions.dismissed_findings if sup.finding(i) is None]
    if unknown:
        return invalid_review(f"dismissed_findings names unknown findings {unknown}; see GET /supervisor.")
    for directive_id in decisions.adopted_constraints:
        directive = sup.directive(directive_id)
        if directive is None or directive.kind is not DirectiveKind.ADD_CONSTRAINT:
            return invalid_review(
                f"adopted_constraints: {directive_id!r} is not an ADD_CONSTRAINT directive; see GET /supervisor."
            )
    if decisions.adopted_constraints and state.problem_frame is None:
        return invalid_review("adopted_constraints needs the problem frame, which this session does not have yet.")
    return None


def apply_supervisor_decisions(state: ForgeState, decisions: SupervisorDecisions) -> str:
    """Apply checked decisions to `state`; returns a summary ("" when there were none)."""
    if not decisions or state.supervision is None:
        return ""
    sup = state.supervision
    for fid in decisions.dismissed_findings:
        sup = replace(sup, findings=tuple(replace(f, dismissed=True) if f.id == fid else f for f in sup.findings))
        if sup.paused_by == fid:
            kind = DirectiveKind.RESUME_PIPELINE
            resume = Directive(
                DirectiveId(f"{fid}:{kind.value}"), kind, sup.paused_by, "You dismissed the finding: SEARCH resumes."
            )
            sup = apply_directive(sup, resume)
    adopted = [d for i in decisions.adopted_constraints if (d := sup.directive(i)) is not None]
    if adopted and state.problem_frame is not None:
        frame = state.problem_frame.frame
        hard = (*frame.hard_constraints, *(d.constraint for d in adopted))
        state.problem_frame = audit_frame(replace(frame, hard_constraints=hard))
        sup = replace(sup, adopted=tuple(dict.fromkeys((*sup.adopted, *(d.id for d in adopted)))))
    state.supervision = sup
    parts = []
    if decisions.dismissed_findings:
        parts.append(f"dismissed {len(decisions.dismissed_findings)} supervisor finding(s)")
    if adopted:
        parts.append(f"adopted {len(adopted)} suggested constraint(s)")
    return "; ".join(parts)

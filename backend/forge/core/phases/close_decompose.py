"""Closing DECOMPOSE: its work gate, the decompose review, and rule 1 (DECOMPOSE -> EXPLORE).

Invariants:
    - The work gate (the agent's share) and rule 1 share one list of what is missing; rule 1 adds
      the person's part: at least one selected reframing.
    - The review selects reframings (or adds one), confirms or rejects assumptions by index, and
      may add assumptions and reframings as the user's; indices are checked before anything changes.
    - The payload lists what earlier sessions found (`memory`: the remembered hypotheses the session
      was offered, with C as a percentage); the review may accept (pin) or dismiss each by episode
      id — an unknown id, or one both accepted and dismissed, is refused; an id not named keeps its
      decision.
    - A CP-1 conflict between two of the frame's constraints (`constraint_changes.open_conflicts`)
      is shown in the payload with how to resolve it; the review is refused until its
      `constraint_changes` drop or relax enough of them that none is left (seed 000 §7 stage 1:
      an irreconcilable frame stops the session before any idea is measured against it).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from forge.core.domain_types import (
    MIN_ASSUMPTIONS,
    MIN_REFRAMINGS,
    Contributor,
    Phase,
    ReframingId,
    ReviewType,
)
from forge.core.frame.constraint_changes import changed_frame, how_to_resolve, numbered_constraints, open_conflicts
from forge.core.frame.problem_frame import AuditedFrame
from forge.core.frame.reframing_type import infer_reframing_type
from forge.core.hypotheses.remembered import MemoryDecision, RememberedHypothesis
from forge.core.phases.index_review_items import indexed
from forge.core.phases.phase_review import NewId, PhaseReview
from forge.core.review.inputs import DecomposeReview, ReviewRejection, indices_out_of_range, invalid_review
from forge.core.rules.verdicts import ErrorCode, RuleViolation, missing_work
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Assumption, Reframing
from forge.core.session.state_codec import encode_value


def _work_missing(state: ForgeState) -> list[str]:
    missing = []
    if not state.fundamentals:
        missing.append("fundamentals (call decompose_to_fundamentals)")
    if state.state_of_art is None:
        missing.append("state of the art (research, then map_state_of_art)")
    if len(state.assumptions) < MIN_ASSUMPTIONS:
        missing.append(f"at least {MIN_ASSUMPTIONS} assumptions (have {len(state.assumptions)})")
    if len(state.reframings) < MIN_REFRAMINGS:
        missing.append(f"at least {MIN_REFRAMINGS} reframings (have {len(state.reframings)})")
    return missing


def check_decompose_work_complete(state: ForgeState) -> RuleViolation | None:
    return missing_work(ErrorCode.DECOMPOSE_INCOMPLETE, "DECOMPOSE", _work_missing(state))


def check_decompose_complete(state: ForgeState) -> RuleViolation | None:
    """Rule 1: DECOMPOSE -> EXPLORE."""
    missing = _work_missing(state)
    if not state.selected_reframings:
        missing.append("a reframing selected by the user (select at least one)")
    return missing_work(ErrorCode.DECOMPOSE_INCOMPLETE, "DECOMPOSE", missing)


def decompose_review_payload(state: ForgeState) -> dict[str, Any]:
    return {
        "fundamentals": list(state.fundamentals),
        "state_of_art": encode_value(state.state_of_art),
        "assumptions": indexed(state.assumptions),
        "reframings": indexed(state.reframings),
        "problem_frame": encode_value(state.problem_frame),
        "constraints": numbered_constraints(state.problem_frame.frame) if state.problem_frame else [],
        "constraint_conflicts": [
            {
                "indices": list(c.indices),
                "constraints": list(c.constraints),
                "message": c.message,
                "resolve": how_to_resolve(c),
            }
            for c in open_conflicts(state.problem_frame)
        ],
        "memory": [{**encode_value(h), "confidence_percent": round(100 * h.c)} for h in state.remembered_hypotheses],
    }


def _memory_rejection(state: ForgeState, review: DecomposeReview) -> ReviewRejection | None:
    known = {h.episode_id for h in state.remembered_hypotheses}
    unknown = sorted(set(review.accepted_memories + review.dismissed_memories) - known)
    if unknown:
        offered = ", ".join(sorted(known)) or "none were offered"
        return invalid_review(f"accepted_memories/dismissed_memories name unknown ids {unknown}; offered: {offered}.")
    both = sorted(set(review.accepted_memories) & set(review.dismissed_memories))
    if both:
        return invalid_review(f"remembered hypotheses {both} are both accepted and dismissed; choose one for each.")
    return None


def _frame_after(state: ForgeState, review: DecomposeReview) -> AuditedFrame | ReviewRejection | None:
    """The frame once the review's constraint changes are made (None: no frame), or why not: a bad
    index, or a CP-1 conflict still open."""
    if state.problem_frame is None:
        return invalid_review("constraint_changes needs the problem frame.") if review.constraint_changes else None
    after = changed_frame(state.problem_frame, review.constraint_changes)
    if isinstance(after, str):
        return invalid_review(after)
    conflicts = open_conflicts(after)
    if conflicts:
        return invalid_review(
            "The constraints conflict, so no answer can meet them all: "
            + " ".join(how_to_resolve(c) for c in conflicts)
        )
    return after


def check_decompose_review(state: ForgeState, review: DecomposeReview) -> ReviewRejection | None:
    frame = _frame_after(state, review)
    if isinstance(frame, ReviewRejection):
        return frame
    if not review.selected_reframings and not review.added_reframings:
        choices = f"indices 0..{len(state.reframings) - 1}" if state.reframings else "there are none yet"
        return invalid_review(
            f"selected_reframings must select at least one reframing ({choices}), or added_reframings must add one."
        )
    if len(review.added_reframing_types) > len(review.added_reframings):
        return invalid_review("added_reframing_types has more entries than added_reframings; give one per reframing.")
    both = sorted(set(review.confirmed_assumptions) & set(review.rejected_assumptions))
    if both:
        return invalid_review(f"assumptions {both} are both confirmed and rejected; choose one for each.")
    return (
        _memory_rejection(state, review)
        or indices_out_of_range("selected_reframings", review.selected_reframings, len(state.reframings))
        or (
            indices_out_of_range(
                "confirmed_assumptions/rejected_assumptions",
                review.confirmed_assumptions + review.rejected_assumptions,
                len(state.assumptions),
            )
        )
    )


def _decided(h: RememberedHypothesis, r: DecomposeReview) -> RememberedHypothesis:
    if h.episode_id in r.accepted_memories:
        return replace(h, decision=MemoryDecision.ACCEPTED)
    if h.episode_id in r.dismissed_memories:
        return replace(h, decision=MemoryDecision.DISMISSED)
    return h


def apply_decompose_review(s: ForgeState, r: DecomposeReview, new_id: NewId) -> tuple[Phase | None, str]:
    for i, a in enumerate(s.assumptions):
        if i in r.confirmed_assumptions:
            s.assumptions[i] = replace(a, confirmed=True)
        elif i in r.rejected_assumptions:
            s.assumptions[i] = replace(a, confirmed=False)
    s.assumptions.extend(Assumption(t.strip(), Contributor.USER, True) for t in r.added_assumptions if t.strip())
    s.reframings = [replace(f, selected=i in r.selected_reframings) for i, f in enumerate(s.reframings)]
    chosen = dict(enumerate(r.added_reframing_types))
    s.reframings.extend(
        Reframing(ReframingId(new_id()), t.strip(), chosen.get(i) or infer_reframing_type(t), True, Contributor.USER)
        for i, t in enumerate(r.added_reframings)
        if t.strip()
    )
    s.remembered_hypotheses = [_decided(h, r) for h in s.remembered_hypotheses]
    frame = _frame_after(s, r)  # checked: a frame without conflicts, or none
    if isinstance(frame, AuditedFrame) and r.constraint_changes:
        s.problem_frame = frame
    selected, confirmed = len(s.selected_reframings), len(s.confirmed_assumptions)
    changed = f", changed {len(r.constraint_changes)} constraint(s)" if r.constraint_changes else ""
    return Phase.EXPLORE, f"selected {selected} reframing(s), confirmed {confirmed} assumption(s){changed}"


REVIEW: PhaseReview[DecomposeReview] = PhaseReview(
    ReviewType.DECOMPOSE_REVIEW,
    payload=decompose_review_payload,
    check=check_decompose_review,
    apply=apply_decompose_review,
    transition_rule=check_decompose_complete,
)

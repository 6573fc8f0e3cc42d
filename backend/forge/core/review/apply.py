"""Applying a validated review to the state: the person's decisions and the phase transition.

Invariants:
    - Works on a copy (a codec round trip, lossless by `state_codec`'s invariant): either the whole review applies and the transition rule (1, 2, 4 or 11)
      passes, or the caller gets a rejection and the original state is untouched. A caller that
      will not look at the state again (it was read for this review alone) passes `keep=False`:
      the review is then applied to the state itself, which a rejection may leave half-changed.
    - Transitions are user-initiated only: this is the sole place the phase advances between phases.
    - What a review does is its phase's business (`phases/close_<phase>.py`); this module is the
      one sequence every review goes through: check, admission rule, apply to a copy, transition
      rule, enter the next phase.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.domain_types import Phase
from forge.core.phases.phase_review import NewId
from forge.core.phases.review_registry import phase_review
from forge.core.review.check import check_review
from forge.core.review.inputs import REVIEW_TYPE_OF, RejectionKind, ReviewInput, ReviewRejection
from forge.core.rules.verdicts import RuleViolation
from forge.core.saga.review import apply_supervisor_decisions, check_supervisor_decisions
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_json import copy_state


@dataclass(frozen=True, slots=True)
class ReviewApplied:
    state: ForgeState
    next_phase: Phase | None  # None: the session keeps waiting (e.g. after add_insight)
    summary: str


def _rejected(violation: RuleViolation) -> ReviewRejection:
    return ReviewRejection(RejectionKind.INVALID, f"{violation.code.value}: {violation.message}")


def apply_review(
    state: ForgeState, review: ReviewInput, new_id: NewId, *, keep: bool = True
) -> ReviewApplied | ReviewRejection:
    rejection = check_review(state, review)
    if rejection:
        return rejection
    rules = phase_review(REVIEW_TYPE_OF[type(review)])
    violation = rules.admission_rule(state, review) if rules.admission_rule else None
    if violation:
        return _rejected(violation)
    rejection = check_supervisor_decisions(state, review.supervisor)
    if rejection:
        return rejection
    # A deep copy (the codec is lossless and far cheaper than deepcopy), unless the caller gives the state up.
    s = copy_state(state) if keep else state
    supervised = apply_supervisor_decisions(s, review.supervisor)
    next_phase, summary = rules.apply(s, review, new_id)
    summary = f"{summary}; {supervised}" if supervised else summary
    violation = rules.transition_rule(s) if rules.transition_rule else None
    if violation:
        return _rejected(violation)
    if next_phase is not None:
        s.enter_phase(next_phase)
    return ReviewApplied(state=s, next_phase=next_phase, summary=summary)

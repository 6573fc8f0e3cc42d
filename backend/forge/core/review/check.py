"""check_review: is this the review the session waits for, and is it well formed for that phase?

Invariants:
    - A review is checked against the review the session is waiting for *before* anything changes:
      the wrong type is a conflict; a missing selection or an out-of-range index is invalid input.
      Either way the message says what is expected, and the state is untouched.
    - The per-phase validation lives with its phase (`phases/close_<phase>.py`); this module only
      detects conflicts and dispatches through `PHASE_REVIEWS`.
"""

from __future__ import annotations

from forge.core.phases.review_registry import phase_review
from forge.core.review.inputs import REVIEW_TYPE_OF, RejectionKind, ReviewInput, ReviewRejection
from forge.core.session.forge_state import ForgeState


def check_review(state: ForgeState, review: ReviewInput) -> ReviewRejection | None:
    expected = state.awaiting_input_type
    given = REVIEW_TYPE_OF[type(review)]
    if not state.awaiting_user_input or expected is None:
        return ReviewRejection(RejectionKind.CONFLICT, f"The session is not waiting for a review; got '{given.value}'.")
    if given != expected:
        return ReviewRejection(
            RejectionKind.CONFLICT, f"The session is waiting for '{expected.value}', not '{given.value}'."
        )
    return phase_review(expected).check(state, review)

"""The review that closes one phase: how it is shown, checked and applied, as one value.

Invariants:
    - Every function is pure; `apply` mutates the *copy* it is given and returns the next phase
      (None: the session keeps waiting) with a one-line summary. Copying, checking the rules and
      entering the next phase are the dispatcher's job (`apply_review`), the same for every phase.
    - `admission_rule` runs on the untouched state before anything is applied; `transition_rule`
      runs on the applied copy. A violation of either rejects the review and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from uuid import UUID

from forge.core.domain_types import Phase, ReviewType
from forge.core.review.inputs import ReviewRejection
from forge.core.rules.verdicts import RuleViolation
from forge.core.session.forge_state import ForgeState

NewId = Callable[[], UUID]
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class PhaseReview(Generic[R]):
    review_type: ReviewType
    payload: Callable[[ForgeState], dict[str, Any]]
    check: Callable[[ForgeState, R], ReviewRejection | None]
    apply: Callable[[ForgeState, R, NewId], tuple[Phase | None, str]]
    transition_rule: Callable[[ForgeState], RuleViolation | None] | None = None
    admission_rule: Callable[[ForgeState, R], RuleViolation | None] | None = None

    def present(self, state: ForgeState) -> dict[str, Any]:
        """The review event's payload: the review type first, then the phase's own fields."""
        return {"review": self.review_type.value, **self.payload(state)}

"""The five review inputs a person (or an autopilot policy) sends after a phase, and how one is rejected.

Invariants:
    - These are plain values shared by the API, the autopilot and the core; each phase's checks
      and application live with that phase (`forge.core.phases.close_<phase>`), the dispatch in
      `check_review` and `apply_review`.
    - A rejection is a value: CONFLICT (not waiting for this review) or INVALID (malformed for
      what is waiting), with a message that says what is expected.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from forge.core.domain_types import BuildDecision, ReframingType, ReviewType, VerdictType
from forge.core.frame.constraint_changes import ConstraintChange
from forge.core.hypotheses.pool import Hypothesis


@dataclass(frozen=True, slots=True)
class SupervisorDecisions:
    """At any review: supervisor findings the person dismisses, and suggested constraints
    (ADD_CONSTRAINT directive ids) they adopt as their own (see `saga_review`)."""

    dismissed_findings: tuple[str, ...] = ()
    adopted_constraints: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.dismissed_findings or self.adopted_constraints)


@dataclass(frozen=True, slots=True)
class DecomposeReview:
    selected_reframings: tuple[int, ...] = ()
    confirmed_assumptions: tuple[int, ...] = ()
    rejected_assumptions: tuple[int, ...] = ()
    added_assumptions: tuple[str, ...] = ()
    added_reframings: tuple[str, ...] = ()
    supervisor: SupervisorDecisions = SupervisorDecisions()
    accepted_memories: tuple[str, ...] = ()  # episode ids of remembered hypotheses the person pins
    dismissed_memories: tuple[str, ...] = ()  # ... and of those they dismiss
    # The person's type for added_reframings[i]; None (or no entry) -> inferred from the wording.
    added_reframing_types: tuple[ReframingType | None, ...] = ()
    # Constraints of the problem frame the person drops or relaxes (by index, hard then soft): how a
    # CP-1 conflict between two of them is resolved before EXPLORE.
    constraint_changes: tuple[ConstraintChange, ...] = ()


@dataclass(frozen=True, slots=True)
class ExploreReview:
    starred_analogies: tuple[int, ...] = ()
    suggested_domains: tuple[str, ...] = ()
    supervisor: SupervisorDecisions = SupervisorDecisions()
    starred_hypotheses: tuple[str, ...] = ()  # pool hypothesis ids the person stars (GET /hypotheses)
    pool_stars: tuple[Hypothesis, ...] = ()  # those hypotheses, read from the pool by the service


@dataclass(frozen=True, slots=True)
class ClaimFeedback:
    claim_index: int
    feedback: str


@dataclass(frozen=True, slots=True)
class ClaimsReview:
    feedback: tuple[ClaimFeedback, ...] = ()
    supervisor: SupervisorDecisions = SupervisorDecisions()


@dataclass(frozen=True, slots=True)
class ClaimVerdictInput:
    claim_index: int
    verdict: VerdictType
    reason: str | None = None
    qualification: str | None = None
    merge_with_index: int | None = None


@dataclass(frozen=True, slots=True)
class VerdictsReview:
    verdicts: tuple[ClaimVerdictInput, ...] = ()
    supervisor: SupervisorDecisions = SupervisorDecisions()


@dataclass(frozen=True, slots=True)
class BuildDecisionReview:
    decision: BuildDecision
    deep_dive_claim_id: str | None = None
    user_insight: str | None = None
    user_evidence_urls: tuple[str, ...] = ()
    supervisor: SupervisorDecisions = SupervisorDecisions()
    curiosity_id: str | None = None  # a curiosity item of the payload, as the new round's direction


ReviewInput = DecomposeReview | ExploreReview | ClaimsReview | VerdictsReview | BuildDecisionReview

REVIEW_TYPE_OF: dict[type, ReviewType] = {
    DecomposeReview: ReviewType.DECOMPOSE_REVIEW,
    ExploreReview: ReviewType.EXPLORE_REVIEW,
    ClaimsReview: ReviewType.CLAIMS_REVIEW,
    VerdictsReview: ReviewType.VERDICTS,
    BuildDecisionReview: ReviewType.BUILD_DECISION,
}


class RejectionKind(str, Enum):
    CONFLICT = "conflict"  # the session is not waiting for this review (HTTP 409)
    INVALID = "invalid"  # the review is malformed for what is waiting (HTTP 422)


@dataclass(frozen=True, slots=True)
class ReviewRejection:
    kind: RejectionKind
    message: str


def invalid_review(message: str) -> ReviewRejection:
    return ReviewRejection(RejectionKind.INVALID, message)


def indices_out_of_range(field_name: str, indices: tuple[int, ...], count: int) -> ReviewRejection | None:
    bad = [i for i in indices if not 0 <= i < count]
    if not bad:
        return None
    valid = f"0..{count - 1}" if count else "none"
    return invalid_review(f"{field_name} has out-of-range indices {bad}; valid indices are {valid}.")

"""The five review inputs a person (or an autopilot policy) sends after a phase, and their validation.

Invariants:
    - A review is checked against the review the session is waiting for *before* anything changes:
      the wrong type is a conflict; a missing selection or an out-of-range index is invalid input.
      Either way the message says what is expected, and the state is untouched.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from forge.core.domain_types import BuildDecision, ReviewType, VerdictType
from forge.core.forge_state import ForgeState


@dataclass(frozen=True, slots=True)
class DecomposeReview:
    selected_reframings: tuple[int, ...] = ()
    confirmed_assumptions: tuple[int, ...] = ()
    rejected_assumptions: tuple[int, ...] = ()
    added_assumptions: tuple[str, ...] = ()
    added_reframings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ExploreReview:
    starred_analogies: tuple[int, ...] = ()
    suggested_domains: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ClaimFeedback:
    claim_index: int
    feedback: str


@dataclass(frozen=True, slots=True)
class ClaimsReview:
    feedback: tuple[ClaimFeedback, ...] = ()


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


@dataclass(frozen=True, slots=True)
class BuildDecisionReview:
    decision: BuildDecision
    deep_dive_claim_id: str | None = None
    user_insight: str | None = None
    user_evidence_urls: tuple[str, ...] = ()


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


def _invalid(message: str) -> ReviewRejection:
    return ReviewRejection(RejectionKind.INVALID, message)


def _out_of_range(field_name: str, indices: tuple[int, ...], count: int) -> ReviewRejection | None:
    bad = [i for i in indices if not 0 <= i < count]
    if not bad:
        return None
    valid = f"0..{count - 1}" if count else "none"
    return _invalid(f"{field_name} has out-of-range indices {bad}; valid indices are {valid}.")


def _check_decompose(state: ForgeState, review: DecomposeReview) -> ReviewRejection | None:
    if not review.selected_reframings and not review.added_reframings:
        choices = f"indices 0..{len(state.reframings) - 1}" if state.reframings else "there are none yet"
        return _invalid(
            f"selected_reframings must select at least one reframing ({choices}), or added_reframings must add one."
        )
    both = sorted(set(review.confirmed_assumptions) & set(review.rejected_assumptions))
    if both:
        return _invalid(f"assumptions {both} are both confirmed and rejected; choose one for each.")
    return _out_of_range("selected_reframings", review.selected_reframings, len(state.reframings)) or (
        _out_of_range(
            "confirmed_assumptions/rejected_assumptions",
            review.confirmed_assumptions + review.rejected_assumptions,
            len(state.assumptions),
        )
    )


def _check_explore(state: ForgeState, review: ExploreReview) -> ReviewRejection | None:
    if not review.starred_analogies:
        return _invalid(
            f"starred_analogies must star at least one analogy (indices 0..{len(state.cross_domain_analogies) - 1})."
        )
    return _out_of_range("starred_analogies", review.starred_analogies, len(state.cross_domain_analogies))


def _check_claims(state: ForgeState, review: ClaimsReview) -> ReviewRejection | None:
    indices = tuple(f.claim_index for f in review.feedback)
    return _out_of_range("claim_feedback.claim_index", indices, len(state.current_round_claims))


def _check_verdicts(state: ForgeState, review: VerdictsReview) -> ReviewRejection | None:
    count = len(state.current_round_claims)
    indices = tuple(v.claim_index for v in review.verdicts)
    problem = _out_of_range("verdicts.claim_index", indices, count)
    if problem:
        return problem
    missing = sorted(set(range(count)) - set(indices))
    if missing:
        return _invalid(f"verdicts must give exactly one verdict per claim index 0..{count - 1}; missing {missing}.")
    repeated = sorted({i for i in indices if indices.count(i) > 1})
    if repeated:
        return _invalid(f"verdicts must give exactly one verdict per claim; repeated indices {repeated}.")
    for v in review.verdicts:
        if v.verdict == VerdictType.QUALIFY and not (v.qualification or "").strip():
            return _invalid(f"verdict 'qualify' on claim {v.claim_index} needs a qualification text.")
        if v.verdict == VerdictType.MERGE and (v.merge_with_index is None or v.merge_with_index == v.claim_index):
            return _invalid(f"verdict 'merge' on claim {v.claim_index} needs merge_with_index of another claim.")
        if v.merge_with_index is not None and not 0 <= v.merge_with_index < count:
            return _invalid(f"merge_with_index {v.merge_with_index} is out of range 0..{count - 1}.")
    return None


def _check_build(state: ForgeState, review: BuildDecisionReview) -> ReviewRejection | None:
    if review.decision == BuildDecision.ADD_INSIGHT and not (review.user_insight or "").strip():
        return _invalid("decision 'add_insight' needs a non-empty user_insight.")
    if review.decision == BuildDecision.DEEP_DIVE:
        ids = {str(c.id) for c in state.knowledge_graph_nodes}
        if review.deep_dive_claim_id not in ids:
            return _invalid(
                "decision 'deep_dive' needs deep_dive_claim_id of a claim in the knowledge graph; "
                f"known ids: {sorted(ids) or 'none'}."
            )
    return None


def check_review(state: ForgeState, review: ReviewInput) -> ReviewRejection | None:
    expected = state.awaiting_input_type
    given = REVIEW_TYPE_OF[type(review)]
    if not state.awaiting_user_input or expected is None:
        return ReviewRejection(RejectionKind.CONFLICT, f"The session is not waiting for a review; got '{given.value}'.")
    if given != expected:
        return ReviewRejection(
            RejectionKind.CONFLICT, f"The session is waiting for '{expected.value}', not '{given.value}'."
        )
    if isinstance(review, DecomposeReview):
        return _check_decompose(state, review)
    if isinstance(review, ExploreReview):
        return _check_explore(state, review)
    if isinstance(review, ClaimsReview):
        return _check_claims(state, review)
    if isinstance(review, VerdictsReview):
        return _check_verdicts(state, review)
    return _check_build(state, review)

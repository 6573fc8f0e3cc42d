"""The explicit table of the five reviews, one per reviewed phase, keyed by review type.

Invariants:
    - Listed by hand (no discovery); every ReviewType has exactly one entry, whose own
      `review_type` is its key. CRYSTALLIZE has no review, so it has no entry.
    - `check_review`, `apply_review` and `build_review_payload` dispatch through this table only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.core.domain_types import ReviewType
from forge.core.phases import close_build, close_decompose, close_explore, close_synthesize, close_validate
from forge.core.phases.phase_review import PhaseReview

PHASE_REVIEWS: Mapping[ReviewType, PhaseReview[Any]] = {
    ReviewType.DECOMPOSE_REVIEW: close_decompose.REVIEW,
    ReviewType.EXPLORE_REVIEW: close_explore.REVIEW,
    ReviewType.CLAIMS_REVIEW: close_synthesize.REVIEW,
    ReviewType.VERDICTS: close_validate.REVIEW,
    ReviewType.BUILD_DECISION: close_build.REVIEW,
}


def phase_review(review_type: ReviewType) -> PhaseReview[Any]:
    return PHASE_REVIEWS[review_type]

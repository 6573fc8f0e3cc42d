"""The review table: one entry per review type, and the payload shape every review event shares."""

from __future__ import annotations

from forge.core.domain_types import ReviewType
from forge.core.phases.review_registry import PHASE_REVIEWS, phase_review
from forge.core.review.inputs import REVIEW_TYPE_OF
from forge.core.session.forge_state import ForgeState


def test_every_review_type_has_one_entry_under_its_own_key() -> None:
    assert set(PHASE_REVIEWS) == set(ReviewType) == set(REVIEW_TYPE_OF.values())
    for review_type, review in PHASE_REVIEWS.items():
        assert review.review_type == review_type
        assert phase_review(review_type) is review


def test_a_presented_payload_names_its_review_first() -> None:
    state = ForgeState(problem="p")
    for review_type, review in PHASE_REVIEWS.items():
        payload = review.present(state)
        assert next(iter(payload)) == "review" and payload["review"] == review_type.value


def test_the_phases_that_advance_only_when_complete_carry_their_transition_rule() -> None:
    ruled = {t for t, r in PHASE_REVIEWS.items() if r.transition_rule is not None}
    assert ruled == {ReviewType.DECOMPOSE_REVIEW, ReviewType.EXPLORE_REVIEW, ReviewType.CLAIMS_REVIEW}
    admitted = {t for t, r in PHASE_REVIEWS.items() if r.admission_rule is not None}
    assert admitted == {ReviewType.BUILD_DECISION}

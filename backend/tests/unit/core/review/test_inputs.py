"""check_review: conflicts (not waiting, wrong type) and invalid input, per review type."""

from __future__ import annotations

from uuid import UUID

from forge.core.domain_types import (
    AnalogyId,
    BuildDecision,
    ClaimId,
    ClaimType,
    Phase,
    ReframingId,
    ReframingType,
    ReviewType,
    SemanticDistance,
    VerdictType,
)
from forge.core.review.check import check_review
from forge.core.review.inputs import (
    REVIEW_TYPE_OF,
    BuildDecisionReview,
    ClaimFeedback,
    ClaimsReview,
    ClaimVerdictInput,
    DecomposeReview,
    ExploreReview,
    RejectionKind,
    ReviewInput,
    VerdictsReview,
)
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Analogy, Assumption, Claim, Reframing


def claim(n: int) -> Claim:
    return Claim(ClaimId(UUID(int=n)), f"claim {n}", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE)


def waiting(review: ReviewType, **fields: object) -> ForgeState:
    s = ForgeState(
        problem="p",
        assumptions=[Assumption("a1"), Assumption("a2"), Assumption("a3")],
        reframings=[Reframing(ReframingId(UUID(int=20 + i)), f"r{i}", ReframingType.SCOPE_CHANGE) for i in range(3)],
        cross_domain_analogies=[
            Analogy(AnalogyId(UUID(int=30 + i)), f"d{i}", "t", "x", SemanticDistance.FAR) for i in range(2)
        ],
        current_round_claims=[claim(1), claim(2), claim(3)],
        knowledge_graph_nodes=[claim(1)],
    )
    for name, value in fields.items():
        setattr(s, name, value)
    s.await_review(review)
    return s


def all_verdicts(*overrides: ClaimVerdictInput) -> VerdictsReview:
    given = {v.claim_index: v for v in overrides}
    return VerdictsReview(tuple(given.get(i, ClaimVerdictInput(i, VerdictType.ACCEPT)) for i in range(3)))


def assert_invalid(state: ForgeState, review: ReviewInput, *fragments: str) -> None:
    rejection = check_review(state, review)
    assert rejection is not None
    assert rejection.kind == RejectionKind.INVALID
    for fragment in fragments:
        assert fragment in rejection.message


# ---- conflicts -------------------------------------------------------------------------------


def test_every_review_input_maps_to_its_review_type() -> None:
    assert set(REVIEW_TYPE_OF.values()) == set(ReviewType)


def test_review_when_not_waiting_is_a_conflict() -> None:
    rejection = check_review(ForgeState(), DecomposeReview(selected_reframings=(0,)))
    assert rejection is not None
    assert rejection.kind == RejectionKind.CONFLICT
    assert "not waiting" in rejection.message
    assert "decompose_review" in rejection.message


def test_review_of_the_wrong_type_is_a_conflict_naming_both() -> None:
    rejection = check_review(waiting(ReviewType.EXPLORE_REVIEW), DecomposeReview(selected_reframings=(0,)))
    assert rejection is not None
    assert rejection.kind == RejectionKind.CONFLICT
    assert "'explore_review'" in rejection.message
    assert "'decompose_review'" in rejection.message


def test_every_wrong_type_is_a_conflict() -> None:
    reviews: list[ReviewInput] = [
        DecomposeReview(selected_reframings=(0,)),
        ExploreReview(starred_analogies=(0,)),
        ClaimsReview(),
        all_verdicts(),
        BuildDecisionReview(BuildDecision.RESOLVE),
    ]
    for awaited in ReviewType:
        for review in reviews:
            rejection = check_review(waiting(awaited), review)
            if REVIEW_TYPE_OF[type(review)] == awaited:
                assert rejection is None, (awaited, review)
            else:
                assert rejection is not None
                assert rejection.kind == RejectionKind.CONFLICT


def test_awaiting_flag_without_a_type_is_a_conflict() -> None:
    s = ForgeState(awaiting_user_input=True, awaiting_input_type=None)
    rejection = check_review(s, ClaimsReview())
    assert rejection is not None
    assert rejection.kind == RejectionKind.CONFLICT


def test_conflict_takes_precedence_over_invalid_input() -> None:
    rejection = check_review(waiting(ReviewType.VERDICTS), DecomposeReview())
    assert rejection is not None
    assert rejection.kind == RejectionKind.CONFLICT


# ---- decompose_review ------------------------------------------------------------------------


def test_decompose_review_with_a_selection_is_valid() -> None:
    review = DecomposeReview(selected_reframings=(1,), confirmed_assumptions=(0,), rejected_assumptions=(2,))
    assert check_review(waiting(ReviewType.DECOMPOSE_REVIEW), review) is None


def test_decompose_review_adding_a_reframing_needs_no_selection() -> None:
    review = DecomposeReview(added_reframings=("my own framing",))
    assert check_review(waiting(ReviewType.DECOMPOSE_REVIEW), review) is None


def test_rejects_decompose_review_with_no_reframing_selected() -> None:
    assert_invalid(waiting(ReviewType.DECOMPOSE_REVIEW), DecomposeReview(), "selected_reframings", "0..2")


def test_rejects_decompose_review_with_out_of_range_reframing() -> None:
    assert_invalid(
        waiting(ReviewType.DECOMPOSE_REVIEW), DecomposeReview(selected_reframings=(3,)), "[3]", "valid indices are 0..2"
    )


def test_rejects_decompose_review_with_negative_reframing_index() -> None:
    assert_invalid(waiting(ReviewType.DECOMPOSE_REVIEW), DecomposeReview(selected_reframings=(-1,)), "[-1]")


def test_rejects_decompose_review_with_out_of_range_confirmed_assumption() -> None:
    review = DecomposeReview(selected_reframings=(0,), confirmed_assumptions=(5,))
    assert_invalid(waiting(ReviewType.DECOMPOSE_REVIEW), review, "assumptions", "[5]")


def test_rejects_decompose_review_with_out_of_range_rejected_assumption() -> None:
    review = DecomposeReview(selected_reframings=(0,), rejected_assumptions=(3,))
    assert_invalid(waiting(ReviewType.DECOMPOSE_REVIEW), review, "assumptions", "[3]")


# ---- explore_review --------------------------------------------------------------------------


def test_explore_review_with_a_star_is_valid() -> None:
    assert check_review(waiting(ReviewType.EXPLORE_REVIEW), ExploreReview(starred_analogies=(0, 1))) is None


def test_rejects_explore_review_with_no_star() -> None:
    review = ExploreReview(suggested_domains=("biology",))
    assert_invalid(waiting(ReviewType.EXPLORE_REVIEW), review, "starred_analogies", "0..1")


def test_rejects_explore_review_with_out_of_range_star() -> None:
    assert_invalid(waiting(ReviewType.EXPLORE_REVIEW), ExploreReview(starred_analogies=(2,)), "[2]", "0..1")


def test_rejects_explore_review_when_there_are_no_analogies() -> None:
    s = waiting(ReviewType.EXPLORE_REVIEW, cross_domain_analogies=[])
    assert_invalid(s, ExploreReview(starred_analogies=(0,)), "valid indices are none")


# ---- claims_review ---------------------------------------------------------------------------


def test_claims_review_without_feedback_is_valid() -> None:
    assert check_review(waiting(ReviewType.CLAIMS_REVIEW), ClaimsReview()) is None


def test_claims_review_with_feedback_in_range_is_valid() -> None:
    review = ClaimsReview((ClaimFeedback(0, "sharpen"), ClaimFeedback(2, "cite more")))
    assert check_review(waiting(ReviewType.CLAIMS_REVIEW), review) is None


def test_rejects_claims_review_with_out_of_range_feedback() -> None:
    review = ClaimsReview((ClaimFeedback(3, "?"),))
    assert_invalid(waiting(ReviewType.CLAIMS_REVIEW), review, "claim_feedback.claim_index", "[3]")


# ---- verdicts --------------------------------------------------------------------------------


def test_verdicts_for_every_claim_are_valid() -> None:
    review = all_verdicts(
        ClaimVerdictInput(1, VerdictType.REJECT, reason="weak"),
        ClaimVerdictInput(2, VerdictType.QUALIFY, qualification="only at night"),
    )
    assert check_review(waiting(ReviewType.VERDICTS), review) is None


def test_merge_verdict_with_another_claim_is_valid() -> None:
    review = all_verdicts(ClaimVerdictInput(0, VerdictType.MERGE, merge_with_index=1))
    assert check_review(waiting(ReviewType.VERDICTS), review) is None


def test_rejects_verdicts_missing_a_claim_and_names_it() -> None:
    review = VerdictsReview((ClaimVerdictInput(0, VerdictType.ACCEPT), ClaimVerdictInput(2, VerdictType.ACCEPT)))
    assert_invalid(waiting(ReviewType.VERDICTS), review, "exactly one verdict", "missing [1]")


def test_rejects_empty_verdicts() -> None:
    assert_invalid(waiting(ReviewType.VERDICTS), VerdictsReview(), "missing [0, 1, 2]")


def test_rejects_duplicate_verdicts_for_one_claim() -> None:
    review = VerdictsReview(
        (*all_verdicts().verdicts, ClaimVerdictInput(0, VerdictType.REJECT)),
    )
    assert_invalid(waiting(ReviewType.VERDICTS), review, "exactly one verdict")


def test_rejects_verdict_on_out_of_range_claim() -> None:
    review = VerdictsReview((*all_verdicts().verdicts, ClaimVerdictInput(3, VerdictType.ACCEPT)))
    assert_invalid(waiting(ReviewType.VERDICTS), review, "verdicts.claim_index", "[3]")


def test_rejects_qualify_without_text() -> None:
    review = all_verdicts(ClaimVerdictInput(1, VerdictType.QUALIFY))
    assert_invalid(waiting(ReviewType.VERDICTS), review, "qualify", "claim 1", "qualification")


def test_rejects_qualify_with_blank_text() -> None:
    review = all_verdicts(ClaimVerdictInput(1, VerdictType.QUALIFY, qualification="   "))
    assert_invalid(waiting(ReviewType.VERDICTS), review, "qualification")


def test_rejects_merge_without_target() -> None:
    review = all_verdicts(ClaimVerdictInput(0, VerdictType.MERGE))
    assert_invalid(waiting(ReviewType.VERDICTS), review, "merge", "claim 0", "merge_with_index")


def test_rejects_merge_into_itself() -> None:
    review = all_verdicts(ClaimVerdictInput(0, VerdictType.MERGE, merge_with_index=0))
    assert_invalid(waiting(ReviewType.VERDICTS), review, "merge_with_index of another claim")


def test_rejects_merge_into_out_of_range_claim() -> None:
    review = all_verdicts(ClaimVerdictInput(0, VerdictType.MERGE, merge_with_index=7))
    assert_invalid(waiting(ReviewType.VERDICTS), review, "merge_with_index 7", "0..2")


def test_empty_verdicts_on_an_empty_round_are_valid() -> None:
    assert check_review(waiting(ReviewType.VERDICTS, current_round_claims=[]), VerdictsReview()) is None


# ---- build_decision --------------------------------------------------------------------------


def test_continue_and_resolve_are_valid() -> None:
    for decision in (BuildDecision.CONTINUE, BuildDecision.RESOLVE):
        assert check_review(waiting(ReviewType.BUILD_DECISION), BuildDecisionReview(decision)) is None


def test_add_insight_with_text_is_valid() -> None:
    review = BuildDecisionReview(BuildDecision.ADD_INSIGHT, user_insight="Nurses triage better at night")
    assert check_review(waiting(ReviewType.BUILD_DECISION), review) is None


def test_rejects_add_insight_without_text() -> None:
    review = BuildDecisionReview(BuildDecision.ADD_INSIGHT)
    assert_invalid(waiting(ReviewType.BUILD_DECISION), review, "add_insight", "user_insight")


def test_rejects_add_insight_with_blank_text() -> None:
    review = BuildDecisionReview(BuildDecision.ADD_INSIGHT, user_insight="  \n ")
    assert_invalid(waiting(ReviewType.BUILD_DECISION), review, "user_insight")


def test_deep_dive_on_a_graph_claim_is_valid() -> None:
    review = BuildDecisionReview(BuildDecision.DEEP_DIVE, deep_dive_claim_id=str(UUID(int=1)))
    assert check_review(waiting(ReviewType.BUILD_DECISION), review) is None


def test_rejects_deep_dive_on_an_unknown_claim_listing_known_ids() -> None:
    review = BuildDecisionReview(BuildDecision.DEEP_DIVE, deep_dive_claim_id=str(UUID(int=2)))
    assert_invalid(waiting(ReviewType.BUILD_DECISION), review, "deep_dive_claim_id", str(UUID(int=1)))


def test_rejects_deep_dive_without_a_claim_id() -> None:
    review = BuildDecisionReview(BuildDecision.DEEP_DIVE)
    assert_invalid(waiting(ReviewType.BUILD_DECISION), review, "deep_dive_claim_id")


def test_rejects_deep_dive_on_an_empty_graph() -> None:
    s = waiting(ReviewType.BUILD_DECISION, knowledge_graph_nodes=[])
    review = BuildDecisionReview(BuildDecision.DEEP_DIVE, deep_dive_claim_id=str(UUID(int=1)))
    assert_invalid(s, review, "known ids: none")


def test_check_review_does_not_change_the_state() -> None:
    s = waiting(ReviewType.VERDICTS)
    before = repr(s)
    check_review(s, VerdictsReview())
    check_review(s, all_verdicts())
    assert repr(s) == before

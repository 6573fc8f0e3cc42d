"""apply_review: all-or-nothing application of a review and the user-initiated phase transition."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from itertools import count
from uuid import UUID

from forge.core.curation.graph_gaps import CuriosityItem
from forge.core.domain_types import (
    AnalogyId,
    BuildDecision,
    ClaimConfidence,
    ClaimId,
    ClaimStatus,
    ClaimType,
    ContradictionId,
    Contributor,
    EvidenceId,
    EvidenceType,
    Phase,
    ReframingId,
    ReframingType,
    ReviewType,
    SemanticDistance,
    VerdictType,
)
from forge.core.phases.close_build import build_decision_payload
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.inputs import (
    BuildDecisionReview,
    ClaimFeedback,
    ClaimsReview,
    ClaimVerdictInput,
    DecomposeReview,
    ExploreReview,
    RejectionKind,
    ReviewInput,
    ReviewRejection,
    VerdictsReview,
)
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import (
    Analogy,
    Assumption,
    Claim,
    ClaimScores,
    Contradiction,
    Evidence,
    MorphologicalParameter,
    NegativeKnowledge,
    Reframing,
    ResearchHit,
    ResearchRecord,
    StateOfArt,
)

_NOW = datetime(2025, 1, 1, tzinfo=UTC)


def ids() -> Callable[[], UUID]:
    counter: Iterator[int] = count(1000)
    return lambda: UUID(int=next(counter))


def evidence(n: int) -> Evidence:
    return Evidence(
        EvidenceId(UUID(int=500 + n)),
        f"https://e{n}.example",
        "t",
        "s",
        EvidenceType.SUPPORTING,
        Contributor.AGENT,
        "q",
    )


def claim(n: int, mean: float | None = None, n_evidence: int = 1, **kw: object) -> Claim:
    return Claim(
        id=ClaimId(UUID(int=n)),
        text=f"claim {n}",
        claim_type=ClaimType.SYNTHESIS,
        round_created=0,
        phase_created=Phase.SYNTHESIZE,
        scores=ClaimScores(mean, mean, mean, mean) if mean is not None else None,
        evidence=tuple(evidence(i) for i in range(n_evidence)),
        synthesized=True,
        **kw,  # type: ignore[arg-type]
    )


def waiting(phase: Phase, review: ReviewType, **fields: object) -> ForgeState:
    """A state whose agent work for every phase is done, paused for `review` after `phase`."""
    s = ForgeState(
        problem="How can hospitals reduce ER queues?",
        current_phase=phase,
        fundamentals=["arrival rate"],
        state_of_art=StateOfArt("fast tracks", ()),
        assumptions=[Assumption("a0"), Assumption("a1"), Assumption("a2")],
        reframings=[Reframing(ReframingId(UUID(int=20 + i)), f"r{i}", ReframingType.SCOPE_CHANGE) for i in range(3)],
        morphological_box=[MorphologicalParameter("triage", ("nurse", "algorithm"))],
        cross_domain_search_count=2,
        contradictions=[Contradiction(ContradictionId(UUID(int=40)), "speed", "safety", "d", "r")],
        cross_domain_analogies=[
            Analogy(AnalogyId(UUID(int=30 + i)), f"d{i}", "t", "x", SemanticDistance.FAR) for i in range(3)
        ],
        current_round_claims=[claim(1, 0.8, 2), claim(2, 0.6), claim(3, 0.2)],
        theses_stated=3,
        antitheses_searched={0, 1, 2},
        falsification_attempted={0, 1, 2},
        novelty_checked={0, 1, 2},
        knowledge_graph_nodes=[claim(9, status=ClaimStatus.VALIDATED)],
        negative_knowledge=[NegativeKnowledge(ClaimId(UUID(int=8)), "old", "bad", 0)],
        gaps=["gap"],
        web_searches_this_phase=[ResearchRecord("q", (ResearchHit("https://x", "t", "s"),), phase, 0, _NOW, "f")],
    )
    for name, value in fields.items():
        setattr(s, name, value)
    s.await_review(review)
    return s


def applied(state: ForgeState, review: ReviewInput) -> ReviewApplied:
    result = apply_review(state, review, ids())
    assert isinstance(result, ReviewApplied), result
    return result


def rejected(state: ForgeState, review: ReviewInput) -> ReviewRejection:
    before = copy.deepcopy(state)
    result = apply_review(state, review, ids())
    assert isinstance(result, ReviewRejection), result
    assert state == before, "a rejected review must leave the state untouched"
    return result


def all_accept(count_: int = 3) -> VerdictsReview:
    return VerdictsReview(tuple(ClaimVerdictInput(i, VerdictType.ACCEPT) for i in range(count_)))


# ---- rejections leave the state untouched ----------------------------------------------------


def test_review_when_not_waiting_is_a_conflict_and_changes_nothing() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    s.awaiting_user_input = False
    assert rejected(s, DecomposeReview(selected_reframings=(0,))).kind == RejectionKind.CONFLICT


def test_review_of_the_wrong_type_is_a_conflict_and_changes_nothing() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    assert rejected(s, ExploreReview(starred_analogies=(0,))).kind == RejectionKind.CONFLICT


def test_invalid_review_is_rejected_and_changes_nothing() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    assert rejected(s, DecomposeReview(selected_reframings=(9,))).kind == RejectionKind.INVALID


def test_decompose_review_is_rejected_when_the_agent_work_is_incomplete() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW, fundamentals=[])
    rejection = rejected(s, DecomposeReview(selected_reframings=(0,), confirmed_assumptions=(0, 1)))
    assert rejection.kind == RejectionKind.INVALID
    assert rejection.message.startswith("DECOMPOSE_INCOMPLETE")
    assert "fundamentals" in rejection.message
    assert s.selected_reframings == []
    assert s.confirmed_assumptions == []


def test_explore_review_is_rejected_when_the_agent_work_is_incomplete() -> None:
    s = waiting(Phase.EXPLORE, ReviewType.EXPLORE_REVIEW, cross_domain_search_count=1)
    rejection = rejected(s, ExploreReview(starred_analogies=(0,)))
    assert rejection.kind == RejectionKind.INVALID
    assert rejection.message.startswith("EXPLORE_INCOMPLETE")
    assert s.starred_analogies == []


def test_claims_review_is_rejected_when_a_claim_lacks_antithesis() -> None:
    s = waiting(Phase.SYNTHESIZE, ReviewType.CLAIMS_REVIEW, antitheses_searched={0, 2})
    rejection = rejected(s, ClaimsReview((ClaimFeedback(0, "nice"),)))
    assert rejection.kind == RejectionKind.INVALID
    assert rejection.message.startswith("SYNTHESIS_INCOMPLETE")
    assert s.current_round_claims[0].user_feedback is None


def test_continue_at_max_rounds_is_rejected_with_max_rounds_exceeded() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, current_round=4)
    rejection = rejected(s, BuildDecisionReview(BuildDecision.CONTINUE))
    assert rejection.kind == RejectionKind.INVALID
    assert rejection.message.startswith("MAX_ROUNDS_EXCEEDED")
    assert s.current_round == 4
    assert len(s.current_round_claims) == 3


def test_deep_dive_at_max_rounds_is_rejected_with_max_rounds_exceeded() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, current_round=4)
    review = BuildDecisionReview(BuildDecision.DEEP_DIVE, deep_dive_claim_id=str(UUID(int=9)))
    assert rejected(s, review).message.startswith("MAX_ROUNDS_EXCEEDED")


# ---- decompose -> explore --------------------------------------------------------------------


def test_decompose_review_advances_to_explore() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    result = applied(s, DecomposeReview(selected_reframings=(1,)))
    assert result.next_phase == Phase.EXPLORE
    assert result.state.current_phase == Phase.EXPLORE
    assert result.state.awaiting_user_input is False
    assert result.state.awaiting_input_type is None
    assert result.state.web_searches_this_phase == []


def test_decompose_review_selects_exactly_the_chosen_reframings() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    result = applied(s, DecomposeReview(selected_reframings=(0, 2)))
    assert [r.selected for r in result.state.reframings] == [True, False, True]


def test_decompose_review_confirms_and_rejects_assumptions() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    result = applied(
        s, DecomposeReview(selected_reframings=(0,), confirmed_assumptions=(0, 2), rejected_assumptions=(1,))
    )
    assert [a.confirmed for a in result.state.assumptions] == [True, False, True]
    assert "confirmed 2 assumption(s)" in result.summary


def test_decompose_review_adds_user_assumptions_as_confirmed() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    result = applied(s, DecomposeReview(selected_reframings=(0,), added_assumptions=("  mine  ", "   ")))
    added = result.state.assumptions[3:]
    assert added == [Assumption("mine", Contributor.USER, True)]


def test_decompose_review_adds_user_reframings_as_selected() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    result = applied(s, DecomposeReview(added_reframings=(" my framing ", "")))
    added = result.state.reframings[3:]
    assert len(added) == 1
    assert added[0].text == "my framing"
    assert added[0].selected is True
    assert added[0].contributed_by == Contributor.USER
    assert added[0].id == ReframingId(UUID(int=1000))
    assert result.next_phase == Phase.EXPLORE


def test_a_user_reframing_is_typed_from_its_wording() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    wording = ("Who decides when a patient leaves?", "Treat the ER as a traffic-engineering problem.")
    result = applied(s, DecomposeReview(added_reframings=wording))
    types = [r.reframing_type for r in result.state.reframings[3:]]
    assert types == [ReframingType.ENTITY_QUESTION, ReframingType.DOMAIN_CHANGE]


def test_a_type_the_person_chose_wins_over_the_inferred_one() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    wording = ("Who decides when a patient leaves?", "Treat the ER as a traffic-engineering problem.")
    chosen = (ReframingType.VARIABLE_CHANGE, None)
    result = applied(s, DecomposeReview(added_reframings=wording, added_reframing_types=chosen))
    types = [r.reframing_type for r in result.state.reframings[3:]]
    assert types == [ReframingType.VARIABLE_CHANGE, ReframingType.DOMAIN_CHANGE]


def test_more_reframing_types_than_added_reframings_are_refused() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    review = DecomposeReview(
        added_reframings=("mine",), added_reframing_types=(ReframingType.SCOPE_CHANGE, ReframingType.DOMAIN_CHANGE)
    )
    assert "added_reframing_types" in rejected(s, review).message


def test_a_user_reframing_can_complete_the_minimum_of_three() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    s.reframings = s.reframings[:2]
    result = applied(s, DecomposeReview(selected_reframings=(0,), added_reframings=("third",)))
    assert len(result.state.reframings) == 3


def test_decompose_review_does_not_mutate_the_input_state_on_success() -> None:
    s = waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW)
    before = copy.deepcopy(s)
    result = applied(s, DecomposeReview(selected_reframings=(0,)))
    assert s == before
    assert result.state is not s


def test_a_review_given_the_state_applies_to_it_what_it_applies_to_a_copy() -> None:
    s, owned = (
        waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW),
        waiting(Phase.DECOMPOSE, ReviewType.DECOMPOSE_REVIEW),
    )
    review = DecomposeReview(selected_reframings=(0, 2), confirmed_assumptions=(1,))
    copied = applied(s, review)
    given = apply_review(owned, review, ids(), keep=False)
    assert isinstance(given, ReviewApplied)
    assert given.state is owned  # no copy made
    assert given.state == copied.state
    assert (given.next_phase, given.summary) == (copied.next_phase, copied.summary)


# ---- explore -> synthesize -------------------------------------------------------------------


def test_explore_review_stars_analogies_and_advances_to_synthesize() -> None:
    s = waiting(Phase.EXPLORE, ReviewType.EXPLORE_REVIEW)
    result = applied(s, ExploreReview(starred_analogies=(0, 2), suggested_domains=("biology", " ")))
    assert result.next_phase == Phase.SYNTHESIZE
    assert result.state.current_phase == Phase.SYNTHESIZE
    assert [a.starred for a in result.state.cross_domain_analogies] == [True, False, True]
    assert result.state.suggested_domains == ["biology"]
    assert "starred 2" in result.summary


# ---- claims -> validate ----------------------------------------------------------------------


def test_claims_review_records_feedback_and_advances_to_validate() -> None:
    s = waiting(Phase.SYNTHESIZE, ReviewType.CLAIMS_REVIEW)
    result = applied(s, ClaimsReview((ClaimFeedback(1, "needs data"),)))
    assert result.next_phase == Phase.VALIDATE
    assert result.state.current_phase == Phase.VALIDATE
    assert [c.user_feedback for c in result.state.current_round_claims] == [None, "needs data", None]


def test_claims_review_without_feedback_advances_to_validate() -> None:
    result = applied(waiting(Phase.SYNTHESIZE, ReviewType.CLAIMS_REVIEW), ClaimsReview())
    assert result.next_phase == Phase.VALIDATE


# ---- verdicts -> build -----------------------------------------------------------------------


def test_verdicts_advance_to_build() -> None:
    result = applied(waiting(Phase.VALIDATE, ReviewType.VERDICTS), all_accept())
    assert result.next_phase == Phase.BUILD
    assert result.state.current_phase == Phase.BUILD
    assert "3 accept" in result.summary


def test_accept_validates_with_confidence_from_scores_and_evidence() -> None:
    s = waiting(Phase.VALIDATE, ReviewType.VERDICTS)
    claims = applied(s, all_accept()).state.current_round_claims
    assert [c.status for c in claims] == [ClaimStatus.VALIDATED] * 3
    assert claims[0].confidence == ClaimConfidence.GROUNDED  # mean 0.8, two pieces of evidence
    assert claims[1].confidence == ClaimConfidence.EMERGING  # mean 0.6
    assert claims[2].confidence == ClaimConfidence.SPECULATIVE  # mean 0.2


def test_high_score_with_a_single_source_is_only_emerging() -> None:
    s = waiting(Phase.VALIDATE, ReviewType.VERDICTS, current_round_claims=[claim(1, 0.9, 1)])
    assert applied(s, all_accept(1)).state.current_round_claims[0].confidence == ClaimConfidence.EMERGING


def test_unscored_accepted_claim_is_speculative() -> None:
    s = waiting(Phase.VALIDATE, ReviewType.VERDICTS, current_round_claims=[claim(1, None, 3)])
    assert applied(s, all_accept(1)).state.current_round_claims[0].confidence == ClaimConfidence.SPECULATIVE


def test_reject_records_negative_knowledge_with_reason_and_round() -> None:
    s = waiting(Phase.VALIDATE, ReviewType.VERDICTS, current_round=2)
    review = VerdictsReview(
        (
            ClaimVerdictInput(0, VerdictType.ACCEPT),
            ClaimVerdictInput(1, VerdictType.REJECT, reason="contradicted by trial"),
            ClaimVerdictInput(2, VerdictType.REJECT),
        )
    )
    state = applied(s, review).state
    assert state.current_round_claims[1].status == ClaimStatus.REJECTED
    assert state.current_round_claims[1].rejection_reason == "contradicted by trial"
    assert state.negative_knowledge[0] == s.negative_knowledge[0]
    assert state.negative_knowledge[1:] == [
        NegativeKnowledge(ClaimId(UUID(int=2)), "claim 2", "contradicted by trial", 2),
        NegativeKnowledge(ClaimId(UUID(int=3)), "claim 3", "rejected by the user", 2),
    ]


def test_accept_adds_no_negative_knowledge() -> None:
    s = waiting(Phase.VALIDATE, ReviewType.VERDICTS)
    assert applied(s, all_accept()).state.negative_knowledge == s.negative_knowledge


def test_qualify_stores_the_qualification() -> None:
    s = waiting(Phase.VALIDATE, ReviewType.VERDICTS)
    review = VerdictsReview(
        (
            ClaimVerdictInput(0, VerdictType.QUALIFY, qualification="only in small hospitals"),
            ClaimVerdictInput(1, VerdictType.ACCEPT),
            ClaimVerdictInput(2, VerdictType.ACCEPT),
        )
    )
    qualified = applied(s, review).state.current_round_claims[0]
    assert qualified.status == ClaimStatus.QUALIFIED
    assert qualified.qualification == "only in small hospitals"
    assert qualified.confidence == ClaimConfidence.GROUNDED


def test_merge_supersedes_the_claim_and_names_its_target() -> None:
    s = waiting(Phase.VALIDATE, ReviewType.VERDICTS)
    review = VerdictsReview(
        (
            ClaimVerdictInput(0, VerdictType.ACCEPT),
            ClaimVerdictInput(1, VerdictType.ACCEPT),
            ClaimVerdictInput(2, VerdictType.MERGE, merge_with_index=0),
        )
    )
    result = applied(s, review)
    merged = result.state.current_round_claims[2]
    assert merged.status == ClaimStatus.SUPERSEDED
    assert merged.rejection_reason == "merged into: claim 1"
    assert "1 merge" in result.summary


def test_invalid_verdicts_change_nothing() -> None:
    s = waiting(Phase.VALIDATE, ReviewType.VERDICTS)
    review = VerdictsReview(
        (
            ClaimVerdictInput(0, VerdictType.REJECT),
            ClaimVerdictInput(1, VerdictType.QUALIFY),
            ClaimVerdictInput(2, VerdictType.ACCEPT),
        )
    )
    assert rejected(s, review).kind == RejectionKind.INVALID


# ---- build decisions -------------------------------------------------------------------------


def test_continue_resets_the_round_and_returns_to_synthesize() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, current_round=1, negative_knowledge_consulted=True)
    result = applied(s, BuildDecisionReview(BuildDecision.CONTINUE))
    state = result.state
    assert result.next_phase == Phase.SYNTHESIZE
    assert state.current_phase == Phase.SYNTHESIZE
    assert state.current_round == 2
    assert state.current_round_claims == []
    assert state.past_round_claims == s.current_round_claims
    assert state.antitheses_searched == set()
    assert state.falsification_attempted == set()
    assert state.novelty_checked == set()
    assert state.theses_stated == 0
    assert state.negative_knowledge_consulted is False
    assert state.knowledge_graph_nodes == s.knowledge_graph_nodes
    assert state.negative_knowledge == s.negative_knowledge
    assert state.gaps == s.gaps
    assert state.deep_dive_active is False
    assert state.deep_dive_target_claim_id is None
    assert state.awaiting_user_input is False
    assert "round 3" in result.summary


def test_continue_in_the_fourth_round_is_still_allowed() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, current_round=3)
    assert applied(s, BuildDecisionReview(BuildDecision.CONTINUE)).state.current_round == 4


def test_deep_dive_starts_a_new_round_focused_on_the_claim() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION)
    result = applied(s, BuildDecisionReview(BuildDecision.DEEP_DIVE, deep_dive_claim_id=str(UUID(int=9))))
    assert result.next_phase == Phase.SYNTHESIZE
    assert result.state.current_round == 1
    assert result.state.deep_dive_active is True
    assert result.state.deep_dive_target_claim_id == ClaimId(UUID(int=9))


def test_continue_after_a_deep_dive_clears_the_focus() -> None:
    s = waiting(
        Phase.BUILD, ReviewType.BUILD_DECISION, deep_dive_active=True, deep_dive_target_claim_id=ClaimId(UUID(int=9))
    )
    state = applied(s, BuildDecisionReview(BuildDecision.CONTINUE)).state
    assert state.deep_dive_active is False
    assert state.deep_dive_target_claim_id is None


def test_resolve_moves_to_crystallize_without_a_new_round() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, current_round=1)
    result = applied(s, BuildDecisionReview(BuildDecision.RESOLVE))
    assert result.next_phase == Phase.CRYSTALLIZE
    assert result.state.current_phase == Phase.CRYSTALLIZE
    assert result.state.current_round == 1
    assert result.state.current_round_claims == s.current_round_claims
    assert result.state.awaiting_user_input is False


def test_resolve_is_allowed_at_max_rounds() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, current_round=4)
    assert applied(s, BuildDecisionReview(BuildDecision.RESOLVE)).next_phase == Phase.CRYSTALLIZE


def test_add_insight_keeps_waiting_and_adds_a_user_claim_to_the_graph() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, current_round=1)
    review = BuildDecisionReview(BuildDecision.ADD_INSIGHT, user_insight="  Night shifts triage faster  ")
    result = applied(s, review)
    state = result.state
    assert result.next_phase is None
    assert state.current_phase == Phase.BUILD
    assert state.awaiting_user_input is True
    assert state.awaiting_input_type == ReviewType.BUILD_DECISION
    assert state.current_round == 1
    assert state.knowledge_graph_nodes[:-1] == s.knowledge_graph_nodes
    added = state.knowledge_graph_nodes[-1]
    assert added.text == "Night shifts triage faster"
    assert added.claim_type == ClaimType.USER_CONTRIBUTED
    assert added.status == ClaimStatus.VALIDATED
    assert added.round_created == 1
    assert added.phase_created == Phase.BUILD
    assert added.evidence == ()
    assert added.confidence == ClaimConfidence.SPECULATIVE
    assert state.user_insights == ["Night shifts triage faster"]
    assert state.current_round_claims == s.current_round_claims


def test_add_insight_with_urls_carries_user_evidence() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION)
    review = BuildDecisionReview(
        BuildDecision.ADD_INSIGHT,
        user_insight="insight",
        user_evidence_urls=("https://u1.example", "https://u2.example"),
    )
    added = applied(s, review).state.knowledge_graph_nodes[-1]
    assert added.confidence == ClaimConfidence.EMERGING
    assert [e.source for e in added.evidence] == ["https://u1.example", "https://u2.example"]
    assert all(e.contributed_by == Contributor.USER for e in added.evidence)
    assert all(e.claim_id == added.id for e in added.evidence)
    assert len({e.id for e in added.evidence} | {added.id}) == 3


def test_add_insight_is_allowed_at_max_rounds() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, current_round=4)
    review = BuildDecisionReview(BuildDecision.ADD_INSIGHT, user_insight="x")
    assert applied(s, review).next_phase is None


def test_add_insight_then_continue_is_accepted() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION)
    after_insight = applied(s, BuildDecisionReview(BuildDecision.ADD_INSIGHT, user_insight="x")).state
    result = applied(after_insight, BuildDecisionReview(BuildDecision.CONTINUE))
    assert result.next_phase == Phase.SYNTHESIZE
    assert result.state.knowledge_graph_nodes[-1].text == "x"


def test_a_second_review_after_a_transition_is_a_conflict() -> None:
    s = waiting(Phase.EXPLORE, ReviewType.EXPLORE_REVIEW)
    state = applied(s, ExploreReview(starred_analogies=(0,))).state
    assert rejected(state, ExploreReview(starred_analogies=(0,))).kind == RejectionKind.CONFLICT


# ---- curiosity items (thin regions the path navigator found) ----------------------------------

THIN = CuriosityItem("kg:x", "session_graph", "x", "triage by acuity", "What else bears on “triage”?", 0.4, 1)


def test_the_build_review_payload_offers_the_rounds_curiosity_items() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, curiosity_items=[THIN])
    payload = build_decision_payload(s)
    assert payload["curiosity"] == [
        {
            "id": "kg:x",
            "source": "session_graph",
            "node_id": "x",
            "node_text": "triage by acuity",
            "question": "What else bears on “triage”?",
            "relevance": 0.4,
            "neighbours": 1,
        }
    ]


def test_a_picked_curiosity_item_becomes_the_next_rounds_direction_and_the_old_items_go() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, curiosity_items=[THIN])
    state = applied(s, BuildDecisionReview(BuildDecision.CONTINUE, curiosity_id="kg:x")).state
    assert state.chosen_direction == THIN
    assert state.curiosity_items == []


def test_a_round_without_a_pick_has_no_direction() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, curiosity_items=[THIN], chosen_direction=THIN)
    assert applied(s, BuildDecisionReview(BuildDecision.CONTINUE)).state.chosen_direction is None


def test_an_unknown_curiosity_id_is_refused_and_changes_nothing() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, curiosity_items=[THIN])
    assert "kg:x" in rejected(s, BuildDecisionReview(BuildDecision.CONTINUE, curiosity_id="kg:nope")).message


def test_a_curiosity_pick_with_resolve_is_refused() -> None:
    s = waiting(Phase.BUILD, ReviewType.BUILD_DECISION, curiosity_items=[THIN])
    assert "new round" in rejected(s, BuildDecisionReview(BuildDecision.RESOLVE, curiosity_id="kg:x")).message

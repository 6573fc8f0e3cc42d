"""Phase gates and research gates: rules 1, 2, 4, 10, 11, 12, 13, 14 and 15."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from uuid import UUID

from forge.core.domain_types import (
    AnalogyId,
    ClaimId,
    ClaimStatus,
    ClaimType,
    ContradictionId,
    Phase,
    ReframingId,
    ReframingType,
    SemanticDistance,
)
from forge.core.phases.close_build import check_build_work_complete
from forge.core.phases.close_crystallize import check_crystallize_work_complete
from forge.core.phases.close_decompose import check_decompose_complete, check_decompose_work_complete
from forge.core.phases.close_explore import check_explore_complete, check_explore_work_complete
from forge.core.phases.close_synthesize import check_synthesis_complete
from forge.core.phases.close_validate import check_validate_work_complete
from forge.core.rules.phase_gates import (
    check_can_start_new_round,
    check_negative_knowledge_consulted,
    check_research_before_antithesis,
    check_research_before_cross_domain,
    check_research_before_falsification,
    check_research_before_state_of_art,
)
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import (
    Analogy,
    Assumption,
    Claim,
    ClaimScores,
    Contradiction,
    MorphologicalParameter,
    Reframing,
    ResearchHit,
    ResearchRecord,
    StateOfArt,
)

_NOW = datetime(2025, 1, 1, tzinfo=UTC)
PROBLEM = "How can hospitals reduce emergency room waiting queues without adding staff?"


def claim(n: int, text: str = "", **kw: object) -> Claim:
    return Claim(
        id=ClaimId(UUID(int=n)),
        text=text or f"claim {n}",
        claim_type=ClaimType.SYNTHESIS,
        round_created=0,
        phase_created=Phase.SYNTHESIZE,
        **kw,  # type: ignore[arg-type]
    )


def research(query: str, phase: Phase = Phase.DECOMPOSE, snippet: str = "s") -> ResearchRecord:
    return ResearchRecord(query, (ResearchHit("https://r.example", "R", snippet),), phase, 0, _NOW, "fake")


ON_TRIAGE = "Dynamic triage trials in emergency departments showed mixed effects on waiting."


def reframing(n: int, *, selected: bool = False) -> Reframing:
    return Reframing(ReframingId(UUID(int=n)), f"reframing {n}", ReframingType.SCOPE_CHANGE, selected)


def analogy(n: int, *, starred: bool = False) -> Analogy:
    return Analogy(AnalogyId(UUID(int=n)), f"domain {n}", "target", "desc", SemanticDistance.FAR, starred=starred)


def decomposed(**overrides: object) -> ForgeState:
    """A state whose DECOMPOSE work and review are complete."""
    s = ForgeState(
        problem=PROBLEM,
        fundamentals=["arrival rate", "service rate"],
        state_of_art=StateOfArt("triage and fast tracks", ()),
        assumptions=[Assumption("a1"), Assumption("a2"), Assumption("a3")],
        reframings=[reframing(1, selected=True), reframing(2), reframing(3)],
    )
    for name, value in overrides.items():
        setattr(s, name, value)
    return s


def explored(**overrides: object) -> ForgeState:
    """A state whose EXPLORE work and review are complete."""
    s = ForgeState(
        problem=PROBLEM,
        current_phase=Phase.EXPLORE,
        morphological_box=[MorphologicalParameter("triage", ("nurse", "algorithm"))],
        cross_domain_search_count=2,
        contradictions=[Contradiction(ContradictionId(UUID(int=1)), "speed", "safety", "d", "r")],
        cross_domain_analogies=[analogy(1, starred=True), analogy(2)],
    )
    for name, value in overrides.items():
        setattr(s, name, value)
    return s


# ---- rule 1: DECOMPOSE -> EXPLORE ------------------------------------------------------------


def test_decompose_passes_when_work_and_selection_complete() -> None:
    assert check_decompose_complete(decomposed()) is None


def test_decompose_fails_on_an_empty_state_naming_every_missing_part() -> None:
    violation = check_decompose_complete(ForgeState())
    assert violation is not None
    assert violation.code == ErrorCode.DECOMPOSE_INCOMPLETE
    assert violation.rule_number == 1
    for part in ("fundamentals", "state of the art", "assumptions", "reframings", "selected by the user"):
        assert part in violation.message


def test_decompose_fails_without_fundamentals() -> None:
    violation = check_decompose_complete(decomposed(fundamentals=[]))
    assert violation is not None
    assert violation.code == ErrorCode.DECOMPOSE_INCOMPLETE
    assert "fundamentals" in violation.message
    assert "assumptions" not in violation.message


def test_decompose_fails_without_state_of_art() -> None:
    violation = check_decompose_complete(decomposed(state_of_art=None))
    assert violation is not None
    assert violation.code == ErrorCode.DECOMPOSE_INCOMPLETE
    assert "state of the art" in violation.message


def test_decompose_fails_with_two_assumptions_and_says_how_many() -> None:
    violation = check_decompose_complete(decomposed(assumptions=[Assumption("a1"), Assumption("a2")]))
    assert violation is not None
    assert violation.code == ErrorCode.DECOMPOSE_INCOMPLETE
    assert "at least 3 assumptions (have 2)" in violation.message


def test_decompose_fails_with_two_reframings() -> None:
    violation = check_decompose_complete(decomposed(reframings=[reframing(1, selected=True), reframing(2)]))
    assert violation is not None
    assert violation.code == ErrorCode.DECOMPOSE_INCOMPLETE
    assert "at least 3 reframings (have 2)" in violation.message


def test_decompose_fails_when_the_user_selected_no_reframing() -> None:
    violation = check_decompose_complete(decomposed(reframings=[reframing(1), reframing(2), reframing(3)]))
    assert violation is not None
    assert violation.code == ErrorCode.DECOMPOSE_INCOMPLETE
    assert "reframing selected by the user" in violation.message


def test_decompose_work_complete_does_not_need_a_selection() -> None:
    s = decomposed(reframings=[reframing(1), reframing(2), reframing(3)])
    assert check_decompose_work_complete(s) is None
    assert check_decompose_complete(s) is not None


def test_decompose_work_incomplete_names_missing_work() -> None:
    violation = check_decompose_work_complete(decomposed(fundamentals=[]))
    assert violation is not None
    assert violation.code == ErrorCode.DECOMPOSE_INCOMPLETE
    assert "fundamentals" in violation.message


# ---- rule 2: EXPLORE -> SYNTHESIZE -----------------------------------------------------------


def test_explore_passes_when_work_and_star_complete() -> None:
    assert check_explore_complete(explored()) is None


def test_explore_fails_on_an_empty_state_naming_every_missing_part() -> None:
    violation = check_explore_complete(ForgeState())
    assert violation is not None
    assert violation.code == ErrorCode.EXPLORE_INCOMPLETE
    assert violation.rule_number == 2
    for part in ("morphological box", "cross-domain searches", "contradiction", "starred by the user"):
        assert part in violation.message


def test_explore_fails_without_morphological_box() -> None:
    violation = check_explore_complete(explored(morphological_box=[]))
    assert violation is not None
    assert violation.code == ErrorCode.EXPLORE_INCOMPLETE
    assert "morphological box" in violation.message


def test_explore_fails_with_one_cross_domain_search() -> None:
    violation = check_explore_complete(explored(cross_domain_search_count=1))
    assert violation is not None
    assert violation.code == ErrorCode.EXPLORE_INCOMPLETE
    assert "at least 2 cross-domain searches (have 1)" in violation.message


def test_explore_fails_without_contradiction() -> None:
    violation = check_explore_complete(explored(contradictions=[]))
    assert violation is not None
    assert violation.code == ErrorCode.EXPLORE_INCOMPLETE
    assert "contradiction" in violation.message


def test_explore_fails_when_no_analogy_starred() -> None:
    violation = check_explore_complete(explored(cross_domain_analogies=[analogy(1), analogy(2)]))
    assert violation is not None
    assert violation.code == ErrorCode.EXPLORE_INCOMPLETE
    assert "analogy starred by the user" in violation.message


def test_explore_work_complete_does_not_need_a_star() -> None:
    s = explored(cross_domain_analogies=[analogy(1)])
    assert check_explore_work_complete(s) is None
    assert check_explore_complete(s) is not None


def test_explore_work_incomplete_names_missing_work() -> None:
    violation = check_explore_work_complete(explored(cross_domain_search_count=0))
    assert violation is not None
    assert violation.code == ErrorCode.EXPLORE_INCOMPLETE
    assert "(have 0)" in violation.message


# ---- rule 4: all antitheses (and syntheses) before VALIDATE --------------------------------


def test_synthesis_complete_passes_when_every_claim_has_antithesis_and_synthesis() -> None:
    s = ForgeState(
        current_round_claims=[claim(1, synthesized=True), claim(2, synthesized=True)], antitheses_searched={0, 1}
    )
    assert check_synthesis_complete(s) is None


def test_synthesis_incomplete_on_an_empty_round() -> None:
    violation = check_synthesis_complete(ForgeState())
    assert violation is not None
    assert violation.code == ErrorCode.SYNTHESIS_INCOMPLETE
    assert violation.rule_number == 4
    assert "thesis" in violation.message


def test_rejects_validate_when_a_claim_lacks_antithesis_naming_its_index() -> None:
    s = ForgeState(current_round_claims=[claim(1, synthesized=True), claim(2), claim(3)], antitheses_searched={0, 2})
    violation = check_synthesis_complete(s)
    assert violation is not None
    assert violation.code == ErrorCode.SYNTHESIS_INCOMPLETE
    assert "without antithesis (by index): 1." in violation.message
    assert "find_antithesis" in violation.message


def test_rejects_validate_when_a_claim_lacks_synthesis_naming_its_index() -> None:
    s = ForgeState(current_round_claims=[claim(1, synthesized=True), claim(2)], antitheses_searched={0, 1})
    violation = check_synthesis_complete(s)
    assert violation is not None
    assert violation.code == ErrorCode.SYNTHESIS_INCOMPLETE
    assert "without synthesis (by index): 1." in violation.message


# ---- VALIDATE / BUILD work -------------------------------------------------------------------


def test_validate_work_complete_when_every_claim_scored() -> None:
    s = ForgeState(current_round_claims=[claim(1, scores=ClaimScores(0.5, 0.5, 0.5, 0.5))])
    assert check_validate_work_complete(s) is None


def test_validate_work_incomplete_names_unscored_claims() -> None:
    s = ForgeState(current_round_claims=[claim(1, scores=ClaimScores(0.5, 0.5, 0.5, 0.5)), claim(2)])
    violation = check_validate_work_complete(s)
    assert violation is not None
    assert violation.code == ErrorCode.PHASE_WORK_INCOMPLETE
    assert "(by index): 1." in violation.message


def test_build_work_complete_when_accepted_claims_are_in_the_graph() -> None:
    accepted = claim(1, status=ClaimStatus.VALIDATED)
    rejected = claim(2, status=ClaimStatus.REJECTED)
    s = ForgeState(current_round_claims=[accepted, rejected], knowledge_graph_nodes=[accepted])
    assert check_build_work_complete(s) is None


def test_build_work_incomplete_names_accepted_claims_missing_from_graph() -> None:
    s = ForgeState(
        current_round_claims=[claim(1, status=ClaimStatus.VALIDATED), claim(2, status=ClaimStatus.QUALIFIED)],
        knowledge_graph_nodes=[claim(1, status=ClaimStatus.VALIDATED)],
    )
    violation = check_build_work_complete(s)
    assert violation is not None
    assert violation.code == ErrorCode.PHASE_WORK_INCOMPLETE
    assert "(by index): 1." in violation.message


# ---- rule 10: negative knowledge in rounds 2+ ------------------------------------------------


def test_negative_knowledge_not_required_in_the_first_round() -> None:
    assert check_negative_knowledge_consulted(ForgeState(current_round=0)) is None


def test_rejects_round_two_synthesis_without_negative_knowledge() -> None:
    violation = check_negative_knowledge_consulted(ForgeState(current_round=1))
    assert violation is not None
    assert violation.code == ErrorCode.NEGATIVE_KNOWLEDGE_MISSING
    assert violation.rule_number == 10
    assert "get_negative_knowledge" in violation.message


def test_negative_knowledge_passes_in_round_two_once_consulted() -> None:
    assert check_negative_knowledge_consulted(ForgeState(current_round=1, negative_knowledge_consulted=True)) is None


def test_negative_knowledge_must_be_consulted_again_after_reset() -> None:
    s = ForgeState(current_round=1, negative_knowledge_consulted=True)
    s.reset_for_new_round()
    violation = check_negative_knowledge_consulted(s)
    assert violation is not None
    assert violation.code == ErrorCode.NEGATIVE_KNOWLEDGE_MISSING


# ---- rule 11: max rounds ---------------------------------------------------------------------


def test_new_round_allowed_before_the_last_round() -> None:
    assert check_can_start_new_round(ForgeState(current_round=0)) is None
    assert check_can_start_new_round(ForgeState(current_round=3)) is None


def test_rejects_new_round_after_the_fifth_round() -> None:
    violation = check_can_start_new_round(ForgeState(current_round=4))
    assert violation is not None
    assert violation.code == ErrorCode.MAX_ROUNDS_EXCEEDED
    assert violation.rule_number == 11
    assert "Round 5" in violation.message
    assert "resolve" in violation.message


# ---- rule 12: research before map_state_of_art -----------------------------------------------


def test_state_of_art_passes_after_research_about_the_problem() -> None:
    s = ForgeState(problem=PROBLEM)
    s.record_research(research("emergency room queue reduction studies"))
    assert check_research_before_state_of_art(s) is None


def test_rejects_state_of_art_without_any_research() -> None:
    violation = check_research_before_state_of_art(ForgeState(problem=PROBLEM))
    assert violation is not None
    assert violation.code == ErrorCode.STATE_OF_ART_NOT_RESEARCHED
    assert violation.rule_number == 12
    assert "map_state_of_art" in violation.message


def test_state_of_art_not_unlocked_by_research_about_something_unrelated() -> None:
    s = ForgeState(problem=PROBLEM)
    s.record_research(research("best chocolate cake recipe"))
    violation = check_research_before_state_of_art(s)
    assert violation is not None
    assert violation.code == ErrorCode.STATE_OF_ART_NOT_RESEARCHED


def test_state_of_art_not_unlocked_by_stopword_only_overlap() -> None:
    s = ForgeState(problem=PROBLEM)
    s.record_research(research("how can we without the"))
    assert check_research_before_state_of_art(s) is not None


def test_state_of_art_research_in_a_previous_phase_does_not_count() -> None:
    s = ForgeState(problem=PROBLEM)
    s.record_research(research("emergency room queue reduction"))
    s.enter_phase(Phase.EXPLORE)
    violation = check_research_before_state_of_art(s)
    assert violation is not None
    assert violation.code == ErrorCode.STATE_OF_ART_NOT_RESEARCHED


# ---- rule 13: research before search_cross_domain --------------------------------------------


def test_cross_domain_passes_after_research_naming_the_domain() -> None:
    s = ForgeState(problem=PROBLEM, current_phase=Phase.EXPLORE)
    s.record_research(research("airline boarding queue management", Phase.EXPLORE))
    assert check_research_before_cross_domain(s, "airline boarding") is None


def test_rejects_cross_domain_without_research_and_names_the_domain() -> None:
    violation = check_research_before_cross_domain(ForgeState(current_phase=Phase.EXPLORE), "ant colonies")
    assert violation is not None
    assert violation.code == ErrorCode.CROSS_DOMAIN_NOT_SEARCHED
    assert violation.rule_number == 13
    assert "ant colonies" in violation.message


def test_cross_domain_not_unlocked_by_research_about_another_domain() -> None:
    s = ForgeState(current_phase=Phase.EXPLORE)
    s.record_research(research("airline boarding procedures", Phase.EXPLORE))
    violation = check_research_before_cross_domain(s, "ant colony foraging")
    assert violation is not None
    assert violation.code == ErrorCode.CROSS_DOMAIN_NOT_SEARCHED


def test_cross_domain_research_in_a_previous_phase_does_not_count() -> None:
    s = ForgeState()
    s.record_research(research("ant colony foraging"))
    s.enter_phase(Phase.EXPLORE)
    violation = check_research_before_cross_domain(s, "ant colony foraging")
    assert violation is not None
    assert violation.code == ErrorCode.CROSS_DOMAIN_NOT_SEARCHED


def test_cross_domain_research_matches_plural_forms() -> None:
    s = ForgeState(current_phase=Phase.EXPLORE)
    s.record_research(research("ant colony", Phase.EXPLORE))
    assert check_research_before_cross_domain(s, "colonies of ants") is None


# ---- rule 14: research before find_antithesis ------------------------------------------------

THESIS = "Dynamic triage reduces waiting times in emergency departments"


def test_antithesis_passes_after_counter_evidence_research_on_the_thesis() -> None:
    s = ForgeState(current_phase=Phase.SYNTHESIZE)
    s.record_research(research("dynamic triage criticism evidence", Phase.SYNTHESIZE, ON_TRIAGE))
    assert check_research_before_antithesis(s, THESIS) is None


def test_antithesis_refused_in_the_turn_its_research_ran_and_allowed_in_the_next() -> None:
    s = ForgeState(current_phase=Phase.SYNTHESIZE, model_turn=4)
    ran = research("dynamic triage criticism evidence", Phase.SYNTHESIZE, ON_TRIAGE)
    s.record_research(replace(ran, turn=4))
    violation = check_research_before_antithesis(s, THESIS)
    assert violation is not None and violation.code == ErrorCode.ANTITHESIS_NOT_SEARCHED
    assert violation.message == (
        "The research it needs (“dynamic triage criticism evidence”) ran in this same turn, so you have not read "
        "its results yet. Wait for them, then call find_antithesis in your next turn, citing what they found."
    )
    s.model_turn = 5
    assert check_research_before_antithesis(s, THESIS) is None


def test_state_of_art_refused_in_the_turn_its_research_ran() -> None:
    s = ForgeState(problem=PROBLEM, model_turn=1)
    s.record_research(replace(research("emergency room waiting queues"), turn=1))
    violation = check_research_before_state_of_art(s)
    assert violation is not None and "call map_state_of_art in your next turn" in violation.message


def test_antithesis_not_unlocked_by_a_search_whose_results_share_one_word_with_the_thesis() -> None:
    s = ForgeState(current_phase=Phase.SYNTHESIZE)
    s.record_research(research("dynamic triage criticism", Phase.SYNTHESIZE, "Waiting lists for elective surgery."))
    violation = check_research_before_antithesis(s, THESIS)
    assert violation is not None
    assert violation.code == ErrorCode.ANTITHESIS_NOT_SEARCHED
    assert "returned no result about it" in violation.message and "triage" in violation.message


def test_rejects_antithesis_without_research() -> None:
    violation = check_research_before_antithesis(ForgeState(current_phase=Phase.SYNTHESIZE), THESIS)
    assert violation is not None
    assert violation.code == ErrorCode.ANTITHESIS_NOT_SEARCHED
    assert violation.rule_number == 14
    assert "counter-evidence" in violation.message
    assert "find_antithesis" in violation.message


def test_antithesis_not_unlocked_by_unrelated_research() -> None:
    s = ForgeState(current_phase=Phase.SYNTHESIZE)
    s.record_research(research("volcano eruption forecasting", Phase.SYNTHESIZE))
    violation = check_research_before_antithesis(s, THESIS)
    assert violation is not None
    assert violation.code == ErrorCode.ANTITHESIS_NOT_SEARCHED


def test_antithesis_research_in_a_previous_phase_does_not_count() -> None:
    s = ForgeState(current_phase=Phase.EXPLORE)
    s.record_research(research("dynamic triage criticism", Phase.EXPLORE))
    s.enter_phase(Phase.SYNTHESIZE)
    violation = check_research_before_antithesis(s, THESIS)
    assert violation is not None
    assert violation.code == ErrorCode.ANTITHESIS_NOT_SEARCHED


def test_antithesis_research_of_a_previous_round_does_not_count_after_reset() -> None:
    s = ForgeState(current_phase=Phase.SYNTHESIZE)
    s.record_research(research("dynamic triage criticism", Phase.SYNTHESIZE))
    s.reset_for_new_round()
    assert check_research_before_antithesis(s, THESIS) is not None


# ---- rule 15: research before attempt_falsification ------------------------------------------


def test_falsification_passes_after_research_aimed_at_the_claim() -> None:
    s = ForgeState(current_phase=Phase.VALIDATE)
    s.record_research(research("triage waiting times failed trial", Phase.VALIDATE, ON_TRIAGE))
    assert check_research_before_falsification(s, THESIS) is None


def test_falsification_needs_a_result_about_the_claim_not_just_a_query_naming_it() -> None:
    s = ForgeState(current_phase=Phase.VALIDATE)
    s.record_research(
        research("triage waiting times failed trial", Phase.VALIDATE, "Castle moats of the 12th century.")
    )
    assert check_research_before_falsification(s, THESIS) is not None
    s.record_research(research("dynamic triage evidence against", Phase.VALIDATE, ON_TRIAGE))
    assert check_research_before_falsification(s, THESIS) is None


def test_falsification_opens_after_three_different_searches_on_the_claim_found_nothing_relevant() -> None:
    s = ForgeState(current_phase=Phase.VALIDATE)
    for query in ("triage waiting failed trial", "triage waiting failed trial", "dynamic triage limits"):
        s.record_research(research(query, Phase.VALIDATE, "Castle moats."))
    assert check_research_before_falsification(s, THESIS) is not None  # two distinct queries so far
    s.record_research(research("emergency departments triage counter-evidence", Phase.VALIDATE, "Castle moats."))
    assert check_research_before_falsification(s, THESIS) is None


def test_rejects_falsification_without_research() -> None:
    violation = check_research_before_falsification(ForgeState(current_phase=Phase.VALIDATE), THESIS)
    assert violation is not None
    assert violation.code == ErrorCode.FALSIFICATION_NOT_SEARCHED
    assert violation.rule_number == 15
    assert "attempt_falsification" in violation.message


def test_falsification_not_unlocked_by_unrelated_research() -> None:
    s = ForgeState(current_phase=Phase.VALIDATE)
    s.record_research(research("medieval castle architecture", Phase.VALIDATE))
    violation = check_research_before_falsification(s, THESIS)
    assert violation is not None
    assert violation.code == ErrorCode.FALSIFICATION_NOT_SEARCHED


def test_falsification_research_in_a_previous_phase_does_not_count() -> None:
    s = ForgeState(current_phase=Phase.SYNTHESIZE)
    s.record_research(research("dynamic triage waiting times", Phase.SYNTHESIZE))
    s.enter_phase(Phase.VALIDATE)
    violation = check_research_before_falsification(s, THESIS)
    assert violation is not None
    assert violation.code == ErrorCode.FALSIFICATION_NOT_SEARCHED


def test_any_matching_record_among_several_unlocks() -> None:
    s = ForgeState(current_phase=Phase.VALIDATE)
    s.record_research(research("medieval castle architecture", Phase.VALIDATE))
    s.record_research(research("triage outcomes", Phase.VALIDATE, ON_TRIAGE))
    assert check_research_before_falsification(s, THESIS) is None


def test_crystallize_is_incomplete_until_the_document_exists() -> None:
    state = ForgeState(problem="p")
    violation = check_crystallize_work_complete(state)
    assert violation is not None and violation.code == ErrorCode.PHASE_WORK_INCOMPLETE
    assert "generate_knowledge_document" in violation.message
    state.knowledge_document_markdown = "# Knowledge Document"
    assert check_crystallize_work_complete(state) is None


ZH_PROBLEM = "如何在不增加人手的情况下缩短急诊等待时间？"
JA_PROBLEM = "人手を増やさずに救急外来の待ち時間を短縮するには？"


def _in_phase(problem: str, phase: Phase, *queries: str, snippet: str | None = None) -> ForgeState:
    """Research with each query, whose result restates the query (or says `snippet`)."""
    s = ForgeState(problem=problem, current_phase=phase)
    for query in queries:
        s.record_research(research(query, phase, snippet or query))
    return s


def test_a_chinese_problem_passes_every_research_gate_after_research_in_chinese() -> None:
    thesis = "把急诊分诊改为按到达率动态排班可以缩短等待时间"
    assert check_research_before_state_of_art(_in_phase(ZH_PROBLEM, Phase.DECOMPOSE, "急诊 等待时间 研究")) is None
    assert (
        check_research_before_cross_domain(_in_phase(ZH_PROBLEM, Phase.EXPLORE, "蚁群 觅食 路径"), "蚁群算法") is None
    )
    assert check_research_before_antithesis(_in_phase(ZH_PROBLEM, Phase.SYNTHESIZE, "动态排班 失败"), thesis) is None
    found = "急诊分诊按到达率动态排班的试验未能缩短等待时间"
    assert (
        check_research_before_falsification(_in_phase(ZH_PROBLEM, Phase.VALIDATE, "分诊 反例", snippet=found), thesis)
        is None
    )


def test_a_japanese_problem_passes_every_research_gate_after_research_in_japanese() -> None:
    thesis = "到着率に合わせたトリアージの動的配置で待ち時間を短縮できる"
    assert check_research_before_state_of_art(_in_phase(JA_PROBLEM, Phase.DECOMPOSE, "救急外来 待ち時間")) is None
    assert (
        check_research_before_cross_domain(_in_phase(JA_PROBLEM, Phase.EXPLORE, "アリコロニー 採餌"), "アリコロニー")
        is None
    )
    assert (
        check_research_before_antithesis(_in_phase(JA_PROBLEM, Phase.SYNTHESIZE, "トリアージ 失敗例"), thesis) is None
    )
    found = "動的配置のトリアージでも待ち時間は短縮しなかった"
    s = _in_phase(JA_PROBLEM, Phase.VALIDATE, "動的配置 反証", snippet=found)
    assert check_research_before_falsification(s, thesis) is None


def test_a_chinese_gate_stays_closed_for_research_on_another_subject() -> None:
    assert check_research_before_state_of_art(_in_phase(ZH_PROBLEM, Phase.DECOMPOSE, "蜜蜂 觅食")) is not None


def test_a_research_gate_error_names_the_terms_to_match_and_the_queries_that_missed() -> None:
    s = _in_phase(PROBLEM, Phase.EXPLORE, "best chocolate cake recipe")
    violation = check_research_before_cross_domain(s, "Ant-colony optimisation")
    assert violation is not None
    assert "ant-colony, optimisation" in violation.message and "best chocolate cake recipe" in violation.message
    assert (
        check_research_before_cross_domain(
            _in_phase(PROBLEM, Phase.EXPLORE, "ant colony foraging"), "Ant-colony optimisation"
        )
        is None
    )

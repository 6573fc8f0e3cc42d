"""With a real model present, the claim gates (rules 14 and 15) open on the verifier's judgment of this
phase's read results, not on shared words: a Chinese claim opens on an English result the model judged
about it, and a result sharing the claim's words stays shut when the model judged it beside the point."""

from __future__ import annotations

from datetime import UTC, datetime

from forge.core.domain_types import Phase
from forge.core.research.hit_relevance import judged_results, results_to_judge
from forge.core.rules.phase_gates import check_research_before_antithesis, check_research_before_falsification
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit, ResearchRecord

NOW = datetime(2026, 12, 2, tzinfo=UTC)
ZH_CLAIM = "按到达率动态调整分诊排班可以缩短急诊等待时间"
EN_CLAIM = "Dynamic triage staffing by arrival rate shortens emergency department waiting times"
TRIAGE = ResearchHit("corpus/patient-flow", "Patient flow", "Matching triage staff to arrival rates cuts ED waits.")
BRIDGE = ResearchHit("corpus/reynolds", "Reynolds number", "Emergency department waiting times and triage staffing.")


def state_with(*hits: ResearchHit, phase: Phase = Phase.SYNTHESIZE) -> ForgeState:
    state = ForgeState(problem="急诊等待时间", current_phase=phase)
    state.record_research(ResearchRecord("emergency triage arrival rate", hits, phase, 0, NOW, "local_corpus"))
    return state


def test_a_chinese_thesis_opens_on_an_english_result_the_model_judged_about_it() -> None:
    state = state_with(TRIAGE)
    judged = judged_results("anthropic:claude-sonnet-4-6", results_to_judge(state), [(1, True, "同一机制")])
    assert check_research_before_antithesis(state, ZH_CLAIM) is not None  # words alone cannot see it
    assert check_research_before_antithesis(state, ZH_CLAIM, judged) is None


def test_a_result_sharing_the_claims_words_does_not_open_when_the_model_judged_it_beside_the_point() -> None:
    state = state_with(BRIDGE, phase=Phase.VALIDATE)
    assert check_research_before_falsification(state, EN_CLAIM) is None  # the word rule is fooled
    judged = judged_results("anthropic:claude-sonnet-4-6", results_to_judge(state), [(1, False, "fluids")])
    violation = check_research_before_falsification(state, EN_CLAIM, judged)
    assert violation is not None and violation.code == ErrorCode.FALSIFICATION_NOT_SEARCHED
    assert "anthropic:claude-sonnet-4-6 read the 1 result(s)" in violation.message
    assert "“Reynolds number”: fluids" in violation.message


def test_a_result_without_a_verdict_or_with_an_unknown_number_counts_as_not_about_the_claim() -> None:
    state = state_with(TRIAGE, BRIDGE)
    judged = judged_results("m", results_to_judge(state), [(7, True, "invented"), (0, True, "zero")])
    assert [r.about_subject for r in judged.results] == [False, False]
    assert check_research_before_antithesis(state, EN_CLAIM, judged) is not None


def test_results_to_judge_are_the_read_results_of_this_phase_each_source_once_newest_first() -> None:
    state = state_with(TRIAGE)
    state.record_research(ResearchRecord("q2", (BRIDGE, TRIAGE), Phase.SYNTHESIZE, 0, NOW, "local_corpus"))
    unread = ResearchRecord("q3", (TRIAGE,), Phase.SYNTHESIZE, 0, NOW, "local_corpus", turn=2)
    state.record_research(unread)  # ran in the model's current turn: not read yet
    state.model_turn = 2
    assert [h.source for h in results_to_judge(state)] == [BRIDGE.source, TRIAGE.source]
    assert results_to_judge(state, limit=1) == (BRIDGE,)


def test_three_searches_naming_the_claim_still_open_the_gate_when_the_model_judged_none_about_it() -> None:
    state = state_with(BRIDGE)
    for query in ("triage arrival staffing", "emergency triage staffing waits"):
        state.record_research(ResearchRecord(query, (BRIDGE,), Phase.SYNTHESIZE, 0, NOW, "local_corpus"))
    judged = judged_results("m", results_to_judge(state), [(1, False, "fluids")])
    assert check_research_before_antithesis(state, EN_CLAIM, judged) is None

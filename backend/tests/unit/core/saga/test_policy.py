import pytest

from forge.core.saga.ck import CKState, Space
from forge.core.saga.policy import directives_for, expandable, resume_if_clear, search_quotas, take
from forge.core.saga.records import (
    Checkpoint,
    DirectiveKind,
    Finding,
    FindingId,
    FindingKind,
    SupervisorFinding,
)
from forge.core.saga.state import SupervisionState, apply_directive
from forge.core.search.plan import SearchOperator


def recorded(kind, ids=("h1",), dimensions=(), suggested="", dismissed=False, n=0):
    finding = Finding(kind, 0.5, 0.8, tuple(ids), "m", dimensions=dimensions, suggested_constraint=suggested)
    return SupervisorFinding(FindingId(f"CP-4-r0-{kind.value}-{n}"), Checkpoint.CP4, 0, finding, dismissed)


BASE = {SearchOperator.OPPOSE: 2, SearchOperator.EXTREME: 1, SearchOperator.COMBINE: 1}


def test_compression_widens_search_quotas():
    state = SupervisionState()
    directives = directives_for([recorded(FindingKind.SCORE_COMPRESSION)], state, 5)
    assert [d.kind for d in directives] == [DirectiveKind.ADJUST_SEARCH_PARAMS]
    after = take(state, directives)
    assert search_quotas(BASE, after) == {
        SearchOperator.OPPOSE: 3,
        SearchOperator.EXTREME: 2,
        SearchOperator.COMBINE: 1,
    }
    assert directives[0].finding_id == "CP-4-r0-score_compression-0"


def test_collinearity_halves_the_redundant_weight_and_keeps_the_sum_at_one():
    state = SupervisionState()
    [directive] = directives_for(
        [recorded(FindingKind.DIMENSION_COLLINEARITY, dimensions=("rationale~testability",))], state, 5
    )
    after = apply_directive(state, directive)
    assert sum(after.weights.values()) == pytest.approx(1.0)
    assert after.weights["testability"] < state.weights["testability"] / 1.5
    assert after.weights["rationale"] > state.weights["rationale"]


def test_shallow_rewrite_flags_and_search_skips_the_flagged():
    state = take(
        SupervisionState(), directives_for([recorded(FindingKind.SHALLOW_REWRITE, ids=("c1",))], SupervisionState(), 3)
    )
    assert state.flagged == ("c1",)
    assert expandable(["c1", "c2"], state) == ["c2"]


def test_an_anti_pattern_suggests_a_constraint_the_person_may_adopt():
    [d] = directives_for(
        [recorded(FindingKind.ANTI_PATTERN, suggested="No headcount as the lever.")], SupervisionState(), 3
    )
    assert d.kind is DirectiveKind.ADD_CONSTRAINT and d.constraint == "No headcount as the lever."
    assert apply_directive(SupervisionState(), d).adopted == ()


def test_a_batch_that_wholly_breaks_hard_constraints_pauses_then_a_clean_batch_resumes():
    violation = recorded(FindingKind.HARD_CONSTRAINT_VIOLATION, ids=("a", "b"))
    state = take(SupervisionState(), directives_for([violation], SupervisionState(), 2))
    assert state.paused and expandable(["a", "c"], state) == []
    assert resume_if_clear(state, [violation], 3) == []
    resumed = take(state, resume_if_clear(state, [], 3))
    assert not resumed.paused
    assert resumed.directives[-1].kind is DirectiveKind.RESUME_PIPELINE


def test_a_partial_violation_flags_without_pausing():
    directives = directives_for([recorded(FindingKind.HARD_CONSTRAINT_VIOLATION, ids=("a",))], SupervisionState(), 4)
    assert [d.kind for d in directives] == [DirectiveKind.FLAG_HYPOTHESIS]


def test_dismissed_findings_cause_nothing_and_repeats_are_recorded_once():
    assert directives_for([recorded(FindingKind.SCORE_COMPRESSION, dismissed=True)], SupervisionState(), 5) == []
    d = directives_for([recorded(FindingKind.SCORE_COMPRESSION)], SupervisionState(), 5)
    twice = take(take(SupervisionState(), d), d)
    assert len(twice.directives) == 1 and twice.quota_changes == {"oppose": 1, "extreme": 1}


def test_knowledge_space_deepens_search_and_quotas_never_go_negative():
    state = SupervisionState(ck=CKState(space=Space.KNOWLEDGE))
    assert search_quotas(BASE, state) == {
        SearchOperator.OPPOSE: 1,
        SearchOperator.EXTREME: 0,
        SearchOperator.COMBINE: 1,
    }


def test_bias_injects_a_challenge_for_the_red_team():
    [d] = directives_for([recorded(FindingKind.SOURCE_DOMAIN_BIAS, ids=("e1", "e2"))], SupervisionState(), 6)
    state = apply_directive(SupervisionState(), d)
    assert state.challenges == (d.id,) and d.hypothesis_ids == ("e1", "e2")

from forge.core.saga.ck import (
    MAX_K_EXPANSIONS,
    CKState,
    CKTrigger,
    Space,
    coverage_plateau,
    run_triggers,
    step,
)


def test_an_evidence_gap_moves_concepts_to_knowledge():
    decision = step(CKState(), CKTrigger.EVIDENCE_GAP, now=0.0)
    assert decision.transition is not None
    assert decision.state.space is Space.KNOWLEDGE
    assert decision.state.k_expansions == 1


def test_new_evidence_moves_knowledge_back_to_concepts_after_the_minimum_duration():
    in_k = step(CKState(), CKTrigger.NON_OPERATIONALIZABLE, now=0.0).state
    held = step(in_k, CKTrigger.NEW_EVIDENCE, now=4.0)
    assert held.transition is None and held.state.space is Space.KNOWLEDGE
    assert "held" in held.reason
    moved = step(in_k, CKTrigger.NEW_EVIDENCE, now=10.0)
    assert moved.state.space is Space.CONCEPT
    assert [t.trigger for t in moved.state.transitions] == [CKTrigger.NON_OPERATIONALIZABLE, CKTrigger.NEW_EVIDENCE]


def test_a_trigger_toward_the_current_space_changes_nothing():
    decision = step(CKState(), CKTrigger.NEW_MECHANISM, now=0.0)
    assert decision.transition is None and decision.state == CKState()


def test_knowledge_expansions_are_capped_per_session():
    state = CKState()
    for i in range(MAX_K_EXPANSIONS):
        state = step(state, CKTrigger.EVIDENCE_GAP, now=100.0 * i).state
        state = step(state, CKTrigger.STRUCTURE_FOUND, now=100.0 * i + 50).state
    capped = step(state, CKTrigger.COVERAGE_PLATEAU, now=10_000.0)
    assert capped.transition is None and "already" in capped.reason
    assert capped.state.k_expansions == MAX_K_EXPANSIONS


def test_the_first_move_holds_the_rest_of_the_same_instant():
    state, decisions = run_triggers(CKState(), [CKTrigger.EVIDENCE_GAP, CKTrigger.NEW_EVIDENCE], now=0.0)
    assert state.space is Space.KNOWLEDGE
    assert decisions[1].transition is None


def test_coverage_plateau_is_one_search_round_that_filled_no_new_region():
    assert coverage_plateau(0.30, 0.31)  # gained 0.01 < 0.02
    assert coverage_plateau(0.30, 0.30)
    assert not coverage_plateau(0.30, 0.35)

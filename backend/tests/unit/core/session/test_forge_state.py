"""ForgeState: initial values, computed properties, transitions and the per-round reset."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from forge.core.domain_types import (
    MAX_CLAIMS_PER_ROUND,
    MAX_ROUNDS,
    AnalogyId,
    ClaimId,
    ClaimType,
    EdgeId,
    EdgeType,
    Phase,
    ReframingId,
    ReframingType,
    ReviewType,
    SemanticDistance,
)
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import (
    Analogy,
    Assumption,
    Claim,
    ClaimScores,
    Edge,
    NegativeKnowledge,
    Reframing,
    ResearchHit,
    ResearchRecord,
)

_NOW = datetime(2025, 1, 1, tzinfo=UTC)


def claim(n: int, text: str = "", **kw: object) -> Claim:
    return Claim(
        id=ClaimId(UUID(int=n)),
        text=text or f"claim {n}",
        claim_type=ClaimType.SYNTHESIS,
        round_created=0,
        phase_created=Phase.SYNTHESIZE,
        **kw,  # type: ignore[arg-type]
    )


def scores(value: float = 0.5) -> ClaimScores:
    return ClaimScores(value, value, value, value)


def research(query: str, phase: Phase = Phase.DECOMPOSE) -> ResearchRecord:
    return ResearchRecord(query, (ResearchHit("https://a.example", "A", "a"),), phase, 0, _NOW, "fake")


def analogy(n: int, *, starred: bool = False) -> Analogy:
    return Analogy(AnalogyId(UUID(int=n)), f"domain {n}", "target", "desc", SemanticDistance.FAR, starred=starred)


def reframing(n: int, *, selected: bool = False) -> Reframing:
    return Reframing(ReframingId(UUID(int=n)), f"reframing {n}", ReframingType.SCOPE_CHANGE, selected)


def mid_round_state() -> ForgeState:
    """A state in BUILD of round 0 with every per-round field dirty and a populated graph."""
    s = ForgeState(problem="p", current_phase=Phase.BUILD)
    s.current_round_claims = [claim(1), claim(2), claim(3)]
    s.theses_stated = 3
    s.antitheses_searched = {0, 1, 2}
    s.falsification_attempted = {0, 1, 2}
    s.novelty_checked = {0, 1, 2}
    s.negative_knowledge_consulted = True
    s.previous_claims_referenced = True
    s.web_searches_this_phase = [research("q", Phase.BUILD)]
    s.research_log = [research("q", Phase.BUILD)]
    s.knowledge_graph_nodes = [claim(1), claim(2)]
    s.knowledge_graph_edges = [
        Edge(EdgeId(UUID(int=100)), ClaimId(UUID(int=1)), ClaimId(UUID(int=2)), EdgeType.SUPPORTS)
    ]
    s.negative_knowledge = [NegativeKnowledge(ClaimId(UUID(int=3)), "claim 3", "wrong", 0)]
    s.gaps = ["an open question"]
    s.fundamentals = ["f"]
    return s


# ---- initial state ---------------------------------------------------------------------------


def test_initial_phase_is_decompose_in_round_zero() -> None:
    s = ForgeState()
    assert s.current_phase == Phase.DECOMPOSE
    assert s.current_round == 0
    assert s.awaiting_user_input is False
    assert s.awaiting_input_type is None


def test_fresh_states_do_not_share_mutable_defaults() -> None:
    a, b = ForgeState(), ForgeState()
    a.current_round_claims.append(claim(1))
    a.antitheses_searched.add(0)
    assert b.current_round_claims == []
    assert b.antitheses_searched == set()


# ---- claims_remaining ------------------------------------------------------------------------


def test_claims_remaining_is_three_on_an_empty_round() -> None:
    assert ForgeState().claims_remaining == MAX_CLAIMS_PER_ROUND == 3


def test_claims_remaining_counts_down_per_claim() -> None:
    s = ForgeState()
    s.current_round_claims = [claim(1)]
    assert s.claims_remaining == 2
    s.current_round_claims.append(claim(2))
    assert s.claims_remaining == 1


def test_claims_remaining_is_zero_when_full() -> None:
    s = ForgeState(current_round_claims=[claim(1), claim(2), claim(3)])
    assert s.claims_remaining == 0


def test_claims_remaining_never_goes_negative() -> None:
    s = ForgeState(current_round_claims=[claim(i) for i in range(1, 6)])
    assert s.claims_remaining == 0


# ---- all_claims_have_antithesis / falsified / novelty_checked ------------------------------


def test_all_claims_have_antithesis_is_false_on_an_empty_round() -> None:
    assert ForgeState().all_claims_have_antithesis is False


def test_all_claims_have_antithesis_is_false_on_an_empty_round_even_with_stale_indices() -> None:
    assert ForgeState(antitheses_searched={0, 1, 2}).all_claims_have_antithesis is False


def test_all_claims_have_antithesis_is_false_when_one_is_missing() -> None:
    s = ForgeState(current_round_claims=[claim(1), claim(2)], antitheses_searched={0})
    assert s.all_claims_have_antithesis is False


def test_all_claims_have_antithesis_is_true_when_every_index_searched() -> None:
    s = ForgeState(current_round_claims=[claim(1), claim(2)], antitheses_searched={0, 1})
    assert s.all_claims_have_antithesis is True


def test_all_claims_falsified_is_false_on_an_empty_round() -> None:
    assert ForgeState(falsification_attempted={0}).all_claims_falsified is False


def test_all_claims_falsified_requires_every_index() -> None:
    s = ForgeState(current_round_claims=[claim(1), claim(2), claim(3)], falsification_attempted={0, 2})
    assert s.all_claims_falsified is False
    s.falsification_attempted.add(1)
    assert s.all_claims_falsified is True


def test_all_claims_novelty_checked_is_false_on_an_empty_round() -> None:
    assert ForgeState(novelty_checked={0}).all_claims_novelty_checked is False


def test_all_claims_novelty_checked_requires_every_index() -> None:
    s = ForgeState(current_round_claims=[claim(1), claim(2)], novelty_checked={1})
    assert s.all_claims_novelty_checked is False
    s.novelty_checked.add(0)
    assert s.all_claims_novelty_checked is True


def test_indices_of_other_properties_do_not_count() -> None:
    s = ForgeState(current_round_claims=[claim(1)], antitheses_searched={0})
    assert s.all_claims_have_antithesis is True
    assert s.all_claims_falsified is False
    assert s.all_claims_novelty_checked is False


# ---- all_claims_scored -----------------------------------------------------------------------


def test_all_claims_scored_is_false_on_an_empty_round() -> None:
    assert ForgeState().all_claims_scored is False


def test_all_claims_scored_is_false_when_one_claim_lacks_scores() -> None:
    s = ForgeState(current_round_claims=[claim(1, scores=scores()), claim(2)])
    assert s.all_claims_scored is False


def test_all_claims_scored_is_true_when_every_claim_has_scores() -> None:
    s = ForgeState(current_round_claims=[claim(1, scores=scores()), claim(2, scores=scores(0.0))])
    assert s.all_claims_scored is True


# ---- max_rounds_reached ----------------------------------------------------------------------


def test_max_rounds_not_reached_before_the_last_round() -> None:
    for round_index in range(MAX_ROUNDS - 1):
        assert ForgeState(current_round=round_index).max_rounds_reached is False


def test_max_rounds_reached_in_the_fifth_round() -> None:
    assert MAX_ROUNDS == 5
    assert ForgeState(current_round=4).max_rounds_reached is True


def test_max_rounds_reached_beyond_the_last_round() -> None:
    assert ForgeState(current_round=9).max_rounds_reached is True


# ---- selections ------------------------------------------------------------------------------


def test_starred_analogies_lists_only_starred_in_order() -> None:
    s = ForgeState(cross_domain_analogies=[analogy(1, starred=True), analogy(2), analogy(3, starred=True)])
    assert [a.id for a in s.starred_analogies] == [AnalogyId(UUID(int=1)), AnalogyId(UUID(int=3))]


def test_starred_analogies_empty_when_none_starred() -> None:
    assert ForgeState(cross_domain_analogies=[analogy(1), analogy(2)]).starred_analogies == []


def test_selected_reframings_lists_only_selected() -> None:
    s = ForgeState(reframings=[reframing(1), reframing(2, selected=True), reframing(3)])
    assert [r.text for r in s.selected_reframings] == ["reframing 2"]


def test_selected_reframings_empty_when_none_selected() -> None:
    assert ForgeState(reframings=[reframing(1)]).selected_reframings == []


def test_confirmed_assumptions_excludes_rejected_and_unreviewed() -> None:
    s = ForgeState(
        assumptions=[Assumption("yes", confirmed=True), Assumption("no", confirmed=False), Assumption("unknown")]
    )
    assert [a.text for a in s.confirmed_assumptions] == ["yes"]


def test_confirmed_assumptions_empty_when_none_reviewed() -> None:
    assert ForgeState(assumptions=[Assumption("a"), Assumption("b")]).confirmed_assumptions == []


# ---- all_claims and lookups ------------------------------------------------------------------


def test_all_claims_lists_past_rounds_then_current_round() -> None:
    s = ForgeState(past_round_claims=[claim(1), claim(2)], current_round_claims=[claim(3)])
    assert [c.id for c in s.all_claims] == [ClaimId(UUID(int=n)) for n in (1, 2, 3)]


def test_all_claims_is_empty_for_a_fresh_state() -> None:
    assert ForgeState().all_claims == []


def test_find_claim_searches_past_and_current_rounds() -> None:
    s = ForgeState(past_round_claims=[claim(1)], current_round_claims=[claim(2)])
    assert s.find_claim(ClaimId(UUID(int=1))) == claim(1)
    assert s.find_claim(ClaimId(UUID(int=2))) == claim(2)
    assert s.find_claim(ClaimId(UUID(int=9))) is None


def test_graph_node_finds_only_graph_members() -> None:
    s = ForgeState(knowledge_graph_nodes=[claim(1)], current_round_claims=[claim(2)])
    assert s.graph_node(ClaimId(UUID(int=1))) == claim(1)
    assert s.graph_node(ClaimId(UUID(int=2))) is None


# ---- research and phase transitions ----------------------------------------------------------


def test_record_research_appends_to_log_and_phase_list() -> None:
    s = ForgeState()
    record = research("queue theory")
    s.record_research(record)
    assert s.research_log == [record]
    assert s.web_searches_this_phase == [record]


def test_enter_phase_clears_phase_research_but_keeps_the_log() -> None:
    s = ForgeState()
    s.record_research(research("queue theory"))
    s.enter_phase(Phase.EXPLORE)
    assert s.current_phase == Phase.EXPLORE
    assert s.web_searches_this_phase == []
    assert len(s.research_log) == 1


def test_enter_phase_stops_waiting_for_a_review() -> None:
    s = ForgeState()
    s.await_review(ReviewType.DECOMPOSE_REVIEW)
    s.enter_phase(Phase.EXPLORE)
    assert s.awaiting_user_input is False
    assert s.awaiting_input_type is None


def test_await_review_records_what_is_awaited() -> None:
    s = ForgeState()
    s.await_review(ReviewType.VERDICTS)
    assert s.awaiting_user_input is True
    assert s.awaiting_input_type == ReviewType.VERDICTS


# ---- per-round reset -------------------------------------------------------------------------


def test_reset_clears_round_claims() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.current_round_claims == []


def test_reset_moves_current_claims_to_past_round_claims() -> None:
    s = mid_round_state()
    s.past_round_claims = [claim(9)]
    current = list(s.current_round_claims)
    s.reset_for_new_round()
    assert s.past_round_claims == [claim(9), *current]


def test_reset_zeroes_theses_stated() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.theses_stated == 0


def test_reset_clears_antitheses_searched() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.antitheses_searched == set()


def test_reset_clears_falsification_attempted() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.falsification_attempted == set()


def test_reset_clears_novelty_checked() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.novelty_checked == set()


def test_reset_clears_negative_knowledge_consulted() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.negative_knowledge_consulted is False


def test_reset_clears_previous_claims_referenced() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.previous_claims_referenced is False


def test_reset_clears_web_searches_this_phase() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.web_searches_this_phase == []


def test_reset_increments_round() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.current_round == 1
    s.reset_for_new_round()
    assert s.current_round == 2


def test_reset_preserves_knowledge_graph() -> None:
    s = mid_round_state()
    nodes, edges = list(s.knowledge_graph_nodes), list(s.knowledge_graph_edges)
    s.reset_for_new_round()
    assert s.knowledge_graph_nodes == nodes
    assert s.knowledge_graph_edges == edges


def test_reset_preserves_negative_knowledge() -> None:
    s = mid_round_state()
    negatives = list(s.negative_knowledge)
    s.reset_for_new_round()
    assert s.negative_knowledge == negatives


def test_reset_preserves_gaps() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert s.gaps == ["an open question"]


def test_reset_preserves_research_log_and_earlier_phase_work() -> None:
    s = mid_round_state()
    s.reset_for_new_round()
    assert len(s.research_log) == 1
    assert s.fundamentals == ["f"]
    assert s.problem == "p"


def test_reset_gives_a_fresh_round_its_full_claim_budget() -> None:
    s = mid_round_state()
    assert s.claims_remaining == 0
    s.reset_for_new_round()
    assert s.claims_remaining == MAX_CLAIMS_PER_ROUND
    assert s.all_claims_have_antithesis is False


def test_reset_keeps_every_claim_reachable_via_all_claims() -> None:
    s = mid_round_state()
    ids = [c.id for c in s.all_claims]
    s.reset_for_new_round()
    assert [c.id for c in s.all_claims] == ids
    assert s.find_claim(ClaimId(UUID(int=3))) is not None

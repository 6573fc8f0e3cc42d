"""What EXPLORE and SYNTHESIZE are offered of the pool, and the autopilot's stars by score."""

from __future__ import annotations

from uuid import UUID

from forge.core.domain_types import AnalogyId, SemanticDistance
from forge.core.explore.pool_offer import explore_offer, stars_by_score, suggested_offer
from forge.core.explore.suggested_domains import SuggestionOutcome, SuggestionSource
from forge.core.hypotheses.pool import BisoSummary
from forge.core.hypotheses.pool_candidates import PoolCandidate
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Analogy


def candidate(hid: str, domain: str, score: float, passed: bool = True) -> PoolCandidate:
    return PoolCandidate(
        id=hid, title="t", statement="s", mechanism="m", observable="o", mapping_score=score, gate_passed=passed,
        domain_id=domain, domain_name=domain, failed_rules=() if passed else ("row_usage",),
    )  # fmt: skip


def analogy(n: int, hypothesis_id: str = "", score: float | None = None) -> Analogy:
    return Analogy(
        AnalogyId(UUID(int=n)), "D", "t", "d", SemanticDistance.FAR, hypothesis_id=hypothesis_id, mapping_score=score
    )


def state_with_pool() -> ForgeState:
    state = ForgeState(problem="p", biso=BisoSummary(0, 3, 3, 2, ()))
    state.pool_candidates = [candidate("b1", "ants", 8.0), candidate("b2", "hydro", 3.5, passed=False)]
    state.suggestion_outcomes = [
        SuggestionOutcome("ants!", SuggestionSource.LIBRARY, "ants", "Ants", 3, 0, "already explored"),
        SuggestionOutcome("atc", SuggestionSource.LIBRARY, "atc", "ATC", 1, 0, "", (candidate("s1", "atc", 6.0),)),
        SuggestionOutcome("old", SuggestionSource.LIBRARY, "old", "Old", 1, 1, "", (candidate("s9", "old", 9.9),)),
    ]
    return state


def test_explore_is_offered_bisos_head_then_this_rounds_suggested_results_each_once() -> None:
    state = state_with_pool()
    assert [c.id for c in suggested_offer(state)] == ["b1", "s1"]  # a BISO domain: its head entry
    assert [c.id for c in explore_offer(state)] == ["b1", "b2", "s1"]


def test_a_stale_biso_head_is_not_offered() -> None:
    state = state_with_pool()
    state.current_round = 1
    assert [c.id for c in explore_offer(state)] == ["s9"]


def test_the_autopilot_stars_the_strongest_of_pool_and_analogies_an_analogy_standing_for_what_it_cites() -> None:
    state = state_with_pool()
    state.cross_domain_analogies = [analogy(1, "b1", 8.0), analogy(2, score=7.0), analogy(3)]
    stars = stars_by_score(state, 3)
    assert (stars.analogies, stars.hypotheses) == ((0, 1), ("s1",))
    assert stars_by_score(state, 1).analogies == (0,)
    assert stars_by_score(ForgeState(problem="p"), 2) == stars_by_score(ForgeState(problem="p"), 0)

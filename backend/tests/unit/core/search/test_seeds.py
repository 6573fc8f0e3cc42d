"""Seed selection for a SEARCH round: the gate prunes, then MOME / NSGA-II / composite pick."""

from __future__ import annotations

from dataclasses import replace

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.search.seeds import SelectionMethod, select_search_seeds

FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits")
ROWS = tuple(
    MappingRow(s, "drives", "triage", "moves", MappingType.RELATION, "g", "queue per hour") for s in ("a", "b")
)


def hypothesis(hid: str, structure: str, observable: str, score: float = 7.0, passed: bool = True) -> Hypothesis:
    gate = GateSummary(GateStatus.PASSED if passed else GateStatus.FAILED, (), 6, score if passed else 3.0)
    return Hypothesis(
        HypothesisId(hid),
        "d",
        "D",
        structure,
        hid,
        "Shorten emergency department waits.",
        structure,
        MappingTable(ROWS),
        observable,
        ("Beds block the flow.",),
        gate,
    )


POOL = [
    hypothesis("q1", "queue buffer", "minutes per patient", 9.0),
    hypothesis("q2", "queue buffer", "minutes per patient", 8.0),
    hypothesis("q3", "queue buffer", "minutes per patient", 7.0),
    hypothesis("f1", "feedback loop", "ward totals", 6.5),
    hypothesis("bad", "threshold cascade", "ward totals", passed=False),
]


def test_hypotheses_that_failed_the_gate_are_never_seeds() -> None:
    for method in SelectionMethod:
        selection = select_search_seeds(POOL, FRAME, 10, method)
        assert "bad" not in selection.seeds
        assert (selection.eligible, selection.pruned) == (4, 1)


def test_mome_seeds_the_sparse_cell_first_and_reports_coverage() -> None:
    selection = select_search_seeds(POOL, FRAME, 2)
    assert selection.seeds[0] == "f1"  # its cell holds one hypothesis, the queue cell three
    assert selection.coverage_ratio is not None and 0 < selection.coverage_ratio < 1


def test_mome_fills_from_the_pareto_order_when_cell_fronts_run_out() -> None:
    selection = select_search_seeds(POOL, FRAME, 4)
    assert sorted(selection.seeds) == ["f1", "q1", "q2", "q3"]


def test_composite_takes_the_highest_weighted_sum_first() -> None:
    selection = select_search_seeds(POOL, FRAME, 2, SelectionMethod.COMPOSITE)
    assert selection.seeds == ("q1", "q2") and selection.coverage_ratio is None


def test_pareto_returns_the_dominating_hypothesis_first() -> None:
    weaker = replace(POOL[0], id=HypothesisId("weak"), gate=replace(POOL[0].gate, mapping_score=6.0))
    selection = select_search_seeds([weaker, POOL[0]], FRAME, 1, SelectionMethod.PARETO)
    assert selection.seeds == ("q1",)


def test_saga_weights_reach_the_selection_axes_and_the_composite() -> None:
    # Same divergence, testability and feasibility: A maps better (rationale 9), B names a failure
    # mode (robustness 3.5, rationale 5). With the seed's weights A dominates; once SAGA halves
    # rationale's weight (ADJUST_WEIGHTS on a collinear dimension), B does.
    a = replace(hypothesis("a", "queue buffer", "minutes per patient", 9.0), failure_modes=())
    b = replace(hypothesis("b", "queue buffer", "minutes per patient", 5.0), failure_modes=("Beds block the flow.",))
    damped = {"divergence": 0.21, "testability": 0.26, "rationale": 0.105, "robustness": 0.17, "feasibility": 0.15}
    for method in (SelectionMethod.PARETO, SelectionMethod.MOME):
        assert select_search_seeds([a, b], FRAME, 1, method).seeds == ("a",)
        assert select_search_seeds([a, b], FRAME, 1, method, damped).seeds == ("b",)
    heavy_rationale = {**damped, "rationale": 0.9}
    assert select_search_seeds([a, b], FRAME, 1, SelectionMethod.COMPOSITE, heavy_rationale).seeds == ("a",)
    assert select_search_seeds([a, b], FRAME, 1, SelectionMethod.COMPOSITE, {**damped, "robustness": 0.9}).seeds == (
        "b",
    )

"""The pool's head as the briefs offer it: gate first, then score, one per domain before the rest."""

from __future__ import annotations

from forge.core.explore.mapping_quality_gate import GateRule, MappingTable
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.hypotheses.pool_candidates import strongest, top_candidates


def hypothesis(hid: str, domain: str, score: float, passed: bool = True) -> Hypothesis:
    failed = () if passed else (GateRule.EFFECTIVE_ROWS, GateRule.ROW_USAGE)
    gate = GateSummary(GateStatus.PASSED if passed else GateStatus.FAILED, failed, 6, score)
    return Hypothesis(
        HypothesisId(hid), domain, domain.title(), "s", f"t {hid}", f"statement {hid}", "m", MappingTable(()),
        "o", ("f",), gate,
    )  # fmt: skip


def test_gate_passed_come_first_then_by_score_one_per_domain_before_the_rest() -> None:
    pool = [
        hypothesis("a1", "ants", 6.5),
        hypothesis("a2", "ants", 9.0),
        hypothesis("h1", "hydro", 3.9, passed=False),
        hypothesis("t1", "traffic", 7.0),
    ]
    assert [c.id for c in top_candidates(pool, 3)] == ["a2", "t1", "h1"]
    assert [c.id for c in top_candidates(pool, 4)] == ["a2", "t1", "h1", "a1"]


def test_a_candidate_keeps_the_gate_result_in_words() -> None:
    passed, failed = top_candidates([hypothesis("a", "ants", 7.25), hypothesis("b", "bees", 3.0, passed=False)])
    assert (passed.gate, passed.mapping_score) == ("passed", 7.2)
    assert failed.gate == "failed: effective_rows, row_usage" and not failed.gate_passed


def test_strongest_ranks_by_gate_then_score_and_keeps_ties_in_order() -> None:
    a, b, c = top_candidates([hypothesis("a", "x", 6.0), hypothesis("b", "y", 6.0), hypothesis("c", "z", 8.0)])
    assert [s.id for s in strongest([a, b, c], 2)] == ["c", "a"]

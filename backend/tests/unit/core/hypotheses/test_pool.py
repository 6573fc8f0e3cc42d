"""The hypothesis pool: the rule-layer mapping score and near-duplicate merging."""

from __future__ import annotations

from dataclasses import replace

from forge.core.explore.mapping_quality_gate import MappingTable
from forge.core.hypotheses.pool import (
    GateStatus,
    GateSummary,
    Hypothesis,
    HypothesisId,
    merge_near_duplicates,
)

PASSED = GateSummary(GateStatus.PASSED, (), 7, 7.0)
FAILED = GateSummary(GateStatus.FAILED, (), 2, 2.3)


def hypothesis(hid: str, statement: str, gate: GateSummary = PASSED) -> Hypothesis:
    return Hypothesis(
        HypothesisId(hid),
        "queueing",
        "Queueing",
        "Little's law",
        hid,
        statement,
        "",
        MappingTable(()),
        "wait",
        (),
        gate,
    )


def test_distinct_statements_are_all_kept_in_order() -> None:
    pool = [hypothesis("a", "Buffer arrivals in a waiting room"), hypothesis("b", "Rotate nurses across shifts weekly")]
    assert merge_near_duplicates(pool) == pool


def test_a_near_duplicate_is_absorbed_by_the_one_that_passed_the_gate() -> None:
    weak = hypothesis("weak", "Buffer evening arrivals in the waiting room", FAILED)
    strong = hypothesis("strong", "Buffer evening arrivals in the waiting room area")
    (kept,) = merge_near_duplicates([weak, strong])
    assert kept.id == "strong" and kept.absorbed == ("weak",)


def test_on_equal_rank_the_earlier_is_kept_and_absorbed_ids_accumulate() -> None:
    first = hypothesis("first", "Buffer evening arrivals in the waiting room")
    second = hypothesis("second", "Buffer evening arrivals in a waiting room")
    third = replace(hypothesis("third", "Buffer the evening arrivals in waiting room"), absorbed=(HypothesisId("x"),))
    (kept,) = merge_near_duplicates([first, second, third])
    assert kept.id == "first" and kept.absorbed == ("second", "third", "x")

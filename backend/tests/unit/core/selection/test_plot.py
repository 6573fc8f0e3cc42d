"""The selection plot: gated hypotheses on the Pareto plane with fronts and crowding, every MOME
cell listed with its counts, seeds marked."""

from __future__ import annotations

from dataclasses import replace

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.selection.plot import selection_plot

FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits")
ROWS = tuple(MappingRow(s, "drives", "triage", "moves", MappingType.RELATION, "g", "queue per hour") for s in "ab")


def hypothesis(hid: str, structure: str, observable: str, score: float = 7.0, passed: bool = True) -> Hypothesis:
    gate = GateSummary(GateStatus.PASSED if passed else GateStatus.FAILED, (), 6, score if passed else 3.0)
    return Hypothesis(
        HypothesisId(hid), "d", "D", structure, hid, "Shorten emergency department waits.", structure,
        MappingTable(ROWS), observable, ("Beds block the flow.",), gate,
    )  # fmt: skip


POOL = [
    hypothesis("q1", "queue buffer", "minutes per patient", 9.0),
    hypothesis("q2", "queue buffer", "minutes per patient", 5.0),
    hypothesis("f1", "feedback loop", "ward totals", 6.5),
    hypothesis("bad", "threshold cascade", "ward totals", passed=False),
]


def test_failed_gate_hypotheses_are_counted_not_plotted_and_seeds_are_marked() -> None:
    plot = selection_plot(POOL, FRAME, seeds={HypothesisId("f1")})
    assert [p.id for p in plot.points] == ["q1", "q2", "f1"] and plot.pruned == 1
    assert [p.seed for p in plot.points] == [False, False, True]


def test_the_dominated_point_is_behind_the_front_and_front_ends_have_no_finite_crowding() -> None:
    by_id = {p.id: p for p in selection_plot(POOL, FRAME).points}
    assert by_id["q1"].feasibility > by_id["q2"].feasibility and by_id["q1"].novelty == by_id["q2"].novelty
    # The twins q1 and q2 are less novel than f1, unlike anything else in the pool (pool-relative
    # novelty); q1 maps better, so q2 sits behind the front that q1 and f1 make.
    assert by_id["f1"].novelty > by_id["q1"].novelty
    assert by_id["q1"].rank == 0 and by_id["f1"].rank == 0 and by_id["q2"].rank == 1
    assert by_id["q1"].crowding is None  # a front of at most two points: both ends


def test_every_cell_is_listed_with_what_landed_and_what_its_front_keeps() -> None:
    many = [
        replace(hypothesis(f"q{n}", "queue buffer", "minutes per patient", 5.0 + n / 10), title=f"t{n}")
        for n in range(6)
    ]
    plot = selection_plot([*many, POOL[2]], FRAME)
    assert len(plot.cells) == len(plot.mechanism_families) * len(plot.data_granularities)
    flow = next(c for c in plot.cells if (c.mechanism_family, c.data_granularity) == ("flow", "individual"))
    assert flow.explored == 6 and 1 <= flow.kept <= plot.capacity
    assert sum(c.explored for c in plot.cells) == 7
    assert plot.coverage_ratio == round(2 / len(plot.cells), 4)

"""Rule-layer scores and behaviour descriptors for SEARCH selection."""

from __future__ import annotations

from forge.core.hypothesis_pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.hypothesis_scores import SEARCH_GRID, describe_behavior, score_hypothesis
from forge.core.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.problem_frame import ProblemFrame

FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))


def row(source: str, link: str = "queue length per hour") -> MappingRow:
    return MappingRow(source, "drives it", "triage", "moves it", MappingType.RELATION, "g", link)


def hypothesis(
    structure: str = "Queueing buffer",
    mechanism: str = "A buffer absorbs bursts of arrivals.",
    observable: str = "median waiting minutes per patient",
    failures: tuple[str, ...] = ("Breaks when beds, not triage, block flow.",),
    rows: tuple[MappingRow, ...] = (row("buffer"), row("server")),
    statement: str = "Use the waiting room as a buffer for shorter emergency department waits.",
    mapping_score: float = 7.0,
) -> Hypothesis:
    gate = GateSummary(GateStatus.PASSED, (), len(rows), mapping_score)
    return Hypothesis(
        HypothesisId("h"),
        "queueing",
        "Queueing",
        structure,
        "t",
        statement,
        mechanism,
        MappingTable(rows),
        observable,
        failures,
        gate,
    )


def test_divergence_is_the_share_of_source_vocabulary_outside_the_frame() -> None:
    far = score_hypothesis(hypothesis(structure="Predator prey", rows=(row("predator"), row("prey"))), FRAME)
    near = score_hypothesis(hypothesis(structure="Emergency wait", rows=(row("emergency"), row("wait"))), FRAME)
    assert far.divergence == 10.0 and near.divergence == 0.0


def test_testability_needs_an_observable_and_linked_rows() -> None:
    linked = score_hypothesis(hypothesis(), FRAME)
    unlinked = score_hypothesis(hypothesis(observable="x", rows=(row("buffer", ""), row("server", ""))), FRAME)
    assert (linked.testability, unlinked.testability) == (10.0, 0.0)


def test_robustness_counts_concrete_failure_modes() -> None:
    none = score_hypothesis(hypothesis(failures=()), FRAME)
    three = score_hypothesis(
        hypothesis(failures=("Beds block the flow.", "Surges exceed rooms.", "Staff leave early.")), FRAME
    )
    assert (none.robustness, three.robustness) == (0.0, 10.0)


def test_rationale_is_the_mapping_gate_score_and_feasibility_the_target_addressed() -> None:
    scores = score_hypothesis(hypothesis(mapping_score=8.5), FRAME)
    assert scores.rationale == 8.5
    assert scores.feasibility == 10.0  # "emergency", "department", "shorter", "waits" all addressed
    off_target = score_hypothesis(hypothesis(statement="Paint the walls a calmer colour for everyone."), FRAME)
    assert off_target.feasibility < scores.feasibility


def test_descriptors_come_from_mechanism_and_observable_cues_and_lie_on_the_grid() -> None:
    queue = describe_behavior(hypothesis())
    assert (queue.mechanism_family, queue.data_granularity) == ("flow", "individual")
    plain = describe_behavior(hypothesis(structure="Symmetry", mechanism="Mirrors.", observable="overall totals"))
    assert (plain.mechanism_family, plain.data_granularity) == ("other", "aggregate")
    assert queue in SEARCH_GRID.cells and plain in SEARCH_GRID.cells

"""Rule-layer scores and behaviour descriptors for SEARCH selection."""

from __future__ import annotations

from dataclasses import replace

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.hypotheses.scores import SEARCH_GRID, describe_behavior, score_hypothesis, score_pool

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


def test_divergence_weighs_source_and_claim_vocabulary_outside_the_frame() -> None:
    far = score_hypothesis(
        hypothesis(
            structure="Predator prey",
            rows=(row("predator"), row("prey")),
            statement="Predators deplete prey.",
            mechanism="Lotka Volterra oscillation.",
        ),
        FRAME,
    )
    near = score_hypothesis(
        hypothesis(
            structure="Emergency wait",
            rows=(row("emergency"), row("wait")),
            statement="Cut emergency wait times.",
            mechanism="Emergency wait times.",
        ),
        FRAME,
    )
    assert far.divergence == 10.0 and near.divergence == 0.0
    restating = score_hypothesis(
        hypothesis(structure="Predator prey", rows=(row("predator"), row("prey")), mechanism="Cut emergency waits."),
        FRAME,
    )
    assert near.divergence < restating.divergence < far.divergence  # a claim in the problem's own words


def test_pool_novelty_lowers_near_twins_and_keeps_the_distinct_idea() -> None:
    parent = hypothesis()
    twin = replace(parent, id="twin")
    other = hypothesis(statement="Stagger shift handovers.", mechanism="Predators deplete prey in cycles.")
    scores = score_pool([parent, twin, other], FRAME)
    alone = score_hypothesis(parent, FRAME)
    assert scores[0].divergence == scores[1].divergence == round(0.5 * alone.divergence, 2)  # exact twins
    assert scores[2].divergence > scores[0].divergence
    assert score_pool([parent], FRAME)[0].divergence == round(0.5 * alone.divergence + 5.0, 2)  # nothing like it


def test_testability_grades_observable_link_measurement_and_expectation() -> None:
    measured = score_hypothesis(hypothesis(), FRAME)  # "median waiting minutes per patient": a measurement
    expected = score_hypothesis(hypothesis(observable="median wait per patient; expect a drop above 0.8"), FRAME)
    unlinked = score_hypothesis(hypothesis(observable="x", rows=(row("buffer", ""), row("server", ""))), FRAME)
    vague = score_hypothesis(hypothesis(observable="patient experience overall"), FRAME)
    assert (measured.testability, expected.testability, unlinked.testability) == (8.5, 10.0, 0.0)
    assert vague.testability == 7.0


def test_robustness_counts_concrete_failure_modes_and_their_conditions() -> None:
    none = score_hypothesis(hypothesis(failures=()), FRAME)
    three = score_hypothesis(
        hypothesis(failures=("Beds block the flow.", "Surges exceed rooms.", "Staff leave early.")), FRAME
    )
    conditional = score_hypothesis(
        hypothesis(failures=("Fails when beds block the flow.", "Only holds if surges stay below rooms.")), FRAME
    )
    assert (none.robustness, three.robustness, conditional.robustness) == (0.0, 7.5, 7.0)
    repeated = score_hypothesis(hypothesis(failures=("Beds block the flow.",) * 3), FRAME)
    assert repeated.robustness == 2.5  # the same failure mode thrice is one


def test_rationale_adds_mapping_depth_to_the_gate_score_and_feasibility_the_target_addressed() -> None:
    relational = score_hypothesis(hypothesis(mapping_score=8.5), FRAME)
    assert relational.rationale == round(0.7 * 8.5 + 3.0, 2)  # every row maps a relation
    shallow_rows = tuple(replace(r, mapping_type=MappingType.ATTRIBUTE) for r in (row("buffer"), row("server")))
    assert score_hypothesis(hypothesis(mapping_score=8.5, rows=shallow_rows), FRAME).rationale == round(0.7 * 8.5, 2)
    addressed = score_hypothesis(hypothesis(observable="emergency department waits per patient"), FRAME)
    assert addressed.feasibility > relational.feasibility  # the observable in the problem's own words
    off_target = score_hypothesis(hypothesis(statement="Paint the walls a calmer colour for everyone."), FRAME)
    assert off_target.feasibility < relational.feasibility


def test_descriptors_come_from_mechanism_and_observable_cues_and_lie_on_the_grid() -> None:
    queue = describe_behavior(hypothesis())
    assert (queue.mechanism_family, queue.data_granularity) == ("flow", "individual")
    plain = describe_behavior(hypothesis(structure="Symmetry", mechanism="Mirrors.", observable="overall totals"))
    assert (plain.mechanism_family, plain.data_granularity) == ("other", "aggregate")
    assert queue in SEARCH_GRID.cells and plain in SEARCH_GRID.cells


def test_a_hypothesis_scored_again_gets_the_same_scores_and_under_another_frame_its_own() -> None:
    h = hypothesis()
    first = score_hypothesis(h, FRAME)
    assert score_hypothesis(h, FRAME) == first == score_hypothesis(replace(h), FRAME)
    other = ProblemFrame("Store summer heat for winter", "district heating", "lower winter bills")
    assert score_hypothesis(h, other) != first
    assert score_hypothesis(h, other) == score_hypothesis(replace(h), other)

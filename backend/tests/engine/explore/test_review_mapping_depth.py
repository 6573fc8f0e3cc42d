"""The gate's model layer over a pool: passed tables only, up to eight per call, read by id; the ids an
answer omits or makes ambiguous are asked again once, never scored by invention; failures leave the rule layer."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, Hypothesis, HypothesisId, gate_summary
from forge.core.llm.messages import Usage
from forge.engine.explore.review_mapping_depth import (
    REVIEW_BATCH,
    MappingReviewBatch,
    MappingReviewContext,
    MappingReviewOutput,
    MappingReviewsOutput,
    RowExplanationOut,
    answers_by_id,
    review_mapping_depth,
)
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
OBSERVABLE = "median waiting minutes by acuity against occupancy in the evening peak"
FAILURE = "Breaks when bed shortage, not triage capacity, drives the surge."
ROWS = tuple(
    MappingRow(s, sr, t, tr, k, "congestion", link)
    for s, sr, t, tr, k, link in [
        ("customer", "arrives at random", "patient", "walks into triage", MappingType.ENTITY, "arrivals per hour"),
        ("server", "serves one job", "triage nurse", "assesses each patient", MappingType.ENTITY, "nurse minutes"),
        ("utilisation", "nears one", "department occupancy", "saturates at peak", MappingType.ATTRIBUTE, "occupancy"),
        ("buffer", "absorbs bursts", "waiting room", "holds surges", MappingType.RELATION, "queue length"),
        ("priority", "reorders service", "acuity score", "moves urgent cases", MappingType.RELATION, "waiting minutes"),
        ("blocking", "rejects work", "bed shortage", "stalls admitted patients", MappingType.HIGHER_ORDER, "boarding"),
        ("variability", "inflates waiting", "surge pattern", "creates evening spikes", MappingType.HIGHER_ORDER, "cv"),
    ]
)
STATEMENT = "Use the waiting room as a buffer and acuity priority so triage absorbs the evening surge pattern."


def _hypothesis(n: int, rows: tuple[MappingRow, ...] = ROWS) -> Hypothesis:
    table = MappingTable(rows)
    return Hypothesis(
        HypothesisId(f"h-{n}"),
        "queueing",
        "Queueing theory",
        "Queueing",
        f"Idea {n}",
        STATEMENT,
        "Arrivals above capacity accumulate.",
        table,
        OBSERVABLE,
        (FAILURE,),
        gate_summary(table, f"{STATEMENT} {OBSERVABLE} {FAILURE}"),
    )


class Reviewer:
    """Answers each batch with one review per hypothesis, explaining each sampled row concretely (or,
    for `generic` ids, with an empty yes); leaves out `omitted` ids (every time, or only in the first
    call when `omit_once`); answers `twice` ids twice, differently; fails a call naming a `broken` id."""

    def __init__(
        self,
        generic: Collection[str] = (),
        broken: Collection[str] = (),
        omitted: Collection[str] = (),
        twice: Collection[str] = (),
        omit_once: bool = True,
    ) -> None:
        self.generic, self.broken, self.omitted, self.twice, self.omit_once = generic, broken, omitted, twice, omit_once
        self.requests: list[StructuredRequest[Any]] = []

    @property
    def label(self) -> str:
        return "reviewer"

    @property
    def batches(self) -> list[list[str]]:
        return [[item.hypothesis.id for item in _batch(r).items] for r in self.requests]

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        items = _batch(request).items
        if any(item.hypothesis.id in self.broken for item in items):
            return StructuredFailure("invalid output 3 times", Usage(10, 1), 3)
        skip = self.omitted if len(self.requests) == 1 or not self.omit_once else ()
        reviews = [self._review(item) for item in items if item.hypothesis.id not in skip]
        reviews += [self._review(item, depth=2) for item in items if item.hypothesis.id in self.twice]
        return StructuredResult(MappingReviewsOutput(reviews=reviews), Usage(100, 20), 1)

    def _review(self, item: MappingReviewContext, depth: float = 6) -> MappingReviewOutput:
        h = item.hypothesis
        explanations = [
            RowExplanationOut(
                row=r,
                explanation="It matters a lot."
                if h.id in self.generic
                else f"{h.mapping.rows[r].target_concept} shows up in median waiting minutes at peak occupancy.",
                supports=True,
            )
            for r in item.unpack_rows
        ]
        return MappingReviewOutput(
            hypothesis_id=h.id,
            explanations=explanations,
            rationale="x",
            systematicity=8,
            depth=depth,
            higher_order_mapped=True,
        )


def _batch(request: StructuredRequest[Any]) -> MappingReviewBatch:
    assert isinstance(request.offline_context, MappingReviewBatch)
    return request.offline_context


def _review_of(h_id: str, depth: float = 6) -> MappingReviewOutput:
    return MappingReviewOutput(
        hypothesis_id=h_id, explanations=[], rationale="r", systematicity=5, depth=depth, higher_order_mapped=False
    )


def test_the_schema_asks_for_the_reasoning_before_the_scores() -> None:
    properties = list(MappingReviewOutput.model_json_schema()["properties"])
    assert properties == ["hypothesis_id", "explanations", "rationale", "systematicity", "depth", "higher_order_mapped"]
    assert list(RowExplanationOut.model_json_schema()["properties"]) == ["row", "explanation", "supports"]


def test_an_answer_is_read_by_id_ignoring_strangers_and_ambiguous_repeats() -> None:
    asked = [HypothesisId("h-1"), HypothesisId("h-2"), HypothesisId("h-3")]
    answer = MappingReviewsOutput(
        reviews=[
            _review_of("h-1"),
            _review_of("h-1"),  # the same review twice: read once
            _review_of(" h-2 "),
            _review_of("h-2", depth=9),  # h-2 answered twice, differently: ambiguous
            _review_of("h-9"),  # not asked about
        ]
    )
    assert answers_by_id(asked, answer) == {HypothesisId("h-1"): _review_of("h-1")}


async def test_only_tables_that_passed_the_rules_are_reviewed_in_one_call_and_order_is_kept() -> None:
    failed = _hypothesis(2, ROWS[:2])
    assert failed.gate.status is GateStatus.FAILED
    pool = [_hypothesis(1), failed, _hypothesis(3)]
    reviewer = Reviewer()
    result = await review_mapping_depth(reviewer, "p", FRAME, pool)
    assert reviewer.batches == [["h-1", "h-3"]] and result.calls == 1 and result.reviewed == 2 and result.failed == 0
    assert [h.id for h in result.hypotheses] == ["h-1", "h-2", "h-3"]
    assert result.hypotheses[1] == failed
    first = result.hypotheses[0]
    assert first.gate.rule_layer_score == pool[0].gate.mapping_score
    assert first.gate.unpack is not None and not first.gate.unpack.padding_suspected
    assert result.padding_suspected == () and result.usage == Usage(100, 20)


async def test_a_pool_larger_than_a_batch_is_reviewed_in_calls_of_at_most_eight() -> None:
    pool = [_hypothesis(n) for n in range(1, REVIEW_BATCH + 3)]
    reviewer = Reviewer()
    result = await review_mapping_depth(reviewer, "p", FRAME, pool)
    assert [len(b) for b in reviewer.batches] == [REVIEW_BATCH, 2] and result.calls == 2
    assert result.reviewed == REVIEW_BATCH + 2 and all(h.gate.rule_layer_score is not None for h in result.hypotheses)


async def test_a_generic_explanation_is_padding_and_lowers_the_score() -> None:
    pool = [_hypothesis(1), _hypothesis(2)]
    result = await review_mapping_depth(Reviewer(generic={"h-2"}), "p", FRAME, pool)
    clean, padded = result.hypotheses
    assert result.padding_suspected == (HypothesisId("h-2"),)
    assert padded.gate.unpack is not None and len(padded.gate.unpack.unexplained) == 2
    assert padded.gate.mapping_score < clean.gate.mapping_score


async def test_a_failed_review_call_leaves_the_rule_layer_judgement_and_is_not_repeated() -> None:
    pool = [_hypothesis(1), _hypothesis(2)]
    result = await review_mapping_depth(Reviewer(broken={"h-1"}), "p", FRAME, pool)
    assert result.hypotheses == tuple(pool) and result.reviewed == 0 and result.failed == 2 and result.calls == 1


async def test_an_omitted_id_is_asked_again_alone_and_scored_as_if_answered_first() -> None:
    pool = [_hypothesis(1), _hypothesis(2), _hypothesis(3)]
    reviewer = Reviewer(omitted={"h-2"})
    result = await review_mapping_depth(reviewer, "p", FRAME, pool)
    assert reviewer.batches == [["h-1", "h-2", "h-3"], ["h-2"]]
    assert result.calls == 2 and result.reviewed == 3 and result.usage == Usage(200, 40)
    answered_first = await review_mapping_depth(Reviewer(), "p", FRAME, pool)
    assert result.hypotheses == answered_first.hypotheses


async def test_an_id_answered_twice_differently_is_asked_again() -> None:
    pool = [_hypothesis(1), _hypothesis(2)]
    reviewer = Reviewer(twice={"h-1"}, omit_once=True)
    result = await review_mapping_depth(reviewer, "p", FRAME, pool)
    assert reviewer.batches == [["h-1", "h-2"], ["h-1"]]
    assert result.reviewed == 1 and result.failed == 1  # the repair answered h-1 twice again: still ambiguous
    assert result.hypotheses[0] == pool[0] and result.hypotheses[1].gate.rule_layer_score is not None


async def test_an_id_still_missing_after_the_repair_keeps_the_rule_layer_and_gets_no_invented_score() -> None:
    pool = [_hypothesis(1), _hypothesis(2)]
    reviewer = Reviewer(omitted={"h-2"}, omit_once=False)
    result = await review_mapping_depth(reviewer, "p", FRAME, pool)
    assert reviewer.batches == [["h-1", "h-2"], ["h-2"]] and result.calls == 2
    assert result.reviewed == 1 and result.failed == 1
    assert result.hypotheses[1] == pool[1] and result.hypotheses[1].gate.rule_layer_score is None


async def test_the_request_names_each_hypothesis_its_sampled_rows_and_its_table() -> None:
    pool = [_hypothesis(1), _hypothesis(2)]
    reviewer = Reviewer()
    await review_mapping_depth(reviewer, "How to cut waits?", FRAME, pool)
    (request,) = reviewer.requests
    assert request.name == "record_mapping_reviews" and request.output is MappingReviewsOutput
    assert "Review these 2 hypotheses (ids: h-1, h-2)." in request.input
    for item in _batch(request).items:
        assert f"## Hypothesis {item.hypothesis.id} (Queueing theory: Queueing)" in request.input
        assert f"Unpack rows: {', '.join(str(r) for r in item.unpack_rows)}" in request.input
    assert request.input.count("3. [relation; group congestion] buffer (absorbs bursts) -> waiting room") == 2

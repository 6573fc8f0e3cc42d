"""The gate's model layer over a pool: passed tables only, one call each, failures leave the rule layer."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, Hypothesis, HypothesisId, gate_summary
from forge.core.llm.messages import Usage
from forge.engine.explore.review_mapping_depth import (
    MappingReviewContext,
    MappingReviewOutput,
    RowExplanationOut,
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
    """Explains each sampled row concretely (or, for `generic` ids, with an empty yes); fails on `broken`."""

    def __init__(self, generic: Collection[str] = (), broken: Collection[str] = ()) -> None:
        self.generic, self.broken = generic, broken
        self.seen: list[str] = []

    @property
    def label(self) -> str:
        return "reviewer"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        context = request.offline_context
        assert isinstance(context, MappingReviewContext)
        h = context.hypothesis
        self.seen.append(h.id)
        if h.id in self.broken:
            return StructuredFailure("invalid output 3 times", Usage(10, 1), 3)
        explanations = [
            RowExplanationOut(
                row=r,
                supports=True,
                explanation="It matters a lot."
                if h.id in self.generic
                else f"{h.mapping.rows[r].target_concept} shows up in median waiting minutes at peak occupancy.",
            )
            for r in context.unpack_rows
        ]
        value = MappingReviewOutput(
            systematicity=8, depth=6, higher_order_mapped=True, rationale="x", explanations=explanations
        )
        return StructuredResult(value, Usage(100, 20), 1)


async def test_only_tables_that_passed_the_rules_are_reviewed_and_order_is_kept() -> None:
    failed = _hypothesis(2, ROWS[:2])
    assert failed.gate.status is GateStatus.FAILED
    pool = [_hypothesis(1), failed, _hypothesis(3)]
    reviewer = Reviewer()
    result = await review_mapping_depth(reviewer, "p", FRAME, pool)
    assert reviewer.seen == ["h-1", "h-3"] and result.calls == 2 and result.reviewed == 2
    assert [h.id for h in result.hypotheses] == ["h-1", "h-2", "h-3"]
    assert result.hypotheses[1] == failed
    first = result.hypotheses[0]
    assert first.gate.rule_layer_score == pool[0].gate.mapping_score
    assert first.gate.unpack is not None and not first.gate.unpack.padding_suspected
    assert result.padding_suspected == () and result.usage == Usage(200, 40)


async def test_a_generic_explanation_is_padding_and_lowers_the_score() -> None:
    pool = [_hypothesis(1), _hypothesis(2)]
    result = await review_mapping_depth(Reviewer(generic={"h-2"}), "p", FRAME, pool)
    clean, padded = result.hypotheses
    assert result.padding_suspected == (HypothesisId("h-2"),)
    assert padded.gate.unpack is not None and len(padded.gate.unpack.unexplained) == 2
    assert padded.gate.mapping_score < clean.gate.mapping_score


async def test_a_failed_review_leaves_the_rule_layer_judgement() -> None:
    pool = [_hypothesis(1)]
    result = await review_mapping_depth(Reviewer(broken={"h-1"}), "p", FRAME, pool)
    assert result.hypotheses == (pool[0],) and result.reviewed == 0 and result.calls == 1


async def test_the_request_names_the_sampled_rows_and_the_table() -> None:
    pool = [replace(_hypothesis(1))]
    captured: list[StructuredRequest[Any]] = []

    class Capture(Reviewer):
        async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
            captured.append(request)
            return await super().generate(request)

    await review_mapping_depth(Capture(), "How to cut waits?", FRAME, pool)
    (request,) = captured
    context = request.offline_context
    assert isinstance(context, MappingReviewContext)
    assert f"Unpack rows: {', '.join(str(r) for r in context.unpack_rows)}" in request.input
    assert "3. [relation; group congestion] buffer (absorbs bursts) -> waiting room" in request.input

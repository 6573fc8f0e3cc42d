"""The mapping gate's model layer and unpack audit over a BISO pool (seed 000 §4.2.6).

Invariants:
    - Only hypotheses whose table passed every rule are reviewed (one structured call each, in parallel
      with bounded concurrency); the others keep their capped rule-layer score untouched.
    - The rows to unpack are chosen here, deterministically from the hypothesis id, and named in the
      request; whether a row was explained is judged by `core.mapping_model_layer`, not by the model.
    - A review call that fails leaves its hypothesis as the rule layer judged it (reported in
      `failed`), never blocks the stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from forge.core.domain_types import EngineStage
from forge.core.explore.mapping_model_layer import DepthReview, RowExplanation, audit_unpack, choose_unpack_rows
from forge.core.explore.mapping_quality_gate import judge_rows
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, Hypothesis, HypothesisId, with_model_layer
from forge.core.llm.messages import Usage
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink, run_structured_batch
from forge.ports import StructuredModel, StructuredRequest, StructuredResult

STAGE = EngineStage.MAPPING_REVIEW
REVIEW_INSTRUCTIONS = """You review the mapping table of a cross-domain hypothesis, as a strict referee.
- systematicity (0-10): do the rows form coherent relational systems (one causal story across several
  rows), or are they a list of unrelated correspondences?
- depth (0-10): are higher-order relations mapped — feedback loops, causal chains, constraints between
  relations — or only entities and attributes?
- higher_order_mapped: true only if at least one row maps a relation between relations.
- For EACH row named in "Unpack", say whether it supports the observable or a failure mode and explain
  how, concretely, naming the row's target concept and what is measured. If it supports neither, say
  so (supports=false): padding is worse than a short table."""


class RowExplanationOut(BaseModel):
    row: int = Field(ge=0, description="The row number, as numbered in the table.")
    supports: bool = Field(description="Does this row support the observable or a failure mode?")
    explanation: str = Field(description="How: name the row's target concept and what is measured.")


class MappingReviewOutput(BaseModel):
    systematicity: float = Field(ge=0, le=10, description="Coherence of the rows as relational systems, 0-10.")
    depth: float = Field(ge=0, le=10, description="Higher-order relations mapped, 0-10.")
    higher_order_mapped: bool = Field(description="True if at least one row maps a relation between relations.")
    rationale: str = Field(max_length=600, description="One or two sentences: why these scores.")
    explanations: list[RowExplanationOut] = Field(description="One entry per row named in Unpack.")


@dataclass(frozen=True, slots=True)
class MappingReviewContext:
    """What a deterministic reviewer works from."""

    hypothesis: Hypothesis
    unpack_rows: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ReviewedPool:
    hypotheses: tuple[Hypothesis, ...]  # same order as given
    reviewed: int
    failed: int
    padding_suspected: tuple[HypothesisId, ...]
    usage: Usage
    calls: int


def _table_text(h: Hypothesis) -> str:
    return "\n".join(
        f"{i}. [{r.mapping_type.value}; group {r.systematicity_group or '-'}] {r.source_concept} "
        f"({r.source_relation}) -> {r.target_concept} ({r.target_relation}); observable link: {r.observable_link}"
        for i, r in enumerate(h.mapping.rows)
    )


def review_request(
    problem: str, frame: ProblemFrame, h: Hypothesis, unpack_rows: tuple[int, ...]
) -> StructuredRequest[MappingReviewOutput]:
    text = (
        f"Problem: {problem}\nObjective: {frame.objective}\n\nHypothesis ({h.domain_name}: {h.structure}): "
        f"{h.statement}\nObservable: {h.observable}\nFailure modes: {' | '.join(h.failure_modes)}\n\n"
        f"Mapping table:\n{_table_text(h)}\n\nUnpack rows: {', '.join(str(r) for r in unpack_rows)}"
    )
    return StructuredRequest(
        name="record_mapping_review",
        purpose="Record the systematicity and depth of a mapping table and unpack the named rows.",
        instructions=REVIEW_INSTRUCTIONS,
        input=text,
        output=MappingReviewOutput,
        max_tokens=900,
        offline_context=MappingReviewContext(h, unpack_rows),
    )


def _downstream(h: Hypothesis) -> str:
    return " ".join((h.observable, *h.failure_modes))


def _effective_rows(h: Hypothesis) -> list[int]:
    """The rows the rule layer counted as effective (judged against what BISO judged them against)."""
    return [r.index for r in judge_rows(h.mapping, f"{h.statement} {_downstream(h)}") if r.effective]


def _apply(h: Hypothesis, rows: tuple[int, ...], out: MappingReviewOutput) -> Hypothesis:
    review = DepthReview(out.systematicity, out.depth, out.higher_order_mapped, out.rationale)
    explanations = [RowExplanation(e.row, e.supports, e.explanation) for e in out.explanations]
    return with_model_layer(h, review, audit_unpack(h.mapping, rows, explanations, _downstream(h)))


async def review_mapping_depth(
    model: StructuredModel,
    problem: str,
    frame: ProblemFrame,
    pool: Sequence[Hypothesis],
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
) -> ReviewedPool:
    passed = [h for h in pool if h.gate.status is GateStatus.PASSED]
    samples = {h.id: choose_unpack_rows(h.id, _effective_rows(h)) for h in passed}
    requests = [review_request(problem, frame, h, samples[h.id]) for h in passed]
    batch = await run_structured_batch(model, requests, stage=STAGE, concurrency=concurrency, progress=progress)
    reviewed: dict[HypothesisId, Hypothesis] = {}
    for h, outcome in zip(passed, batch.outcomes, strict=True):
        if isinstance(outcome, StructuredResult):
            reviewed[h.id] = _apply(h, samples[h.id], outcome.value)
    result = tuple(reviewed.get(h.id, h) for h in pool)
    padding = tuple(h.id for h in result if h.gate.unpack is not None and h.gate.unpack.padding_suspected)
    return ReviewedPool(result, len(reviewed), len(passed) - len(reviewed), padding, batch.usage, len(requests))

"""The mapping gate's model layer and unpack audit over a BISO pool (seed 000 §4.2.6), in batches.

Invariants:
    - Only hypotheses whose table passed every rule are reviewed, up to `REVIEW_BATCH` per structured
      call (the calls in parallel with bounded concurrency); the others keep their capped rule-layer
      score untouched. Each review's schema asks for the reasoning (row explanations, rationale)
      before the scores.
    - A batch answer is read by hypothesis id: an id the request did not name is ignored; an id
      answered twice with different reviews is ambiguous. The hypotheses a valid answer omitted or
      made ambiguous are asked again, once, in a repair call of their own; a score is never invented
      for a hypothesis nobody reviewed.
    - The rows to unpack are chosen here, deterministically from the hypothesis id, and named in the
      request; whether a row was explained is judged by `core.mapping_model_layer`, not by the model.
    - A review call that fails, or a hypothesis still unanswered after the repair, leaves the
      hypothesis as the rule layer judged it (counted in `failed`), never blocks the stage.
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
from forge.engine.language_rule import language_rule
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink, read_by_id, run_structured_batch
from forge.ports import StructuredModel, StructuredRequest, StructuredResult

STAGE = EngineStage.MAPPING_REVIEW
REVIEW_BATCH = 10  # hypotheses per review call
REVIEW_INSTRUCTIONS = """You review the mapping tables of cross-domain hypotheses, as a strict referee.
Give exactly one review per hypothesis, with its id as given. For each, reason first, then score:
- explanations: for EACH row named in "Unpack", explain how it supports the observable or a failure
  mode, concretely, naming the row's target concept and what is measured; then say whether it does
  (supports). If it supports neither, say so (supports=false): padding is worse than a short table.
- rationale: one or two sentences on the table as a whole, written before the scores.
- systematicity (0-10): do the rows form coherent relational systems (one causal story across several
  rows), or are they a list of unrelated correspondences?
- depth (0-10): are higher-order relations mapped — feedback loops, causal chains, constraints between
  relations — or only entities and attributes?
- higher_order_mapped: true only if at least one row maps a relation between relations."""


class RowExplanationOut(BaseModel):
    row: int = Field(ge=0, description="The row number, as numbered in the table.")
    explanation: str = Field(description="How: name the row's target concept and what is measured.")
    supports: bool = Field(description="Does this row support the observable or a failure mode?")


class MappingReviewOutput(BaseModel):
    """One hypothesis's review: the reasoning first, the scores after it."""

    hypothesis_id: str = Field(description="The id of the hypothesis reviewed, exactly as given.")
    explanations: list[RowExplanationOut] = Field(description="One entry per row named in its Unpack.")
    rationale: str = Field(max_length=600, description="One or two sentences: why the scores that follow.")
    systematicity: float = Field(ge=0, le=10, description="Coherence of the rows as relational systems, 0-10.")
    depth: float = Field(ge=0, le=10, description="Higher-order relations mapped, 0-10.")
    higher_order_mapped: bool = Field(description="True if at least one row maps a relation between relations.")


class MappingReviewsOutput(BaseModel):
    reviews: list[MappingReviewOutput] = Field(description="One review per hypothesis in the request.")


@dataclass(frozen=True, slots=True)
class MappingReviewContext:
    """What a deterministic reviewer works from, for one hypothesis."""

    hypothesis: Hypothesis
    unpack_rows: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MappingReviewBatch:
    """The hypotheses one review call is about, in the order the request lists them."""

    items: tuple[MappingReviewContext, ...]


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


def _hypothesis_text(item: MappingReviewContext) -> str:
    h = item.hypothesis
    return (
        f"## Hypothesis {h.id} ({h.domain_name}: {h.structure})\n{h.statement}\nObservable: {h.observable}\n"
        f"Failure modes: {' | '.join(h.failure_modes)}\n\nMapping table:\n{_table_text(h)}\n\n"
        f"Unpack rows: {', '.join(str(r) for r in item.unpack_rows)}"
    )


def review_request(
    problem: str, frame: ProblemFrame, items: Sequence[MappingReviewContext]
) -> StructuredRequest[MappingReviewsOutput]:
    ids = ", ".join(item.hypothesis.id for item in items)
    text = (
        f"Problem: {problem}\nObjective: {frame.objective}\n\nReview these {len(items)} hypotheses (ids: {ids}).\n\n"
        + "\n\n".join(_hypothesis_text(item) for item in items)
    )
    return StructuredRequest(
        name="record_mapping_reviews",
        purpose="Record, per hypothesis, the unpacked rows, then the systematicity and depth of its mapping table.",
        instructions=REVIEW_INSTRUCTIONS + language_rule("the problem"),
        input=text,
        output=MappingReviewsOutput,
        max_tokens=400 + 600 * len(items),  # one review: about 400 tokens; the single call asked 900
        offline_context=MappingReviewBatch(tuple(items)),
    )


def answers_by_id(
    asked: Sequence[HypothesisId], answer: MappingReviewsOutput
) -> dict[HypothesisId, MappingReviewOutput]:
    """The answer's reviews of the hypotheses asked about, read by id as VERIFY's items are
    (`structured_batch.read_by_id`)."""
    pairs = [(review.hypothesis_id, review) for review in answer.reviews]
    return {HypothesisId(key): review for key, review in read_by_id(asked, pairs).items()}


def _downstream(h: Hypothesis) -> str:
    return " ".join((h.observable, *h.failure_modes))


def _effective_rows(h: Hypothesis) -> list[int]:
    """The rows the rule layer counted as effective (judged against what BISO judged them against)."""
    return [r.index for r in judge_rows(h.mapping, f"{h.statement} {_downstream(h)}") if r.effective]


def _apply(item: MappingReviewContext, out: MappingReviewOutput) -> Hypothesis:
    h = item.hypothesis
    review = DepthReview(out.systematicity, out.depth, out.higher_order_mapped, out.rationale)
    explanations = [RowExplanation(e.row, e.supports, e.explanation) for e in out.explanations]
    return with_model_layer(h, review, audit_unpack(h.mapping, item.unpack_rows, explanations, _downstream(h)))


@dataclass(slots=True)
class _Pass:
    """One pass of review calls: the reviews read, the hypotheses a valid answer left unanswered."""

    answers: dict[HypothesisId, MappingReviewOutput]
    unanswered: list[MappingReviewContext]
    usage: Usage
    calls: int


async def _review_pass(
    model: StructuredModel,
    problem: str,
    frame: ProblemFrame,
    items: Sequence[MappingReviewContext],
    concurrency: int,
    progress: ProgressSink | None,
) -> _Pass:
    groups = [items[i : i + REVIEW_BATCH] for i in range(0, len(items), REVIEW_BATCH)]
    requests = [review_request(problem, frame, group) for group in groups]
    batch = await run_structured_batch(model, requests, stage=STAGE, concurrency=concurrency, progress=progress)
    result = _Pass({}, [], batch.usage, len(requests))
    for group, outcome in zip(groups, batch.outcomes, strict=True):
        if not isinstance(outcome, StructuredResult):
            continue  # a failed call: its hypotheses keep the rule layer's judgement
        read = answers_by_id([item.hypothesis.id for item in group], outcome.value)
        result.answers.update(read)
        result.unanswered += [item for item in group if item.hypothesis.id not in read]
    return result


async def review_mapping_depth(
    model: StructuredModel,
    problem: str,
    frame: ProblemFrame,
    pool: Sequence[Hypothesis],
    *,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
) -> ReviewedPool:
    items = [
        MappingReviewContext(h, choose_unpack_rows(h.id, _effective_rows(h)))
        for h in pool
        if h.gate.status is GateStatus.PASSED
    ]
    first = await _review_pass(model, problem, frame, items, concurrency, progress)
    answers, usage, calls = first.answers, first.usage, first.calls
    if first.unanswered:  # the repair: only the hypotheses a valid answer omitted or made ambiguous
        repair = await _review_pass(model, problem, frame, first.unanswered, concurrency, progress)
        answers, usage, calls = {**answers, **repair.answers}, usage + repair.usage, calls + repair.calls
    reviewed = {
        item.hypothesis.id: _apply(item, answers[item.hypothesis.id]) for item in items if item.hypothesis.id in answers
    }
    result = tuple(reviewed.get(h.id, h) for h in pool)
    padding = tuple(h.id for h in result if h.gate.unpack is not None and h.gate.unpack.padding_suspected)
    return ReviewedPool(result, len(reviewed), len(items) - len(reviewed), padding, usage, calls)

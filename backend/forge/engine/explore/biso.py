"""BISO (seed 000 §4.1): for each selected source domain, in parallel, a few hypotheses that carry
one of the domain's structures onto the framed problem, each with a mapping table, an observable and
failure modes; then the mapping-quality gate per hypothesis and near-duplicates merged.

Invariants:
    - One structured call per domain (asking for `per_domain` hypotheses), fanned out through
      `run_structured_batch` with bounded concurrency; a domain whose call fails is reported in
      `failed_domains` with the reason, and the others still count.
    - Hypothesis ids are `biso-<round>-<domain id>-<n>`: stable for a session's round, so a
      resumed run that repeats the stage writes the same ids.
    - Every hypothesis carries its gate summary (rule layer, computed here, never by the model); the
      kept hypotheses whose table passed then get the model layer and unpack audit
      (`review_mapping_depth`, up to 8 tables per call), which counts toward the stage's calls and usage.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Self

from pydantic import BaseModel, Field, model_validator

from forge.core.domain_types import EngineStage
from forge.core.explore.library_records import SourceDomain
from forge.core.explore.mapping_quality_gate import (
    MIN_EFFECTIVE_ROWS,
    MIN_GROUP_SIZE,
    MIN_MAPPING_TYPES,
    MappingRow,
    MappingTable,
    MappingType,
)
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis, HypothesisId, gate_summary, merge_near_duplicates
from forge.core.llm.messages import Usage
from forge.engine.explore.biso_worked_examples import worked_example
from forge.engine.explore.review_mapping_depth import review_mapping_depth
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink, run_structured_batch
from forge.ports import StructuredModel, StructuredRequest, StructuredResult

STAGE = EngineStage.BISO
BISO_INSTRUCTIONS = f"""You transfer structure from a distant source domain onto a framed problem (bisociation).
For each hypothesis:
- Pick one structure of the source domain and say how its mechanism would work on the target.
- statement: one or two sentences a practitioner could act on; no metaphor without mechanism.
- mapping: at least {MIN_EFFECTIVE_ROWS} rows, each mapping a source concept and its relation onto a target concept
  and its relation. Use at least {MIN_MAPPING_TYPES} mapping types (entity, attribute, relation, higher_order); put
  the >= {MIN_GROUP_SIZE} rows that form one causal story in the same systematicity_group; give every row an
  observable_link (what you would measure on the target to see that row hold). No padding: each row must
  add something the others do not say.
- observable: a measurable quantity (a formula or a proxy) that would move if the hypothesis is right.
- failure_modes: when the analogy breaks on this target (at least one, concrete).
Respect every hard constraint of the frame. Write in the language of the problem."""
DECLINE_INSTRUCTIONS = """

Up to the number asked, and each hypothesis from a DIFFERENT structure of the source domain (name it in
`structure`): never two hypotheses from one structure. Fewer is fine, and so is none: when no structure of
this domain carries a real mechanism onto the target, return an empty `hypotheses` list and say why in
`decline_reason`. A declined domain is counted, not held against you; a forced analogy is padding."""


class MappingRowOut(BaseModel):
    source_concept: str = Field(description="A concept of the source domain.")
    source_relation: str = Field(min_length=1, description="What that concept does or how it relates, in the source.")
    target_concept: str = Field(description="The corresponding concept in the target problem.")
    target_relation: str = Field(min_length=1, description="The corresponding relation in the target problem.")
    mapping_type: MappingType = Field(description="entity, attribute, relation or higher_order.")
    systematicity_group: str = Field(default="", description="Rows of one causal story share a group name.")
    observable_link: str = Field(min_length=1, description="What to measure on the target to see this row hold.")


class HypothesisDraft(BaseModel):
    title: str = Field(max_length=80, description="A short, distinct title (at most 80 characters).")
    structure: str = Field(description="The name of the source structure used.")
    statement: str = Field(min_length=20, description="The hypothesis, actionable, in one or two sentences.")
    mechanism: str = Field(description="Why it would work on the target: the causal mechanism.")
    mapping: list[MappingRowOut] = Field(
        min_length=MIN_EFFECTIVE_ROWS, description=f"The mapping table, at least {MIN_EFFECTIVE_ROWS} rows."
    )
    observable: str = Field(min_length=3, description="A measurable quantity that moves if the hypothesis holds.")
    failure_modes: list[str] = Field(min_length=1, description="When the analogy breaks on this target.")


class BisoOutput(BaseModel):
    hypotheses: list[HypothesisDraft] = Field(
        default_factory=list,
        description="Up to the number asked, each from a different structure; empty when the domain does not fit.",
    )
    decline_reason: str = Field(
        default="",
        max_length=600,
        description="Only with no hypotheses: why no structure of this domain carries a mechanism onto the target.",
    )

    @model_validator(mode="after")
    def _a_decline_says_why(self) -> Self:
        if not self.hypotheses and len(self.decline_reason.strip()) < 10:
            raise ValueError("no hypotheses: say in decline_reason why this domain does not fit the target")
        return self


@dataclass(frozen=True, slots=True)
class BisoContext:
    """The typed inputs of one domain's request, for deterministic generators."""

    problem: str
    frame: ProblemFrame
    domain: SourceDomain
    per_domain: int


@dataclass(frozen=True, slots=True)
class DomainFailure:
    domain_id: str
    message: str


@dataclass(frozen=True, slots=True)
class DomainDecline:
    domain_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class BisoRun:
    hypotheses: tuple[Hypothesis, ...]  # after near-duplicates were merged
    generated: int  # before merging
    failed_domains: tuple[DomainFailure, ...]
    usage: Usage
    calls: int
    reviewed: int = 0  # hypotheses whose passed table the model layer reviewed
    padding_suspected: tuple[HypothesisId, ...] = ()
    declined: tuple[DomainDecline, ...] = ()  # domains the model said do not fit, with its reason
    repeated_structures: int = 0  # drafts dropped for reusing a structure another draft of the domain used


def frame_text(frame: ProblemFrame) -> str:
    lines = [f"Objective: {frame.objective}", f"Target: {frame.target_object} -> {frame.target_outcome}"]
    lines += [f"Hard constraint: {c}" for c in frame.hard_constraints]
    lines += [f"Soft constraint: {c}" for c in frame.soft_constraints]
    lines += [f"Success criterion: {c}" for c in frame.success_criteria]
    return "\n".join(lines)


def domain_text(domain: SourceDomain) -> str:
    lines = [f"Source domain: {domain.name} — {domain.summary}"]
    for structure in domain.structures:
        lines += [
            f"- Structure: {structure.name}: {structure.source_relation}",
            f"  Mechanism: {structure.mechanism}",
            f"  Key variables: {', '.join(structure.key_variables)}",
            f"  Observables: {', '.join(structure.typical_observables)}",
            f"  Failure modes: {' '.join(structure.failure_modes)}",
        ]
    return "\n".join(lines)


def biso_request(
    problem: str, frame: ProblemFrame, domain: SourceDomain, per_domain: int
) -> StructuredRequest[BisoOutput]:
    return StructuredRequest(
        name="record_biso_hypotheses",
        purpose=f"Record up to {per_domain} hypotheses transferred from {domain.name}, or decline the domain.",
        instructions=f"{BISO_INSTRUCTIONS}{DECLINE_INSTRUCTIONS}\n\n{worked_example(problem, frame)}",
        input=f"Problem:\n{problem}\n\n{frame_text(frame)}\n\n{domain_text(domain)}\n\n"
        f"Give up to {per_domain} hypotheses, each from a different structure, or none with a decline_reason.",
        output=BisoOutput,
        max_tokens=1500 * per_domain,
        offline_context=BisoContext(problem, frame, domain, per_domain),
    )


def hypothesis_from_draft(
    draft: HypothesisDraft, domain: SourceDomain, hypothesis_id: HypothesisId, round_: int
) -> Hypothesis:
    rows = tuple(MappingRow(**row.model_dump()) for row in draft.mapping)
    mapping = MappingTable(rows)
    downstream = " ".join((draft.statement, draft.observable, *draft.failure_modes))
    return Hypothesis(
        id=hypothesis_id,
        domain_id=domain.id,
        domain_name=domain.name,
        structure=draft.structure,
        title=draft.title,
        statement=draft.statement,
        mechanism=draft.mechanism,
        mapping=mapping,
        observable=draft.observable,
        failure_modes=tuple(draft.failure_modes),
        gate=gate_summary(mapping, downstream),
        round=round_,
    )


async def run_biso(
    model: StructuredModel,
    problem: str,
    frame: ProblemFrame,
    domains: Sequence[SourceDomain],
    *,
    per_domain: int = 3,
    round_: int = 0,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
    alongside_review: Callable[[Sequence[Hypothesis]], Awaitable[None]] | None = None,
) -> BisoRun:
    """`alongside_review`, if given, runs over the merged pool while the generator reviews its tables
    (the caller's judgments that need only the hypotheses' own material, e.g. the verifier's scores)."""
    requests = [biso_request(problem, frame, domain, per_domain) for domain in domains]
    batch = await run_structured_batch(model, requests, stage=STAGE, concurrency=concurrency, progress=progress)
    generated: list[Hypothesis] = []
    failures: list[DomainFailure] = []
    declines: list[DomainDecline] = []
    repeated = 0
    for domain, outcome in zip(domains, batch.outcomes, strict=True):
        if not isinstance(outcome, StructuredResult):
            failures.append(DomainFailure(domain.id, outcome.message))
            continue
        if not outcome.value.hypotheses:
            declines.append(DomainDecline(domain.id, outcome.value.decline_reason.strip()))
            continue
        drafts = distinct_structures(outcome.value.hypotheses)
        repeated += len(outcome.value.hypotheses) - len(drafts)
        for n, draft in enumerate(drafts[:per_domain], start=1):
            generated.append(
                hypothesis_from_draft(draft, domain, HypothesisId(f"biso-{round_}-{domain.id}-{n}"), round_)
            )
    merged = merge_near_duplicates(generated)
    reviewing = review_mapping_depth(model, problem, frame, merged, concurrency=concurrency, progress=progress)
    if alongside_review is None:
        review = await reviewing
    else:
        review, _ = await asyncio.gather(reviewing, alongside_review(merged))
    return BisoRun(
        review.hypotheses,
        len(generated),
        tuple(failures),
        batch.usage + review.usage,
        len(requests) + review.calls,
        review.reviewed,
        review.padding_suspected,
        tuple(declines),
        repeated,
    )


def distinct_structures(drafts: Sequence[HypothesisDraft]) -> list[HypothesisDraft]:
    """The drafts in order, without one that reuses a structure an earlier draft used (a second
    hypothesis from one structure is a variant, not a different transfer)."""
    seen: set[str] = set()
    kept: list[HypothesisDraft] = []
    for draft in drafts:
        key = " ".join(draft.structure.casefold().split())
        if key not in seen:
            seen.add(key)
            kept.append(draft)
    return kept

"""Exploring the source domains the person suggested (issue 11 item 4): a suggestion that names a
shipped domain gets a BISO run on it; one that names none is described on the fly by the model (its
structures, mechanisms, observables — a `SourceDomain` record) and then gets a BISO run; when the
model cannot describe it (the offline one cannot describe any), the closest shipped domain is
explored instead and the note says so; with nothing close, it stays unexplored with a note in plain
words (never the model's internal failure text).

Invariants:
    - One outcome per suggestion (`core.suggested_domains.SuggestionOutcome`); nothing is retried.
      An explored one carries its best hypotheses (`candidates`), which the briefs offer.
    - A library domain already explored in this round is not explored again (its hypotheses are in
      the pool; ids would collide): its outcome says so and counts what it gave.
    - A generated domain's id is `suggested-<slug>` and its record says it was generated, so the
      pool, the review and the document never pass it off as shipped knowledge.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from forge.core.domain_types import EngineStage
from forge.core.explore.library_records import DomainVariable, ScienceField, SourceDomain, Structure, StructureTransfer
from forge.core.explore.suggested_domains import (
    SuggestionOutcome,
    SuggestionSource,
    closest_domain,
    match_suggestion,
    not_in_library,
)
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.hypotheses.pool_candidates import PER_SUGGESTION, top_candidates
from forge.core.llm.messages import Usage
from forge.engine.explore.biso import frame_text, run_biso
from forge.engine.language_rule import language_rule
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink, run_structured_batch
from forge.ports import StructuredModel, StructuredRequest, StructuredResult

STAGE = EngineStage.SUGGESTED_DOMAINS
DESCRIBE_INSTRUCTIONS = """Describe a scientific or engineering source domain so that its structures can be
carried onto a problem by analogy. Be accurate and specific to the domain: name real mechanisms, variables
and observables from its literature (with a reference a reader could look up), not the problem's own words.
Give 3 to 5 distinct structures; each is a mechanism with its key variables, how it evolves over time,
what one measures to see it, and when it fails."""
GENERATED_NOTE = "described on the fly by the model (not in the shipped library)"


class StructureOut(BaseModel):
    name: str = Field(max_length=120, description="The structure's name, as the domain calls it.")
    source_relation: str = Field(description="The relation it is about, in one sentence.")
    mechanism: str = Field(description="How it works: the causal mechanism.")
    key_variables: list[str] = Field(min_length=1, max_length=8, description="Its key variables.")
    dynamics: str = Field(description="How it evolves over time.")
    typical_observables: list[str] = Field(min_length=1, max_length=6, description="What one measures.")
    failure_modes: list[str] = Field(min_length=1, max_length=4, description="When it stops holding.")
    references: list[str] = Field(default_factory=list, max_length=4, description="Where to read about it.")


class DomainOut(BaseModel):
    name: str = Field(max_length=120, description="The domain's usual name.")
    field: ScienceField = Field(description="physical, biological, social, formal or engineering.")
    summary: str = Field(max_length=600, description="What the domain studies, in one or two sentences.")
    structures: list[StructureOut] = Field(min_length=3, max_length=5)


@dataclass(frozen=True, slots=True)
class SuggestedExploration:
    outcomes: tuple[SuggestionOutcome, ...]
    hypotheses: tuple[Hypothesis, ...]
    usage: Usage
    calls: int


def describe_request(suggestion: str, problem: str, frame: ProblemFrame) -> StructuredRequest[DomainOut]:
    return StructuredRequest(
        name="record_source_domain",
        purpose=f"Describe the source domain '{suggestion}' with 3-5 of its structures.",
        instructions=DESCRIBE_INSTRUCTIONS + language_rule("the problem"),
        input=f"Domain to describe: {suggestion}\n\nIt will be carried onto this problem:\n{problem}\n{frame_text(frame)}",
        output=DomainOut,
        max_tokens=3000,
        offline_context=suggestion,
    )


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "domain"


def domain_from_description(out: DomainOut, suggestion: str) -> SourceDomain:
    structures = tuple(
        Structure(
            s.name,
            s.source_relation,
            s.mechanism,
            tuple(s.key_variables),
            s.dynamics,
            tuple(s.typical_observables),
            tuple(s.failure_modes),
            tuple(s.references),
            StructureTransfer("", "", ""),  # templates serve the offline model only
        )
        for s in out.structures
    )
    variables = tuple(DomainVariable(v, "") for s in out.structures for v in s.key_variables[:2])
    return SourceDomain(
        f"suggested-{_slug(suggestion)}",
        out.name,
        out.field,
        f"{out.summary} ({GENERATED_NOTE})",
        (),
        variables,
        structures,
    )


async def _describe(
    model: StructuredModel, names: Sequence[str], problem: str, frame: ProblemFrame, concurrency: int
) -> tuple[dict[str, SourceDomain | str], Usage, int]:
    """Each unknown suggestion's generated domain, or why there is none."""
    requests = [describe_request(n, problem, frame) for n in names]
    batch = await run_structured_batch(model, requests, stage=STAGE, concurrency=concurrency)
    described: dict[str, SourceDomain | str] = {}
    for name, outcome in zip(names, batch.outcomes, strict=True):
        described[name] = (
            domain_from_description(outcome.value, name) if isinstance(outcome, StructuredResult) else outcome.message
        )
    return described, batch.usage, len(requests)


NEAREST_NOTE = "not in the shipped library and the model could not describe it, so the closest shipped domain"


def _outcome(
    name: str, target: SourceDomain | str, note: str, produced: Sequence[Hypothesis], round_: int
) -> SuggestionOutcome:
    if isinstance(target, str):
        return SuggestionOutcome(name, SuggestionSource.NONE, round=round_, note=target)
    mine = [h for h in produced if h.domain_id == target.id]
    source = SuggestionSource.GENERATED if note == GENERATED_NOTE else SuggestionSource.LIBRARY
    best = top_candidates(mine, PER_SUGGESTION)
    return SuggestionOutcome(name, source, target.id, target.name, len(mine), round_, note, best)


def _already(name: str, domain: SourceDomain, count: int, round_: int) -> SuggestionOutcome:
    note = "from the library; already explored in this round's BISO"
    return SuggestionOutcome(name, SuggestionSource.LIBRARY, domain.id, domain.name, count, round_, note)


def _undescribed(
    described: Mapping[str, SourceDomain | str], library: Sequence[SourceDomain]
) -> dict[str, SourceDomain | str]:
    """Each suggestion the model could not describe: the closest shipped domain, or why there is none."""
    nearest = {n: closest_domain(n, library) for n, d in described.items() if isinstance(d, str)}
    return {n: d if d is not None else not_in_library(n, len(library)) for n, d in nearest.items()}


async def explore_suggested_domains(
    model: StructuredModel,
    problem: str,
    frame: ProblemFrame,
    library: Sequence[SourceDomain],
    suggestions: Sequence[str],
    *,
    explored_this_round: Mapping[str, int],
    per_domain: int = 3,
    round_: int = 0,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
) -> SuggestedExploration:
    """`explored_this_round`: library domain id -> hypotheses it already gave in this round's BISO."""
    matched: dict[str, SourceDomain | None] = {name: match_suggestion(name, library) for name in suggestions}
    unknown = [n for n, d in matched.items() if d is None]
    described, usage, calls = (
        await _describe(model, unknown, problem, frame, concurrency) if unknown else ({}, Usage(), 0)
    )
    fallback = _undescribed(described, library)
    notes = {n: GENERATED_NOTE for n, d in described.items() if isinstance(d, SourceDomain)}
    notes |= {n: NEAREST_NOTE for n, d in fallback.items() if isinstance(d, SourceDomain)}
    resolved: dict[str, SourceDomain | str] = {n: d for n, d in matched.items() if d is not None}
    resolved |= described | fallback
    already = {n: d for n, d in resolved.items() if isinstance(d, SourceDomain) and d.id in explored_this_round}
    resolved = {n: d for n, d in resolved.items() if n not in already}
    to_explore = list({d.id: d for d in resolved.values() if isinstance(d, SourceDomain)}.values())
    produced: tuple[Hypothesis, ...] = ()
    if to_explore:
        run = await run_biso(
            model,
            problem,
            frame,
            to_explore,
            per_domain=per_domain,
            round_=round_,
            concurrency=concurrency,
            progress=progress,
        )
        produced, usage, calls = run.hypotheses, usage + run.usage, calls + run.calls
        resolved |= {
            n: f"no hypotheses: {f.message}"
            for f in run.failed_domains
            for n, d in resolved.items()
            if isinstance(d, SourceDomain) and d.id == f.domain_id
        }
        resolved |= {
            n: f"declined as not fitting: {decline.reason}"
            for decline in run.declined
            for n, d in resolved.items()
            if isinstance(d, SourceDomain) and d.id == decline.domain_id
        }
    outcomes = tuple(
        _already(n, already[n], explored_this_round[already[n].id], round_)
        if n in already
        else _outcome(n, resolved[n], notes.get(n, "from the library"), produced, round_)
        for n in suggestions
    )
    return SuggestedExploration(outcomes, produced, usage, calls)

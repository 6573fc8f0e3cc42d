"""Stage B of source-domain selection (seed 000 §7 stage 3) by a model: before the diversity pick,
one call judges whether each shortlisted domain can plausibly map onto the target — a structure of
it that could become a concrete, testable mechanism for this problem.

Invariants:
    - One structured call for the whole shortlist (`core.explore.select_source_domains.shortlist_domains`);
      the reason is asked before the verdict.
    - A verdict for a domain not on the shortlist is ignored; a shortlisted domain the model left out
      stays unassessed (kept), never guessed infeasible.
    - A failed call returns no verdicts and its message: the caller keeps today's ranker and says so.
    - Offline nothing is asked (mapping potential needs a model): the selection is the ranker's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from pydantic import BaseModel, Field

from forge.core.domain_types import EngineStage
from forge.core.explore.library_records import SourceDomain
from forge.core.explore.select_source_domains import Feasibility, FeasibilityVerdict
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.llm.messages import Usage
from forge.engine.structured_batch import run_structured_batch
from forge.ports import StructuredModel, StructuredRequest, StructuredResult

FEASIBILITY_INSTRUCTIONS = """You judge source domains for cross-domain analogies (BISO) on a problem.
A domain is FEASIBLE when at least one of its structures could plausibly map onto the problem's target
and yield a concrete mechanism that could be tested there; it is INFEASIBLE when none could (the
mapping would be only a metaphor, or the domain is the problem's own field, so nothing new would map).
Distance is wanted: do not reject a domain because it is far from the problem. For every domain listed,
first write one short line of reason, at most 15 words (which structure could map, onto what, or why none
could), then the verdict. Write the reason in the language of the problem."""


class DomainVerdict(str, Enum):
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"


class DomainJudgement(BaseModel):
    domain_id: str = Field(description="The id in brackets of the domain judged.")
    reason: str = Field(
        min_length=3, description="One short line (at most 15 words): which structure could map onto what, or why none."
    )
    verdict: DomainVerdict = Field(description="feasible or infeasible, decided after the reason.")


class DomainFeasibilityOutput(BaseModel):
    judgements: list[DomainJudgement] = Field(description="One judgement per domain listed.")


@dataclass(frozen=True, slots=True)
class FeasibilityRequest:
    """What the call judges (the offline generator reads it as its context)."""

    problem: str
    frame: ProblemFrame | None
    shortlist: tuple[SourceDomain, ...]


@dataclass(frozen=True, slots=True)
class FeasibilityJudged:
    verdicts: dict[str, FeasibilityVerdict]
    usage: Usage
    failure: str = ""  # the failed call's message ("" when the call answered)


def feasibility_request(asked: FeasibilityRequest) -> StructuredRequest[DomainFeasibilityOutput]:
    frame = asked.frame
    lines = [f"Problem: {asked.problem}"]
    if frame is not None:
        lines += [f"Objective: {frame.objective}", f"Target: {frame.target_object} → {frame.target_outcome}"]
        lines += [f"Hard constraint: {c}" for c in frame.hard_constraints]
    lines += ["", "Source domains:"]
    for d in asked.shortlist:
        structures = "; ".join(s.name for s in d.structures[:4])
        lines.append(f"[{d.id}] {d.name} ({d.field.value}): {d.summary} Structures: {structures}.")
    return StructuredRequest(
        name="record_domain_feasibility",
        purpose="Record, for each source domain, whether it can map onto the problem's target, and why.",
        instructions=FEASIBILITY_INSTRUCTIONS,
        input="\n".join(lines),
        output=DomainFeasibilityOutput,
        max_tokens=min(8000, 300 + 60 * len(asked.shortlist)),
        offline_context=asked,
    )


def _verdicts(shortlist: Sequence[SourceDomain], output: DomainFeasibilityOutput) -> dict[str, FeasibilityVerdict]:
    ids = {d.id for d in shortlist}
    verdicts: dict[str, FeasibilityVerdict] = {}
    for j in output.judgements:
        if j.domain_id in ids and j.domain_id not in verdicts:
            kind = Feasibility.FEASIBLE if j.verdict is DomainVerdict.FEASIBLE else Feasibility.INFEASIBLE
            verdicts[j.domain_id] = FeasibilityVerdict(j.domain_id, kind, " ".join(j.reason.split()))
    return verdicts


async def judge_feasibility(model: StructuredModel, asked: FeasibilityRequest) -> FeasibilityJudged:
    if not asked.shortlist:
        return FeasibilityJudged({}, Usage())
    # one request through the batch runner: an outage becomes a StructuredFailure, as in every stage
    batch = await run_structured_batch(model, [feasibility_request(asked)], stage=EngineStage.BISO)
    (outcome,) = batch.outcomes
    if not isinstance(outcome, StructuredResult):
        return FeasibilityJudged({}, outcome.usage, outcome.message)
    return FeasibilityJudged(_verdicts(asked.shortlist, outcome.value), outcome.usage)

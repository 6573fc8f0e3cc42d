"""One SEARCH round (seed 000 §4.2.1): select seeds from the pool (mapping gate + MOME/Pareto), plan the
operator applications under the runtime profile's quotas, ground the HKG operators on the
hypergraph, run the model calls as one bounded batch (plus one batch of Transform Gate logic checks),
and turn the answers into gated child hypotheses with their lineage.

Invariants:
    - The pool is read, never changed: the round returns the children; the caller adds them.
    - Child ids are `search-<round>-<n>-<operator>` (`search-<round>-d<k>-<n>-<operator>` for the k-th
      SEARCH round of a session round, k ≥ 2) with n the application's place in the plan, so the
      same pool, round, depth and profile give the same ids (a repeated stage rewrites, not duplicates).
    - Seeds come from the whole pool it is given (earlier rounds' children included), minus the
      hypotheses in `expanded`: a later round never re-expands a seed of an earlier one.
    - A failed call or a refused answer costs its application only: it is listed in `failures` and
      the rest still count. An HKG application whose traversal found no path is counted in
      `ungrounded` and makes no call and no child.
    - Every transform proposal ends ACCEPTED (its child joins the pool) or REJECTED (an audit record
      in `transforms`, never a pool hypothesis).
    - With a hypergraph, every child carries `structural_grounding` (its own terms → the frame's).
    - Children that are near-duplicates of each other are merged (as BISO's are); a child is never
      merged into its parent: a refinement is meant to be close to what it refines.
    - `operators` counts the children made per operator; `degraded` and `skipped` come from the plan.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from forge.core.domain_types import EngineStage
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis, HypothesisId, merge_near_duplicates
from forge.core.llm.messages import Usage
from forge.core.search.concept_space import ConceptSpace, derive_concept_space
from forge.core.search.plan import (
    PROFILES,
    OperatorApplication,
    RuntimeProfile,
    SearchOperator,
    plan_search_round,
)
from forge.core.search.seeds import SeedSelection, SelectionMethod, select_search_seeds
from forge.core.search.transform_gate import TransformRecord, TransformStatus, close_gate
from forge.core.selection.composite_score import ScoreVector
from forge.engine.search.application_spec import PendingTransform, Prepared
from forge.engine.search.applications import finish_application, prepare_applications
from forge.engine.search.structural_operators import grounding_request
from forge.engine.search.transform_space import LogicCheckOutput, logic_check_request, transform_child, verdict_of
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, ProgressSink, run_structured_batch
from forge.ports import StructuralGrounding, StructuredModel, StructuredResult

STAGE = EngineStage.SEARCH


@dataclass(frozen=True, slots=True)
class ApplicationFailure:
    operator: SearchOperator
    parents: tuple[HypothesisId, ...]
    message: str


@dataclass(frozen=True, slots=True)
class SearchRound:
    selection: SeedSelection
    plan: tuple[OperatorApplication, ...]
    children: tuple[Hypothesis, ...]  # after near-duplicates among them were merged
    operators: Mapping[str, int]  # children made per operator
    degraded: int
    skipped: int
    failures: tuple[ApplicationFailure, ...]
    usage: Usage
    calls: int
    transforms: tuple[TransformRecord, ...] = ()  # every proposal with the gate's decision
    ungrounded: int = 0  # HKG applications whose traversal found no path (no call, no evidence)
    concept_space: str = ""  # the name of the concept space transform_space worked on
    hkg_paths: Mapping[str, int] = field(default_factory=dict)  # HKG outcomes by status


@dataclass
class _Collected:
    children: list[Hypothesis] = field(default_factory=list)
    failures: list[ApplicationFailure] = field(default_factory=list)
    pending: list[PendingTransform] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    calls: int = 0

    def fail(self, prepared: Prepared, message: str) -> None:
        self.failures.append(ApplicationFailure(prepared.application.operator, prepared.application.parents, message))


async def run_search_round(
    model: StructuredModel,
    pool: Sequence[Hypothesis],
    frame: ProblemFrame,
    profile: RuntimeProfile = RuntimeProfile.INTERACTIVE,
    quotas: Mapping[SearchOperator, int] | None = None,
    *,
    problem: str = "",
    round_: int = 0,
    depth: int = 0,
    expanded: Collection[HypothesisId] = (),
    weights: Mapping[str, float] | None = None,
    method: SelectionMethod = SelectionMethod.MOME,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
    grounding: StructuralGrounding | None = None,
    space: ConceptSpace | None = None,
    verifier: StructuredModel | None = None,
    judged: Mapping[str, ScoreVector] | None = None,
) -> SearchRound:
    """`grounding` is the HKG (without it, HKG applications make nothing); `space` the target domain's
    concept space (derived from the frame when None); `verifier` runs the Transform Gate's logic
    check (the generator when None). `depth` is the SEARCH round inside the session round (its
    children's ids say it); `expanded` the seeds earlier rounds of this session round already
    expanded (not selected again); `weights` SAGA's composite weights for the selection; `judged` the
    verifier's five scores by hypothesis id (word rules for the others)."""
    settings = PROFILES[profile]
    skip = set(expanded)
    candidates = [h for h in pool if h.id not in skip]
    selection = select_search_seeds(candidates, frame, settings.top_n, method, weights, judged)
    by_id = {h.id: h for h in pool}
    plan = plan_search_round(selection.seeds, settings, quotas, {s: by_id[s].domain_id for s in selection.seeds})
    space = space or derive_concept_space(frame)
    prepared = await prepare_applications(
        plan.applications,
        by_id,
        problem=problem or frame.objective,
        frame=frame,
        grounding=grounding,
        space=space,
        round_=round_,
        depth=depth,
    )
    collected = await _run_applications(model, prepared, space, concurrency, progress)
    transforms = await _close_gates(verifier or model, collected, space, concurrency)
    children = await _grounded(merge_near_duplicates(collected.children), frame, grounding)
    traces = [p.trace for p in prepared if p.trace is not None]
    return SearchRound(
        selection,
        plan.applications,
        tuple(children),
        dict(Counter(c.operator for c in children)),
        plan.degraded,
        plan.skipped,
        tuple(collected.failures),
        collected.usage,
        collected.calls,
        transforms,
        sum(1 for t in traces if not t.grounded),
        space.name,
        dict(Counter(t.status.event_name for t in traces)),
    )


async def _run_applications(
    model: StructuredModel,
    prepared: Sequence[Prepared],
    space: ConceptSpace,
    concurrency: int,
    progress: ProgressSink | None,
) -> _Collected:
    """One batch over the applications that ask something; each answer collected by what it becomes."""
    asked = [p for p in prepared if p.request is not None]
    requests = [p.request for p in asked if p.request is not None]
    batch = await run_structured_batch(model, requests, stage=STAGE, concurrency=concurrency, progress=progress)
    collected = _Collected(usage=batch.usage, calls=len(asked))
    for item, outcome in zip(asked, batch.outcomes, strict=True):
        if isinstance(outcome, StructuredResult):
            _collect(collected, item, finish_application(item, outcome.value, space))
        else:
            collected.fail(item, outcome.message)
    return collected


def _collect(collected: _Collected, item: Prepared, result: Hypothesis | str | PendingTransform) -> None:
    if isinstance(result, Hypothesis):
        collected.children.append(result)
    elif isinstance(result, PendingTransform):
        collected.pending.append(result)
    else:
        collected.fail(item, result)


async def _close_gates(
    verifier: StructuredModel, collected: _Collected, space: ConceptSpace, concurrency: int
) -> tuple[TransformRecord, ...]:
    """Logic-check the proposals the audit let through, close every gate, keep accepted children."""
    checked = [p for p in collected.pending if not p.audit]
    requests = [logic_check_request(p.prepared.parents[0], space, p.proposal, p.output.hypothesis) for p in checked]
    batch = await run_structured_batch(verifier, requests, stage=STAGE, concurrency=concurrency)
    collected.usage, collected.calls = collected.usage + batch.usage, collected.calls + len(requests)
    verdicts = {
        p.proposal_id: verdict_of(o.value)
        for p, o in zip(checked, batch.outcomes, strict=True)
        if isinstance(o, StructuredResult) and isinstance(o.value, LogicCheckOutput)
    }
    records = []
    for pending in collected.pending:
        parent = pending.prepared.parents[0]
        record = close_gate(
            pending.proposal_id, parent.id, space, pending.proposal, pending.audit, verdicts.get(pending.proposal_id)
        )
        records.append(record)
        if record.status is TransformStatus.ACCEPTED:
            child = transform_child(
                pending.output.hypothesis,
                pending.prepared.parents,
                record,
                pending.prepared.child_id,
                pending.prepared.round_,
            )
            collected.children.append(child)
    return tuple(records)


async def _grounded(
    children: Sequence[Hypothesis], frame: ProblemFrame, grounding: StructuralGrounding | None
) -> list[Hypothesis]:
    """Each child's structural grounding score (its own terms → the frame's), where not set yet."""
    if grounding is None:
        return list(children)

    async def one(child: Hypothesis) -> Hypothesis:
        if child.structural_grounding is not None:
            return child
        trace = await grounding.trace(grounding_request(SearchOperator.HYPERPATH_EXPAND, (child,), frame))
        return replace(child, structural_grounding=trace.score)

    return list(await asyncio.gather(*(one(c) for c in children)))

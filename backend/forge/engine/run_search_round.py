"""One SEARCH round (seed 000 §4.2.1): select seeds from the pool (mapping gate + MOME/Pareto), plan the
operator applications under the runtime profile's quotas, run them as one bounded batch, and turn
the answers into gated child hypotheses with their lineage.

Invariants:
    - The pool is read, never changed: the round returns the children; the caller adds them.
    - Child ids are `search-<round>-<n>-<operator>` with n the application's place in the plan, so
      the same pool, round and profile give the same ids (a repeated stage rewrites, not duplicates).
    - A failed call costs its application only: it is listed in `failures` and the rest still count.
    - Children that are near-duplicates of each other are merged (as BISO's are); a child is never
      merged into its parent: a refinement is meant to be close to what it refines.
    - `operators` counts the children made per operator; `degraded` and `skipped` come from the plan.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from forge.core.hypothesis_pool import Hypothesis, HypothesisId, merge_near_duplicates
from forge.core.model_messages import Usage
from forge.core.problem_frame import ProblemFrame
from forge.core.search_plan import (
    PROFILES,
    OperatorApplication,
    RuntimeProfile,
    SearchOperator,
    plan_search_round,
)
from forge.core.select_search_seeds import SeedSelection, SelectionMethod, select_search_seeds
from forge.engine.run_structured_batch import DEFAULT_CONCURRENCY, ProgressSink, run_structured_batch
from forge.engine.search_operators import child_from_draft, search_request
from forge.ports import StructuredModel, StructuredResult

STAGE = "search"


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


async def run_search_round(
    model: StructuredModel,
    pool: Sequence[Hypothesis],
    frame: ProblemFrame,
    profile: RuntimeProfile = RuntimeProfile.INTERACTIVE,
    quotas: Mapping[SearchOperator, int] | None = None,
    *,
    problem: str = "",
    round_: int = 0,
    method: SelectionMethod = SelectionMethod.MOME,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
) -> SearchRound:
    settings = PROFILES[profile]
    selection = select_search_seeds(pool, frame, settings.top_n, method)
    plan = plan_search_round(selection.seeds, settings, quotas)
    by_id = {h.id: h for h in pool}
    parents_of = [tuple(by_id[i] for i in a.parents) for a in plan.applications]
    requests = [
        search_request(a.operator, parents, problem or frame.objective, frame)
        for a, parents in zip(plan.applications, parents_of, strict=True)
    ]
    batch = await run_structured_batch(model, requests, stage=STAGE, concurrency=concurrency, progress=progress)
    children: list[Hypothesis] = []
    failures: list[ApplicationFailure] = []
    for n, (application, parents, outcome) in enumerate(
        zip(plan.applications, parents_of, batch.outcomes, strict=True), start=1
    ):
        if not isinstance(outcome, StructuredResult):
            failures.append(ApplicationFailure(application.operator, application.parents, outcome.message))
            continue
        child_id = HypothesisId(f"search-{round_}-{n}-{application.operator.value}")
        children.append(child_from_draft(outcome.value.hypothesis, application.operator, parents, child_id, round_))
    merged = merge_near_duplicates(children)
    return SearchRound(
        selection,
        plan.applications,
        tuple(merged),
        dict(Counter(c.operator for c in merged)),
        plan.degraded,
        plan.skipped,
        tuple(failures),
        batch.usage,
        len(requests),
    )

"""Turning a round's plan into model requests and the answers into children (seed 000 §4.2): one
walk over `OPERATOR_APPLICATIONS` — what to ask and what an answer becomes is each operator's entry.

Invariants:
    - HKG operators (an entry with `ground`) are traversed first, concurrently; a trace without a path
      makes no request (`Prepared.request` is None) and no child — PATH_NOT_FOUND never produces evidence.
    - An answer becomes a child (`Hypothesis`), a refusal (`str`: why it is not usable), or, for
      transform_space, a `PendingTransform` whose gate closes after the logic check.
    - Child ids are `search-<stem>-<n>-<operator>` and proposal ids `transform-<stem>-<n>`, with n
      the application's place in the plan and stem `<round>` for the first SEARCH round of a session
      round, `<round>-d<k>` for its k-th (search_depth > 1): the same pool, round, depth and
      profile give the same ids.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis, HypothesisId
from forge.core.search.concept_space import ConceptSpace
from forge.core.search.hyperpath_trace import HyperpathTrace
from forge.core.search.plan import OperatorApplication
from forge.engine.search.application_spec import Answered, Prepared, RequestInputs
from forge.engine.search.operator_registry import OPERATOR_APPLICATIONS
from forge.ports import StructuralGrounding


async def prepare_applications(
    plan: Sequence[OperatorApplication],
    by_id: Mapping[HypothesisId, Hypothesis],
    *,
    problem: str,
    frame: ProblemFrame,
    grounding: StructuralGrounding | None,
    space: ConceptSpace,
    round_: int,
    depth: int = 0,
) -> list[Prepared]:
    parents_of = [tuple(by_id[i] for i in a.parents) for a in plan]
    traces = await _traces(plan, parents_of, frame, grounding)
    prepared = []
    for place, (application, parents, trace) in enumerate(zip(plan, parents_of, traces, strict=True), start=1):
        inputs = RequestInputs(application.operator, parents, problem, frame, trace, space)
        request = OPERATOR_APPLICATIONS[application.operator].ask(inputs)
        prepared.append(Prepared(place, application, parents, request, trace, round_, depth))
    return prepared


async def _traces(
    plan: Sequence[OperatorApplication],
    parents_of: Sequence[tuple[Hypothesis, ...]],
    frame: ProblemFrame,
    grounding: StructuralGrounding | None,
) -> list[HyperpathTrace | None]:
    async def one(application: OperatorApplication, parents: tuple[Hypothesis, ...]) -> HyperpathTrace | None:
        ground = OPERATOR_APPLICATIONS[application.operator].ground
        if ground is None or grounding is None:
            return None
        return await grounding.trace(ground(parents, frame))

    return list(await asyncio.gather(*(one(a, p) for a, p in zip(plan, parents_of, strict=True))))


def finish_application(prepared: Prepared, value: BaseModel, space: ConceptSpace) -> Answered:
    """What one answer becomes: a child, a refusal with its reason, or a transform awaiting its gate."""
    return OPERATOR_APPLICATIONS[prepared.application.operator].answer(prepared, value, space)

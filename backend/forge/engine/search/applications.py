"""Turning a round's plan into model requests and the answers into children (seed 000 §4.2): one place
that knows, per operator, what to ask and what an answer becomes.

Invariants:
    - HKG operators are traversed first, concurrently; a trace without a path makes no request
      (`Prepared.request` is None) and no child — PATH_NOT_FOUND never produces evidence.
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
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis, HypothesisId
from forge.core.search.concept_space import ConceptSpace
from forge.core.search.hyperpath_trace import HyperpathTrace
from forge.core.search.plan import OperatorApplication, SearchOperator
from forge.core.search.transform_gate import TransformProposal, audit_transform
from forge.engine.search.blend_expand import BlendOutput, blend_child, blend_request
from forge.engine.search.operators import OperatorOutput, child_from_draft, search_request
from forge.engine.search.structural_operators import (
    STRUCTURAL_OPERATORS,
    StructuralOutput,
    grounding_request,
    structural_child,
    structural_request,
)
from forge.engine.search.transform_space import TransformOutput, proposal_of, transform_request
from forge.ports import StructuralGrounding, StructuredRequest


@dataclass(frozen=True, slots=True)
class Prepared:
    place: int  # 1-based place in the plan
    application: OperatorApplication
    parents: tuple[Hypothesis, ...]
    request: StructuredRequest[Any] | None  # None: the HKG found no path, nothing is asked
    trace: HyperpathTrace | None = None
    round_: int = 0
    depth: int = 0  # the SEARCH round inside the session round, 0-based

    @property
    def stem(self) -> str:
        """`<round>` for the first SEARCH round of a session round, `<round>-d<depth + 1>` after it."""
        return f"{self.round_}" if self.depth == 0 else f"{self.round_}-d{self.depth + 1}"

    @property
    def child_id(self) -> HypothesisId:
        return HypothesisId(f"search-{self.stem}-{self.place}-{self.application.operator.value}")


@dataclass(frozen=True, slots=True)
class PendingTransform:
    prepared: Prepared
    proposal_id: str
    proposal: TransformProposal
    output: TransformOutput
    audit: tuple[str, ...]  # reasons the structural audit found (empty: the logic check decides)


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
        request = _request(application.operator, parents, problem, frame, trace, space)
        prepared.append(Prepared(place, application, parents, request, trace, round_, depth))
    return prepared


async def _traces(
    plan: Sequence[OperatorApplication],
    parents_of: Sequence[tuple[Hypothesis, ...]],
    frame: ProblemFrame,
    grounding: StructuralGrounding | None,
) -> list[HyperpathTrace | None]:
    async def one(application: OperatorApplication, parents: tuple[Hypothesis, ...]) -> HyperpathTrace | None:
        if application.operator not in STRUCTURAL_OPERATORS or grounding is None:
            return None
        return await grounding.trace(grounding_request(application.operator, parents, frame))

    return list(await asyncio.gather(*(one(a, p) for a, p in zip(plan, parents_of, strict=True))))


def _request(
    operator: SearchOperator,
    parents: tuple[Hypothesis, ...],
    problem: str,
    frame: ProblemFrame,
    trace: HyperpathTrace | None,
    space: ConceptSpace,
) -> StructuredRequest[Any] | None:
    if operator in STRUCTURAL_OPERATORS:
        return structural_request(operator, parents, problem, frame, trace) if trace and trace.grounded else None
    if operator is SearchOperator.BLEND_EXPAND:
        return blend_request(parents, problem, frame)
    if operator is SearchOperator.TRANSFORM_SPACE:
        return transform_request(parents[0], problem, frame, space)
    return search_request(operator, parents, problem, frame)


def finish_application(
    prepared: Prepared, value: BaseModel, space: ConceptSpace
) -> Hypothesis | str | PendingTransform:
    """What one answer becomes: a child, a refusal with its reason, or a transform awaiting its gate."""
    operator, parents, child_id = prepared.application.operator, prepared.parents, prepared.child_id
    round_ = prepared.round_
    if isinstance(value, StructuralOutput) and prepared.trace is not None:
        return structural_child(value, operator, parents, prepared.trace, child_id, round_)
    if isinstance(value, BlendOutput):
        return blend_child(value, parents, child_id, round_)
    if isinstance(value, TransformOutput):
        proposal = proposal_of(value)
        proposal_id = f"transform-{prepared.stem}-{prepared.place}"
        return PendingTransform(prepared, proposal_id, proposal, value, audit_transform(proposal, space))
    if isinstance(value, OperatorOutput):
        return child_from_draft(value.hypothesis, operator, parents, child_id, round_)
    return f"unexpected answer type {type(value).__name__}"

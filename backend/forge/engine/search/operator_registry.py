"""Every SEARCH operator's application, in one table (seed 000 §4.2): `OPERATOR_APPLICATIONS` maps
each `SearchOperator` to its `ApplicationSpec` — instructions, request, answer → child, and for the
HKG operators the traversal asked first. `applications.py` walks this table; nothing else in the
engine branches on an operator.

Invariants:
    - One entry per operator (a test holds it to `core.search.operator_specs.OPERATOR_SPECS`, and an
      entry has `ground` exactly when its core spec is `structural`).
    - The text operators (refine, variant, combine, oppose, extreme) share one request and one output
      (`operators.py`) and differ only in their instructions, which are written here.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from pydantic import BaseModel

from forge.core.search.concept_space import ConceptSpace
from forge.core.search.operator_specs import SearchOperator
from forge.core.search.transform_gate import audit_transform
from forge.engine.search.application_spec import (
    Answered,
    ApplicationSpec,
    PendingTransform,
    Prepared,
    RequestInputs,
    unexpected,
)
from forge.engine.search.blend_expand import BLEND_INSTRUCTIONS, BlendOutput, blend_child, blend_request
from forge.engine.search.operators import OperatorOutput, child_from_draft, search_request
from forge.engine.search.structural_operators import (
    STRUCTURAL_INSTRUCTIONS,
    StructuralOutput,
    grounding_request,
    structural_child,
    structural_request,
)
from forge.engine.search.transform_space import TRANSFORM_INSTRUCTIONS, TransformOutput, proposal_of, transform_request
from forge.ports import StructuredRequest


def _text_answer(prepared: Prepared, value: BaseModel, _space: ConceptSpace) -> Answered:
    if not isinstance(value, OperatorOutput):
        return unexpected(value)
    operator = prepared.application.operator
    return child_from_draft(value.hypothesis, operator, prepared.parents, prepared.child_id, prepared.round_)


def text_operator(instructions: str) -> ApplicationSpec:
    """An operator that asks for ONE new hypothesis in BISO's draft shape, told what to do by `instructions`."""

    def ask(i: RequestInputs) -> StructuredRequest[Any]:
        return search_request(i.operator, i.parents, i.problem, i.frame, instructions)

    return ApplicationSpec(instructions, ask, _text_answer)


def _hkg_ask(i: RequestInputs) -> StructuredRequest[Any] | None:
    if i.trace is None or not i.trace.grounded:
        return None  # PATH_NOT_FOUND / NO_MATCH: nothing is asked, no evidence without a path
    return structural_request(i.operator, i.parents, i.problem, i.frame, i.trace)


def _hkg_answer(prepared: Prepared, value: BaseModel, _space: ConceptSpace) -> Answered:
    if not isinstance(value, StructuralOutput) or prepared.trace is None:
        return unexpected(value)
    operator, parents = prepared.application.operator, prepared.parents
    return structural_child(value, operator, parents, prepared.trace, prepared.child_id, prepared.round_)


def hkg_operator(operator: SearchOperator) -> ApplicationSpec:
    """An operator grounded on the hypergraph: traversed first, asked only along a found path."""
    return ApplicationSpec(
        STRUCTURAL_INSTRUCTIONS[operator], _hkg_ask, _hkg_answer, partial(grounding_request, operator)
    )


def _blend_answer(prepared: Prepared, value: BaseModel, _space: ConceptSpace) -> Answered:
    if not isinstance(value, BlendOutput):
        return unexpected(value)
    return blend_child(value, prepared.parents, prepared.child_id, prepared.round_)


def _transform_answer(prepared: Prepared, value: BaseModel, space: ConceptSpace) -> Answered:
    if not isinstance(value, TransformOutput):
        return unexpected(value)
    proposal = proposal_of(value)
    proposal_id = f"transform-{prepared.stem}-{prepared.place}"
    return PendingTransform(prepared, proposal_id, proposal, value, audit_transform(proposal, space))


OPERATOR_APPLICATIONS: dict[SearchOperator, ApplicationSpec] = {
    SearchOperator.REFINE: text_operator(
        "Operator REFINE: narrow the parent's scope. Add the specific conditions, thresholds or populations under "
        "which it holds, taken from the frame's constraints and success criteria, and make the observable a "
        "threshold test."
    ),
    SearchOperator.VARIANT: text_operator(
        "Operator VARIANT: keep the parent's structure and mechanism but change its parameters or scenario "
        "(another lever, another scale, another stakeholder group of the frame)."
    ),
    SearchOperator.COMBINE: text_operator(
        "Operator COMBINE: join the two parents into one hypothesis whose mechanism needs both; the mapping must "
        "keep rows from each and add at least one row that links them."
    ),
    SearchOperator.OPPOSE: text_operator(
        "Operator OPPOSE: state the counter-hypothesis: the conditions under which the parent's mechanism fails or "
        "reverses, as a claim that can be tested against the parent's observable."
    ),
    SearchOperator.EXTREME: text_operator(
        "Operator EXTREME: push the parent's key parameter to its boundary value (zero, maximum, or the hard "
        "constraint's limit) and say what happens there, including what breaks."
    ),
    SearchOperator.HYPERPATH_EXPAND: hkg_operator(SearchOperator.HYPERPATH_EXPAND),
    SearchOperator.HYPERBRIDGE: hkg_operator(SearchOperator.HYPERBRIDGE),
    SearchOperator.BLEND_EXPAND: ApplicationSpec(
        BLEND_INSTRUCTIONS, lambda i: blend_request(i.parents, i.problem, i.frame), _blend_answer
    ),
    SearchOperator.TRANSFORM_SPACE: ApplicationSpec(
        TRANSFORM_INSTRUCTIONS,
        lambda i: transform_request(i.parents[0], i.problem, i.frame, i.space),
        _transform_answer,
    ),
}

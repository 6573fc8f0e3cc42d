"""Every SEARCH operator is registered once in each place that must know it: its core spec
(`OPERATOR_SPECS`), its engine application (`OPERATOR_APPLICATIONS`), and an offline stand-in that
answers its request (the offline model's generators; `OFFLINE_OPERATORS` for the text operators).
A new operator missing from any of them fails here, before any round runs."""

from __future__ import annotations

from collections import Counter

import pytest
from support.scripted_search import FRAME, POOL, FakeGrounding

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_structured_model
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.core.search.concept_space import derive_concept_space
from forge.core.search.operator_specs import (
    HEAVY_OPERATORS,
    OPERATOR_SPECS,
    PAIRED_OPERATORS,
    ROUND_LEVEL_SPECS,
    SPEC_OF,
    STRUCTURAL_OPERATORS,
    SearchOperator,
)
from forge.core.search.plan import OperatorApplication
from forge.engine.search.application_spec import PendingTransform, Prepared, RequestInputs
from forge.engine.search.operator_registry import OPERATOR_APPLICATIONS
from forge.engine.search.operators import OperatorOutput
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.offline_model import OfflineModel
from forge.offline.search.search_offline import OFFLINE_OPERATORS
from forge.ports import StructuredResult

OFFLINE = build_structured_model(
    ModelRoute(Provider.OFFLINE, "offline"), OfflineModel(KNOWLEDGE_DIR), load_shipped_knowledge().domains
)


def test_every_operator_has_exactly_one_spec_and_one_application() -> None:
    assert Counter(s.operator for s in OPERATOR_SPECS) == Counter(set(SearchOperator))
    assert set(OPERATOR_APPLICATIONS) == set(SearchOperator)


def test_the_hkg_operators_are_the_ones_the_engine_traverses_first() -> None:
    grounded = {op for op, application in OPERATOR_APPLICATIONS.items() if application.ground is not None}
    assert grounded == STRUCTURAL_OPERATORS == {SearchOperator.HYPERPATH_EXPAND, SearchOperator.HYPERBRIDGE}


def test_the_property_sets_are_read_off_the_specs() -> None:
    assert {SearchOperator.HYPERBRIDGE, SearchOperator.BLEND_EXPAND, SearchOperator.TRANSFORM_SPACE} == HEAVY_OPERATORS
    assert {SearchOperator.COMBINE, SearchOperator.HYPERBRIDGE, SearchOperator.BLEND_EXPAND} == PAIRED_OPERATORS
    assert [s.operator for s in ROUND_LEVEL_SPECS] == [
        SearchOperator.COMBINE,
        SearchOperator.BLEND_EXPAND,
        SearchOperator.TRANSFORM_SPACE,
    ]


@pytest.mark.parametrize("operator", list(SearchOperator), ids=lambda op: op.value)
async def test_every_operator_has_an_offline_stand_in_whose_answer_the_engine_takes(operator: SearchOperator) -> None:
    application = OPERATOR_APPLICATIONS[operator]
    parents = POOL[:2] if SPEC_OF[operator].paired else POOL[:1]
    trace = await FakeGrounding().trace(application.ground(parents, FRAME)) if application.ground else None
    space = derive_concept_space(FRAME)
    request = application.ask(RequestInputs(operator, parents, FRAME.objective, FRAME, trace, space))
    assert request is not None
    assert application.instructions in request.instructions
    if request.output is OperatorOutput:  # the text operators share one generator, chosen by operator
        assert operator in OFFLINE_OPERATORS
    answered = await OFFLINE.generate(request)
    assert isinstance(answered, StructuredResult), answered
    prepared = Prepared(1, OperatorApplication(operator, tuple(p.id for p in parents)), parents, request, trace)
    child = application.answer(prepared, answered.value, space)
    assert not isinstance(child, str), child
    made = child.prepared.child_id if isinstance(child, PendingTransform) else child.id
    assert made == f"search-0-1-{operator.value}"

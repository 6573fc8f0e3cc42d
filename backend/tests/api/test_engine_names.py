"""The engine's names are enums in the OpenAPI document, and the enums hold every name the backend emits."""

from __future__ import annotations

from forge.api.export_openapi import openapi_document
from forge.api.schemas.engine_names import OPERATOR_NAMES, EngineStage
from forge.core.domain_types import EngineStage as CoreEngineStage
from forge.core.hypotheses.pool import Hypothesis
from forge.core.search.plan import SearchOperator
from forge.engine.explore import biso, review_mapping_depth, suggested_domains
from forge.engine.saga import red_team
from forge.engine.search import search_round
from forge.engine.solve import solve_problem
from forge.engine.verify import score_claims
from forge.services.stages.engine_stages import StageName

ENGINE_MODULES = (biso, review_mapping_depth, suggested_domains, search_round, score_claims, solve_problem, red_team)


def test_every_engine_stage_constant_is_the_core_enum_the_schema_names() -> None:
    stages = {module.STAGE for module in ENGINE_MODULES}
    assert all(isinstance(stage, CoreEngineStage) for stage in stages)
    assert EngineStage is CoreEngineStage  # the API names the core's enum; nothing is copied
    assert {s.value for s in StageName} <= {s.value for s in EngineStage}


def test_operators_are_biso_and_every_search_operator() -> None:
    assert Hypothesis.__dataclass_fields__["operator"].default == OPERATOR_NAMES[0] == "biso"
    assert set(OPERATOR_NAMES[1:]) == {o.value for o in SearchOperator}


def test_openapi_names_stages_operators_and_finding_kinds_as_enums() -> None:
    schemas = openapi_document()["components"]["schemas"]
    assert schemas["EngineStage"]["enum"] == [s.value for s in EngineStage]
    assert schemas["HypothesisOperator"]["enum"] == list(OPERATOR_NAMES)
    stage_ref = {"$ref": "#/components/schemas/EngineStage"}
    operator_ref = {"$ref": "#/components/schemas/HypothesisOperator"}
    assert schemas["EngineProgressData"]["properties"]["stage"] == stage_ref
    assert schemas["EngineStageData"]["properties"]["stage"] == stage_ref
    assert schemas["HypothesisOut"]["properties"]["operator"]["$ref"] == operator_ref["$ref"]
    assert schemas["PlotPointOut"]["properties"]["operator"] == operator_ref
    assert schemas["MethodologyOut"]["properties"]["operators"]["items"] == operator_ref
    operators = schemas["SearchSummaryView"]["properties"]["operators"]
    assert operators["propertyNames"] == {"$ref": "#/components/schemas/SearchOperator"}
    assert schemas["SagaFindingData"]["properties"]["kind"] == {"$ref": "#/components/schemas/FindingKind"}
    assert "enum" in schemas["FindingKind"] and "enum" in schemas["ConstraintFindingKind"]

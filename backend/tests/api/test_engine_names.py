"""The engine's names are enums in the OpenAPI document, and the enums hold every name the backend emits."""

from __future__ import annotations

import re
from pathlib import Path

import forge
from forge.api.export_openapi import openapi_document
from forge.api.schemas.engine_names import OPERATOR_NAMES, EngineStage
from forge.core.hypotheses.pool import Hypothesis
from forge.core.search.plan import SearchOperator

FORGE = Path(forge.__file__).parent
# A stage is named where the engine declares it (`STAGE = "biso"`) or a service reports it (`engine_stage("frame", ...)`).
STAGE_NAMES = re.compile(r"""^STAGE = "(\w+)"|engine_stage\(\s*"(\w+)\"""", re.MULTILINE)


def _stages_in_sources() -> set[str]:
    found: set[str] = set()
    for path in FORGE.rglob("*.py"):
        for declared, reported in STAGE_NAMES.findall(path.read_text(encoding="utf-8")):
            found.add(declared or reported)
    return found


def test_every_stage_the_backend_names_is_in_the_enum() -> None:
    stages = _stages_in_sources()
    assert {"frame", "biso", "search", "solve"} <= stages  # the scan finds both spellings
    assert stages <= {s.value for s in EngineStage}, stages - {s.value for s in EngineStage}


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

"""The engine's names on the wire as named OpenAPI enums: the engine stages, and how a hypothesis was
made (its operator), so a generated client gets string unions instead of `string`.

Invariants:
    - `HypothesisOperator` is BISO's first generation ("biso", the core's default `Hypothesis.operator`)
      plus every `SearchOperator`, read from the core enum at import time: an operator the core adds
      is one the API accepts and documents, with nothing to copy.
    - `EngineStage` names every stage that reports `engine_progress` or `engine_stage` (the engine's
      `STAGE` constants and the services' stage events); `tests/api/test_engine_names.py` reads the
      backend's sources and fails when a stage is missing here.

Design decisions:
    - Type checkers see `HypothesisOperator` as `str` (a `Literal` built at run time is not a static
      type); pydantic and OpenAPI see the `Literal`, named through `TypeAliasType` so it is one
      component (`HypothesisOperator`) that every response refers to.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Literal

from typing_extensions import TypeAliasType

from forge.core.hypotheses.pool import Hypothesis
from forge.core.search.plan import SearchOperator

BISO_OPERATOR = str(Hypothesis.__dataclass_fields__["operator"].default)
OPERATOR_NAMES: tuple[str, ...] = (BISO_OPERATOR, *(operator.value for operator in SearchOperator))

if TYPE_CHECKING:
    HypothesisOperator = str
else:
    HypothesisOperator = TypeAliasType("HypothesisOperator", Literal[OPERATOR_NAMES])


class EngineStage(str, Enum):
    """An engine stage: what `engine_progress` and `engine_stage` events name in `stage`."""

    FRAME = "frame"
    BISO = "biso"
    SUGGESTED_DOMAINS = "suggested_domains"
    MAPPING_REVIEW = "mapping_review"
    SEARCH = "search"
    VERIFY = "verify"
    RED_TEAM = "red_team"
    SOLVE = "solve"

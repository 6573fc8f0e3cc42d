"""The engine's names on the wire as named OpenAPI enums: the engine stages, and how a hypothesis was
made (its operator), so a generated client gets string unions instead of `string`.

Invariants:
    - `HypothesisOperator` is BISO's first generation ("biso", the core's default `Hypothesis.operator`)
      plus every `SearchOperator`, read from the core enum at import time: an operator the core adds
      is one the API accepts and documents, with nothing to copy.
    - `EngineStage` is the core's enum (`core/domain_types.py`): the engine's `STAGE` constants and the
      services' stage events are typed with it, so a stage the backend names is one the schema lists.

Design decisions:
    - Type checkers see `HypothesisOperator` as `str` (a `Literal` built at run time is not a static
      type); pydantic and OpenAPI see the `Literal`, named through `TypeAliasType` so it is one
      component (`HypothesisOperator`) that every response refers to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from typing_extensions import TypeAliasType

from forge.core.domain_types import EngineStage
from forge.core.hypotheses.pool import Hypothesis
from forge.core.search.plan import SearchOperator

BISO_OPERATOR = str(Hypothesis.__dataclass_fields__["operator"].default)
OPERATOR_NAMES: tuple[str, ...] = (BISO_OPERATOR, *(operator.value for operator in SearchOperator))

if TYPE_CHECKING:
    HypothesisOperator = str
else:
    HypothesisOperator = TypeAliasType("HypothesisOperator", Literal[OPERATOR_NAMES])

__all__ = ["OPERATOR_NAMES", "EngineStage", "HypothesisOperator"]

"""The offline model's structured generation: deterministic generators from shipped knowledge and
the problem text, chosen by output type from an explicit registry (built in the composition root).

Invariants:
    - Same request, same value: no randomness, no clock.
    - An output type without a generator is a StructuredFailure that says so (the offline model
      never pretends); a generator's value is validated like any model's.
    - Offline calls cost nothing: usage is zero.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from forge.core.llm.messages import Usage
from forge.ports import OutputT, StructuredFailure, StructuredRequest, StructuredResult

OfflineGenerator = Callable[[StructuredRequest[Any]], BaseModel]
ContextT = TypeVar("ContextT")


def offline_context(request: StructuredRequest[Any], kind: type[ContextT]) -> ContextT:
    """The typed context the engine passes with every request an offline generator answers."""
    if not isinstance(request.offline_context, kind):
        raise TypeError(f"the offline `{request.name}` needs a {kind.__name__}")
    return request.offline_context


class OfflineStructuredModel:
    def __init__(self, generators: Mapping[type[BaseModel], OfflineGenerator], label: str = "offline") -> None:
        self._generators = dict(generators)
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    async def generate(self, request: StructuredRequest[OutputT]) -> StructuredResult[OutputT] | StructuredFailure:
        generator = self._generators.get(request.output)
        if generator is None:
            return StructuredFailure(
                f"The offline model cannot produce `{request.name}` ({request.output.__name__}); use a real model.",
                Usage(),
                1,
            )
        try:
            value = request.output.model_validate(generator(request).model_dump())
        except ValidationError as error:  # a bug in a generator: report it as a failure, not a crash
            return StructuredFailure(f"The offline `{request.name}` was invalid: {error}", Usage(), 1)
        return StructuredResult(value, Usage(), 1)

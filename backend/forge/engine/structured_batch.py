"""Many structured calls at once, bounded, with progress: the engine's one way to fan out model work.

Invariants:
    - At most `concurrency` calls are in flight; outcomes come back in the order of the requests,
      whatever order the calls finish in.
    - One call's failure never sinks the batch: an invalid output is its StructuredFailure, and an
      outage (ModelUnavailableError) becomes a StructuredFailure carrying the usage it was charged.
      The caller decides what a batch with failures means.
    - `usage` is the sum over every call and attempt, failed or not.
    - Progress is reported once at the start (0/total) and after every finished call, so a
      listener can draw a bar that only moves forward.
    - A batched answer about many items is read by item id (`read_by_id`, VERIFY's items and the
      mapping review's hypotheses alike): an id the call did not name is ignored; an id answered twice
      with different answers is ambiguous (left out); identical repeats are read once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from forge.core.domain_types import EngineStage
from forge.core.llm.messages import Usage
from forge.ports import (
    ModelUnavailableError,
    OutputT,
    StructuredFailure,
    StructuredModel,
    StructuredRequest,
    StructuredResult,
)

DEFAULT_CONCURRENCY = 8
AnswerT = TypeVar("AnswerT")


@dataclass(frozen=True, slots=True)
class EngineProgress:
    stage: EngineStage
    done: int
    total: int
    failed: int


ProgressSink = Callable[[EngineProgress], None]
Outcome = StructuredResult[OutputT] | StructuredFailure


@dataclass(frozen=True, slots=True)
class BatchOutcome(Generic[OutputT]):
    outcomes: tuple[Outcome[OutputT], ...]
    usage: Usage

    @property
    def values(self) -> list[OutputT]:
        return [o.value for o in self.outcomes if isinstance(o, StructuredResult)]

    @property
    def failures(self) -> list[StructuredFailure]:
        return [o for o in self.outcomes if isinstance(o, StructuredFailure)]


async def run_structured_batch(
    model: StructuredModel,
    requests: Sequence[StructuredRequest[OutputT]],
    *,
    stage: EngineStage,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressSink | None = None,
) -> BatchOutcome[OutputT]:
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    gate = asyncio.Semaphore(concurrency)
    outcomes: list[Outcome[OutputT] | None] = [None] * len(requests)
    counts = {"done": 0, "failed": 0}

    def report() -> None:
        if progress is not None:
            progress(EngineProgress(stage, counts["done"], len(requests), counts["failed"]))

    async def one(index: int, request: StructuredRequest[OutputT]) -> None:
        async with gate:
            outcome = await _generate(model, request)
        outcomes[index] = outcome
        counts["done"] += 1
        counts["failed"] += isinstance(outcome, StructuredFailure)
        report()

    report()
    async with asyncio.TaskGroup() as group:
        for index, request in enumerate(requests):
            group.create_task(one(index, request))
    finished = tuple(o for o in outcomes if o is not None)
    return BatchOutcome(finished, sum((o.usage for o in finished), Usage()))


async def _generate(model: StructuredModel, request: StructuredRequest[OutputT]) -> Outcome[OutputT]:
    try:
        return await model.generate(request)
    except ModelUnavailableError as error:
        return StructuredFailure(str(error), error.usage, attempts=1)


def read_by_id(asked: Sequence[str], pairs: Sequence[tuple[str, AnswerT]]) -> dict[str, AnswerT]:
    """The answers to the items asked about, by id (`pairs`: each answer with the id it names, as
    given): unknown ids ignored, an id answered twice with different answers left out (ambiguous),
    identical repeats read once."""
    found: dict[str, list[AnswerT]] = {}
    wanted = set(asked)
    for key, answer in pairs:
        if key.strip() in wanted:
            found.setdefault(key.strip(), []).append(answer)
    return {key: answers[0] for key, answers in found.items() if all(a == answers[0] for a in answers)}

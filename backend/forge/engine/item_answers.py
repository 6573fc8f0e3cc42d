"""Batched questions about many items, read by item id, with one repair: how VERIFY asks its k
samples and its prior-art judgement about up to `VERIFY_BATCH` items per call, the hypothesis scores
their groups, and the red team its challenges to several targets per call.

Invariants:
    - Every call of a pass goes out in one `run_structured_batch` (bounded, in request order).
    - A valid answer is read by item id (`structured_batch.read_by_id`): an id the call did not name is
      ignored; an id answered twice with different answers is ambiguous; identical repeats are read once.
    - An item a valid answer omitted or made ambiguous is asked again once, alone, in a call of its
      own (the repair, same question tag); still unanswered, it is a failure with that reason.
    - An item in a failed call is a failure with the call's message; it is not repaired (the
      structured model already retried the call). No answer is ever invented.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from forge.core.domain_types import EngineStage
from forge.core.llm.messages import Usage
from forge.engine.structured_batch import ProgressSink, read_by_id, run_structured_batch
from forge.ports import StructuredModel, StructuredRequest, StructuredResult

AnswerT = TypeVar("AnswerT")
Key = tuple[int, str]  # (the question's tag, e.g. the sample number; the item id)
UNANSWERED = "no answer for this item in its batch, nor when asked alone"


def even_groups(ids: Sequence[str], most: int) -> list[tuple[str, ...]]:
    """As few groups of at most `most` ids as there can be, of even sizes (7 by 5 → 4 + 3, not 5 + 2):
    a call writes its items' answers one after another, so the largest group sets the wait."""
    count = math.ceil(len(ids) / most)
    size = math.ceil(len(ids) / count) if count else 1
    return [tuple(ids[i : i + size]) for i in range(0, len(ids), size)]


@dataclass(frozen=True, slots=True)
class ItemCall:
    """One call: the question `tag` asked about the items `ids`, in one request."""

    tag: int
    ids: tuple[str, ...]
    request: StructuredRequest[Any]


@dataclass(slots=True)
class ItemAnswers(Generic[AnswerT]):
    answers: dict[Key, AnswerT] = field(default_factory=dict)
    failures: dict[Key, str] = field(default_factory=dict)  # why an item has no answer to a question
    usage: Usage = field(default_factory=Usage)
    calls: int = 0
    asked: list[tuple[str, ...]] = field(default_factory=list)  # each call's item ids, repairs included


async def _pass(
    model: StructuredModel,
    calls: Sequence[ItemCall],
    read: Callable[[Any], Sequence[tuple[str, AnswerT]]],
    stage: EngineStage,
    concurrency: int,
    progress: ProgressSink | None,
) -> tuple[ItemAnswers[AnswerT], list[Key]]:
    batch = await run_structured_batch(
        model, [c.request for c in calls], stage=stage, concurrency=concurrency, progress=progress
    )
    result: ItemAnswers[AnswerT] = ItemAnswers(usage=batch.usage, calls=len(calls), asked=[c.ids for c in calls])
    unanswered: list[Key] = []
    for call, outcome in zip(calls, batch.outcomes, strict=True):
        if not isinstance(outcome, StructuredResult):
            result.failures.update({(call.tag, item): outcome.message for item in call.ids})
            continue
        got = read_by_id(call.ids, read(outcome.value))
        result.answers.update({(call.tag, item): answer for item, answer in got.items()})
        unanswered += [(call.tag, item) for item in call.ids if item not in got]
    return result, unanswered


async def ask_items(
    model: StructuredModel,
    calls: Sequence[ItemCall],
    read: Callable[[Any], Sequence[tuple[str, AnswerT]]],
    alone: Callable[[int, str], ItemCall],
    *,
    stage: EngineStage,
    concurrency: int,
    progress: ProgressSink | None = None,
) -> ItemAnswers[AnswerT]:
    """Ask every call, then each item a valid answer left out once more, alone (`alone(tag, id)`)."""
    if not calls:
        return ItemAnswers()
    first, missing = await _pass(model, calls, read, stage, concurrency, progress)
    if not missing:
        return first
    repair, still = await _pass(model, [alone(tag, item) for tag, item in missing], read, stage, concurrency, progress)
    first.answers.update(repair.answers)
    first.failures.update(repair.failures)
    first.failures.update(dict.fromkeys(still, UNANSWERED))
    usage, count = first.usage + repair.usage, first.calls + repair.calls
    return ItemAnswers(first.answers, first.failures, usage, count, first.asked + repair.asked)

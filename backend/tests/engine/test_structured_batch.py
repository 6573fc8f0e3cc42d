"""run_structured_batch: bounded fan-out, outcomes in request order, failures kept, progress forward."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

from forge.core.llm.messages import Usage
from forge.engine.structured_batch import EngineProgress, read_by_id, run_structured_batch
from forge.ports import ModelUnavailableError, StructuredFailure, StructuredRequest, StructuredResult


class Idea(BaseModel):
    text: str


def request(n: int) -> StructuredRequest[Idea]:
    return StructuredRequest(f"idea_{n}", "An idea.", "Give an idea.", str(n), Idea)


class CountingModel:
    """Finishes calls in reverse order of arrival (later inputs are quicker) and counts calls in flight."""

    def __init__(self, fail: frozenset[int] = frozenset(), outage: frozenset[int] = frozenset()) -> None:
        self.in_flight = 0
        self.peak = 0
        self.fail, self.outage = fail, outage

    @property
    def label(self) -> str:
        return "counting"

    async def generate(self, req: StructuredRequest[Idea]) -> StructuredResult[Idea] | StructuredFailure:
        n = int(req.input)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        for _ in range(20 - n % 20):
            await asyncio.sleep(0)
        self.in_flight -= 1
        if n in self.outage:
            raise ModelUnavailableError("overloaded", usage=Usage(7, 0))
        if n in self.fail:
            return StructuredFailure("never valid", Usage(5, 5), 3)
        return StructuredResult(Idea(text=f"idea {n}"), Usage(10, 2), 1)


async def test_never_more_calls_in_flight_than_the_concurrency_and_outcomes_keep_request_order() -> None:
    model = CountingModel()
    batch = await run_structured_batch(model, [request(n) for n in range(30)], stage="biso", concurrency=4)
    assert model.peak == 4
    assert [v.text for v in batch.values] == [f"idea {n}" for n in range(30)]
    assert batch.usage == Usage(300, 60)


async def test_failures_and_outages_are_kept_per_call_with_their_usage() -> None:
    model = CountingModel(fail=frozenset({1}), outage=frozenset({3}))
    batch = await run_structured_batch(model, [request(n) for n in range(5)], stage="biso", concurrency=2)
    assert [isinstance(o, StructuredResult) for o in batch.outcomes] == [True, False, True, False, True]
    assert [f.message for f in batch.failures] == ["never valid", "overloaded"]
    assert batch.usage == Usage(30 + 5 + 7, 6 + 5)


async def test_progress_starts_at_zero_and_only_moves_forward_to_the_total() -> None:
    seen: list[EngineProgress] = []
    model = CountingModel(fail=frozenset({2}))
    await run_structured_batch(model, [request(n) for n in range(6)], stage="biso", concurrency=3, progress=seen.append)
    assert seen[0] == EngineProgress("biso", 0, 6, 0)
    assert [p.done for p in seen] == list(range(7))
    assert seen[-1] == EngineProgress("biso", 6, 6, 1)


async def test_refuses_a_concurrency_below_one() -> None:
    with pytest.raises(ValueError, match="concurrency"):
        await run_structured_batch(CountingModel(), [request(0)], stage="biso", concurrency=0)


def test_a_batched_answer_is_read_by_id_ignoring_strangers_and_ambiguous_repeats() -> None:
    pairs = [(" a ", 1), ("b", 2), ("b", 3), ("c", 4), ("c", 4), ("z", 9)]
    assert read_by_id(["a", "b", "c"], pairs) == {"a": 1, "c": 4}  # b answered twice, differently

"""Retrying SDK calls of the real-model providers: plain calls, and streams restarted after a cut.

The layer the Anthropic and OpenAI-compatible providers share above `call_with_retries`; each
brings its SDK-specific parts (`RetryRules`: how to classify and explain a failure; for a stream:
how to open it, an accumulator that folds its events, and what the accumulator says was charged).

Invariants:
    - `stream_with_retries` yields each text piece as it arrives, then exactly one `Completed`:
      `finish(accumulator)` of the attempt that completed, with `wasted`, the usage of every
      failed attempt before it (as far as each stream reported it before failing).
    - A retryable failure is retried at any point of a stream, under the same policy as a plain
      call. If the failed attempt had shown text, a `StreamReset` is yielded before the next
      attempt: the consumer discards its draft, and the pieces after the last reset are the
      completed attempt's text. A failure for good raises ModelUnavailableError whose `usage` is
      every failed attempt's (ContextOverflowError is raised as such).
    - The SDK stream is closed on every path: a failed attempt, the end, and a consumer that
      leaves early (close the generator, e.g. with `contextlib.aclosing`).
    - `call_with_retries_explained` and the streams leave retryable failures and context
      overflows to `retry_delay`; any other failure is final at once, as a ModelUnavailableError
      whose message is `explain(error)`: what a person must fix.
    - `retry_after_s` reads `retry-after-ms`, then `retry-after`, as seconds; an HTTP date or a
      missing header is None (our own backoff applies).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.core.llm.messages import StreamReset, Usage
from forge.ports import ContextOverflowError, ModelUnavailableError
from forge.providers.call_with_retries import Classifier, call_with_retries, retry_delay

T = TypeVar("T")
R = TypeVar("R")


def retry_after_s(headers: Mapping[str, str]) -> float | None:
    """How long the server asked us to wait before the next attempt, if it said so in seconds."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return float(value) / scale
        except ValueError:
            continue  # an HTTP date: fall back to our own backoff
    return None


@dataclass(frozen=True, slots=True)
class RetryRules:
    """How one provider's calls are retried and how a failure for good is explained."""

    classify: Classifier
    explain: Callable[[Exception], str]
    policy: RetryPolicy = RetryPolicy()
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    draw: Callable[[], float] = random.random

    def delay_after(self, error: Exception, attempt: int, wasted: Usage = Usage()) -> float:
        """The wait before the next attempt; raises the final error (charged `wasted`) if there is none."""
        if isinstance(error, ModelUnavailableError | ContextOverflowError):
            raise error
        kind = self.classify(error)
        if not kind.retryable and not kind.context_overflow:
            raise ModelUnavailableError(self.explain(error), usage=wasted) from error
        return retry_delay(error, attempt, self.classify, self.policy, self.draw, wasted)


def charged(error: ModelUnavailableError, usage: Usage) -> ModelUnavailableError:
    """The same failure, also charged `usage` (e.g. the completed parts of a call that then failed)."""
    return ModelUnavailableError(str(error), usage=error.usage + usage)


async def call_with_retries_explained(operation: Callable[[], Awaitable[T]], rules: RetryRules) -> T:
    """`operation` under the retry policy; a failure for good names what to fix."""

    async def attempt() -> T:
        try:
            return await operation()
        except Exception as error:
            kind = rules.classify(error)
            if kind.retryable or kind.context_overflow:
                raise
            raise ModelUnavailableError(rules.explain(error)) from error

    return await call_with_retries(attempt, rules.classify, rules.policy, rules.sleep, rules.draw)


class EventAccumulator(Protocol):
    """Folds a stream's events (as dicts) into one reply."""

    def apply(self, event: Mapping[str, Any], /) -> str | None:
        """Fold one event in; returns the text it added (empty or None if none)."""
        ...

    @property
    def usage(self) -> Usage:
        """What the stream has reported it charged so far (zero before it says)."""
        ...


A = TypeVar("A", bound=EventAccumulator)


@dataclass(frozen=True, slots=True)
class Completed(Generic[R]):
    """The result of the attempt that completed, and what the failed attempts before it cost."""

    result: R
    wasted: Usage = field(default_factory=Usage)


@dataclass
class _Attempt(Generic[A, R]):
    """One HTTP call of a stream: opened on the first step, read one text piece per step."""

    open_events: Callable[[], Awaitable[Any]]
    accumulator: A
    finish: Callable[[A], R]
    events: Any = None  # an SDK AsyncStream: its items have `to_dict(exclude_none=True)`; it has `close()`
    shown: bool = False

    async def step(self) -> str | Completed[R]:
        """The next text piece, or the finished result when the stream ends (raising if it was cut)."""
        if self.events is None:
            self.events = await self.open_events()
        while True:
            try:
                event = await anext(self.events)
            except StopAsyncIteration:
                return Completed(self.finish(self.accumulator))
            text = self.accumulator.apply(event.to_dict(exclude_none=True))
            if text:
                self.shown = True
                return text

    async def close(self) -> None:
        if self.events is not None:
            await self.events.close()


async def stream_with_retries(
    open_events: Callable[[], Awaitable[Any]],
    new_accumulator: Callable[[], A],
    finish: Callable[[A], R],
    *,
    rules: RetryRules,
    stream_name: str,
) -> AsyncGenerator[str | StreamReset | Completed[R], None]:
    """One streamed call, retried from the start after a retryable failure: text pieces, a
    `StreamReset` before a retry that abandons shown text, then one `Completed`.

    `open_events` opens the SDK stream (called once per attempt, each with a `new_accumulator()`);
    `finish` returns the result, raising a retryable error if the stream was cut before its end.
    `stream_name` starts a reset's reason ("The Anthropic stream")."""
    wasted = Usage()
    for attempt in itertools.count(1):
        current: _Attempt[A, R] = _Attempt(open_events, new_accumulator(), finish)
        try:
            while True:
                try:
                    item = await current.step()
                except Exception as error:
                    wasted += current.accumulator.usage
                    delay, failure = rules.delay_after(error, attempt, wasted), error
                    break
                if isinstance(item, Completed):
                    yield Completed(item.result, wasted)
                    return
                yield item
        finally:
            await current.close()
        if current.shown:
            yield StreamReset(f"{stream_name} was cut ({type(failure).__name__}: {failure}); it restarts")
        await rules.sleep(delay)
    raise AssertionError("unreachable: the loop returns or raises")

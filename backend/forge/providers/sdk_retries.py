"""Retrying SDK calls of the real-model providers: plain calls, streams until their first text.

The layer the Anthropic and OpenAI-compatible providers share above `call_with_retries`; each
brings its SDK-specific parts: how to open the event stream, an accumulator that folds the events,
how to classify and explain a failure.

Invariants:
    - `stream_with_retries` yields each text piece as it arrives, then exactly one result:
      `finish(accumulator)`.
    - One HTTP call is retried only while none of its text has been yielded: opening the stream and
      reading it up to its first text (or its end, which `finish` checks) is the retried part.
      After the first piece a failure is final (ModelUnavailableError), so the person never sees
      text twice.
    - The SDK stream is closed on every path: a failed attempt, a failure after text, the end, and
      a consumer that leaves early (close the generator, e.g. with `contextlib.aclosing`).
    - `call_with_retries_explained` leaves retryable failures and context overflows to
      `call_with_retries`; any other failure is final at once, as a ModelUnavailableError whose
      message is `explain(error)`: what a person must fix.
    - `retry_after_s` reads `retry-after-ms`, then `retry-after`, as seconds; an HTTP date or a
      missing header is None (our own backoff applies).
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from forge.core.backoff_schedule import RetryPolicy
from forge.ports import ModelUnavailableError
from forge.providers.call_with_retries import Classifier, call_with_retries

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


class EventAccumulator(Protocol):
    """Folds a stream's events (as dicts) into one reply."""

    def apply(self, event: Mapping[str, Any], /) -> str | None:
        """Fold one event in; returns the text it added (empty or None if none)."""
        ...


A = TypeVar("A", bound=EventAccumulator)


class Retrying(Protocol):
    """Runs one operation under a provider's retries (its wrapper around `call_with_retries_explained`)."""

    def __call__(self, operation: Callable[[], Awaitable[T]], /) -> Awaitable[T]: ...


async def call_with_retries_explained(
    operation: Callable[[], Awaitable[T]],
    classify: Classifier,
    explain: Callable[[Exception], str],
    policy: RetryPolicy = RetryPolicy(),
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    draw: Callable[[], float] = random.random,
) -> T:
    """`operation` under the retry policy; a failure for good names what to fix."""

    async def attempt() -> T:
        try:
            return await operation()
        except Exception as error:
            kind = classify(error)
            if kind.retryable or kind.context_overflow:
                raise
            raise ModelUnavailableError(explain(error)) from error

    return await call_with_retries(attempt, classify, policy, sleep, draw)


@dataclass
class _LiveStream(Generic[A]):
    """An open SDK event stream and the reply it is building."""

    events: Any  # an SDK AsyncStream: its items have `to_dict(exclude_none=True)`; it has `close()`
    accumulator: A
    ended: bool = False

    async def next_text(self) -> str | None:
        """Read events until one adds text (returned) or the stream ends (None)."""
        while not self.ended:
            try:
                event = await anext(self.events)
            except StopAsyncIteration:
                self.ended = True
                break
            text = self.accumulator.apply(event.to_dict(exclude_none=True))
            if text:
                return text
        return None

    async def close(self) -> None:
        await self.events.close()


async def _open_live_stream(
    open_events: Callable[[], Awaitable[Any]], new_accumulator: Callable[[], A], finish: Callable[[A], object]
) -> tuple[_LiveStream[A], str | None]:
    """Open a stream and read it up to its first text (or its end), so this part can be retried."""
    live = _LiveStream(await open_events(), new_accumulator())
    try:
        first = await live.next_text()
        if first is None:
            finish(live.accumulator)  # a stream cut before its end fails here, retryably
    except BaseException:
        await live.close()
        raise
    return live, first


async def stream_with_retries(
    open_events: Callable[[], Awaitable[Any]],
    new_accumulator: Callable[[], A],
    finish: Callable[[A], R],
    *,
    retrying: Retrying,
    stream_name: str,
) -> AsyncGenerator[str | R, None]:
    """One streamed HTTP call: its text pieces, then `finish(accumulator)`.

    `open_events` opens the SDK stream (called once per attempt, each with a `new_accumulator()`);
    `finish` returns the result, raising a retryable error if the stream was cut before its end.
    `stream_name` starts the message of a failure after text ("The Anthropic stream")."""
    opening = functools.partial(_open_live_stream, open_events, new_accumulator, finish)
    live, text = await retrying(opening)
    try:
        while text is not None:
            yield text
            text = await live.next_text()
        result = finish(live.accumulator)
    except Exception as error:
        raise ModelUnavailableError(f"{stream_name} failed after text was shown: {error}") from error
    finally:
        await live.close()
    yield result

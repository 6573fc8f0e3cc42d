"""Calling a provider with bounded retries: backoff with jitter, honouring retry-after.

Invariants:
    - At most `policy.max_attempts` attempts; then ModelUnavailableError naming the last failure.
    - Only failures the provider's classifier calls retryable are retried (429, 529/overloaded,
      5xx, timeouts, dropped connections); anything else fails at once.
    - Sleeping and randomness are injected, so tests run instantly and deterministically.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from forge.core.backoff_schedule import RetryPolicy, backoff_delay
from forge.ports import ContextOverflowError, ModelUnavailableError

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class FailureKind:
    """How a provider classifies an exception."""

    retryable: bool
    retry_after_s: float | None = None
    context_overflow: bool = False


Classifier = Callable[[Exception], FailureKind]


async def call_with_retries(
    operation: Callable[[], Awaitable[T]],
    classify: Classifier,
    policy: RetryPolicy = RetryPolicy(),
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    draw: Callable[[], float] = random.random,
) -> T:
    for attempt in range(1, policy.max_attempts + 1):
        try:
            return await operation()
        except (ModelUnavailableError, ContextOverflowError):
            raise
        except Exception as error:
            kind = classify(error)
            if kind.context_overflow:
                raise ContextOverflowError(str(error)) from error
            if not kind.retryable or attempt == policy.max_attempts:
                tried = f" after {attempt} attempt(s)" if kind.retryable else ""
                raise ModelUnavailableError(f"{type(error).__name__}{tried}: {error}") from error
            delay = backoff_delay(policy, attempt, draw(), kind.retry_after_s)
            log.warning("model call failed (%s); retry %d in %.1fs", type(error).__name__, attempt, delay)
            await sleep(delay)
    raise AssertionError("unreachable: the loop returns or raises")

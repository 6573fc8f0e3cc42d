"""Calling a provider with bounded retries: backoff with jitter, honouring retry-after.

Invariants:
    - At most `policy.max_attempts` attempts; then ModelUnavailableError naming the last failure.
    - Only failures the provider's classifier calls retryable are retried (429, 529/overloaded,
      5xx, timeouts, dropped connections); anything else fails at once.
    - `retry_delay` is the one decision "wait, then try again, or give up": `call_with_retries`
      and the streaming retries (`sdk_retries`) both use it, so they give up the same way. The
      ModelUnavailableError it raises carries the `usage` the failed attempts were charged.
    - Sleeping and randomness are injected, so tests run instantly and deterministically.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from forge.core.llm.backoff_schedule import RetryPolicy, backoff_delay
from forge.core.llm.messages import Usage
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


def retry_delay(
    error: Exception,
    attempt: int,
    classify: Classifier,
    policy: RetryPolicy,
    draw: Callable[[], float],
    usage: Usage = Usage(),
) -> float:
    """How long to wait before attempt `attempt + 1` after `error` ended attempt `attempt`.

    Raises instead when there is no next attempt: ContextOverflowError for a prompt that does not
    fit, else ModelUnavailableError (with `usage`, what the failed attempts were charged)."""
    kind = classify(error)
    if kind.context_overflow:
        raise ContextOverflowError(str(error)) from error
    if not kind.retryable or attempt >= policy.max_attempts:
        tried = f" after {attempt} attempt(s)" if kind.retryable else ""
        raise ModelUnavailableError(f"{type(error).__name__}{tried}: {error}", usage=usage) from error
    delay = backoff_delay(policy, attempt, draw(), kind.retry_after_s)
    log.warning("model call failed (%s); retry %d in %.1fs", type(error).__name__, attempt, delay)
    return delay


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
            await sleep(retry_delay(error, attempt, classify, policy, draw))
    raise AssertionError("unreachable: the loop returns or raises")

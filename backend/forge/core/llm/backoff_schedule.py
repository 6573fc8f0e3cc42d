"""Retry delays: exponential backoff with jitter, honouring a server's `retry-after`.

Invariants:
    - Pure: the random draw is an argument (0 <= draw < 1), so schedules are testable.
    - A delay never exceeds `max_delay_s`, except that a server's retry-after is honoured up to
      `max_retry_after_s` (waiting less than the server asked only earns another 429).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_attempts: int = 5
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0
    jitter: float = 0.25  # +/- this fraction of the computed delay
    max_retry_after_s: float = 120.0


def backoff_delay(policy: RetryPolicy, attempt: int, draw: float, retry_after_s: float | None = None) -> float:
    """Delay before retry number `attempt` (1 = first retry)."""
    if retry_after_s is not None and retry_after_s >= 0:
        return min(retry_after_s, policy.max_retry_after_s)
    exponential = min(policy.max_delay_s, policy.base_delay_s * float(2 ** (attempt - 1)))
    spread = exponential * policy.jitter * (2 * draw - 1)
    return max(0.0, min(policy.max_delay_s, exponential + spread))

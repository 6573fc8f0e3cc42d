"""Login throttling: how many wrong passwords one (account, client address) may try in a window.

Invariants:
    - Only failures inside the window count; a success forgets the key's failures (the caller's store).
    - Once `max_failures` failures fall inside the window, further attempts are refused until the
      oldest of them leaves it: `retry_after_seconds` is that wait, rounded up, at least 1.
    - A refused attempt is not checked (no password hashing) and not counted: waiting it out works.
    - Pure: the caller passes the failure times and now.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True, slots=True)
class LoginThrottlePolicy:
    max_failures: int = 5
    window_seconds: float = 900.0

    @property
    def window(self) -> timedelta:
        return timedelta(seconds=self.window_seconds)


@dataclass(frozen=True, slots=True)
class LoginRefusal:
    retry_after_seconds: int
    message: str


def failures_in_window(
    failures: Sequence[datetime], now: datetime, policy: LoginThrottlePolicy
) -> tuple[datetime, ...]:
    """The failures that still count, oldest first."""
    start = now - policy.window
    return tuple(sorted(at for at in failures if at > start))


def login_refusal(failures: Sequence[datetime], now: datetime, policy: LoginThrottlePolicy) -> LoginRefusal | None:
    """Why this attempt is refused before its password is checked, or None when it may be tried."""
    counted = failures_in_window(failures, now, policy)
    if len(counted) < policy.max_failures:
        return None
    frees_at = counted[-policy.max_failures] + policy.window
    wait = max(1, math.ceil((frees_at - now).total_seconds()))
    return LoginRefusal(
        wait,
        f"Too many failed logins for this account from your address ({len(counted)} in the last "
        f"{_duration(policy.window_seconds)}); try again in {_duration(wait)}.",
    )


def _duration(seconds: float) -> str:
    whole = math.ceil(seconds)
    if whole < 120:
        return f"{whole} s"
    return f"{math.ceil(whole / 60)} min"

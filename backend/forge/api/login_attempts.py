"""Failed logins per (account, client address), kept in this process for the throttle's window.

Invariants:
    - Keys are the normalised email and the client's address; a success forgets the key.
    - At most MAX_KEYS keys are kept: the least recently touched goes first, so a flood of made-up
      accounts cannot grow memory without bound.
    - Per process: with several API replicas, each counts its own attempts (a client spread across
      replicas by a load balancer gets up to `max_failures` per replica).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime

from forge.core.accounts.login_throttle import LoginRefusal, LoginThrottlePolicy, failures_in_window, login_refusal

MAX_KEYS = 10_000


def _utc_now() -> datetime:
    return datetime.now(UTC)


class LoginAttempts:
    def __init__(self, policy: LoginThrottlePolicy, now: Callable[[], datetime] = _utc_now) -> None:
        self._policy = policy
        self._now = now
        self._failures: OrderedDict[tuple[str, str], tuple[datetime, ...]] = OrderedDict()

    @staticmethod
    def key(email: str, address: str) -> tuple[str, str]:
        return email.strip().lower(), address

    def refusal(self, key: tuple[str, str]) -> LoginRefusal | None:
        return login_refusal(self._failures.get(key, ()), self._now(), self._policy)

    def failed(self, key: tuple[str, str]) -> None:
        now = self._now()
        self._failures[key] = (*failures_in_window(self._failures.get(key, ()), now, self._policy), now)
        self._failures.move_to_end(key)
        while len(self._failures) > MAX_KEYS:
            self._failures.popitem(last=False)

    def succeeded(self, key: tuple[str, str]) -> None:
        self._failures.pop(key, None)

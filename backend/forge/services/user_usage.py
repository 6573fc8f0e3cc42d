"""Per-user usage: the limits check before model work, and the admin's usage report.

Invariants:
    - `refusal` reads the user's usage in one short transaction and judges it with the pure
      `core.user_limits.limit_refusal`; with no limit configured it reads nothing.
    - A running session is one whose run lease is live by this process's RunRegistry (the same
      judgement `running` uses everywhere); the session the command is about is not counted, so a
      POST /run on a session that already runs is never refused for running.
    - The check happens before the command's own transaction, not under a per-user lock: a burst
      of simultaneous requests from one user can pass together and overshoot a limit by the number
      in flight. Limits bound spend and load; they are not a billing ledger.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from forge.core.accounts.user_limits import (
    HOUR,
    LimitedAction,
    LimitExceeded,
    UsageSnapshot,
    UserLimits,
    limit_refusal,
    month_start,
)
from forge.core.accounts.users import User, UserId
from forge.core.domain_types import SessionId
from forge.ports import Clock, StoredUsage, UnitOfWorkFactory
from forge.services.runs.registry import RunRegistry


@dataclass(frozen=True, slots=True)
class UserUsage:
    user: User
    sessions_total: int
    sessions_running: int
    sessions_last_hour: int
    spend_this_month_usd: float
    spend_total_usd: float
    active_tokens: int


class UserUsageService:
    def __init__(self, uow_factory: UnitOfWorkFactory, registry: RunRegistry, clock: Clock, limits: UserLimits) -> None:
        self._uow_factory = uow_factory
        self._registry = registry
        self._clock = clock
        self.limits = limits

    def _running(self, stored: StoredUsage, besides: SessionId | None = None) -> int:
        return sum(1 for sid, lease in stored.leases if sid != besides and self._registry.is_live(lease))

    async def _stored(self, user_id: UserId, now: datetime) -> StoredUsage:
        async with self._uow_factory() as uow:
            return await uow.accounts.usage(user_id, sessions_since=now - HOUR, spend_since=month_start(now))

    async def refusal(
        self, user_id: UserId, action: LimitedAction, session_id: SessionId | None = None
    ) -> LimitExceeded | None:
        """Why the user may not do `action` now (naming the limit), or None."""
        if self.limits.unlimited:
            return None
        stored = await self._stored(user_id, self._clock.now())
        usage = UsageSnapshot(self._running(stored, session_id), stored.sessions_since, stored.spend_since_usd)
        return limit_refusal(action, usage, self.limits)

    async def report(self) -> list[UserUsage]:
        """Every user's sessions, running runs, spend (this month and in all) and active tokens."""
        now = self._clock.now()
        async with self._uow_factory() as uow:
            users = await uow.accounts.users()
            tokens = await uow.accounts.token_counts([u.id for u in users])
            stored = [
                await uow.accounts.usage(u.id, sessions_since=now - HOUR, spend_since=month_start(now)) for u in users
            ]
        return [
            UserUsage(
                user,
                s.sessions_total,
                self._running(s),
                s.sessions_since,
                s.spend_since_usd,
                s.spend_total_usd,
                tokens.get(user.id, 0),
            )
            for user, s in zip(users, stored, strict=True)
        ]

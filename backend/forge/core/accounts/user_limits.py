"""Per-user limits on model work (pure): running sessions, sessions started per hour, monthly spend.

Invariants:
    - A limit of None is no limit. Each limit is named by its variable in every refusal, so the
      person (or operator) knows what stops them and what to change.
    - `limit_refusal` judges a snapshot of the user's usage, read by the shell just before the
      command; it never reads anything itself.
    - Creating a session counts against the hourly limit and the spend cap; starting model work on
      a session (POST /run, a review that opens the next phase) counts against the running-session
      limit and the spend cap. A session that already runs is not counted twice.
    - The month is the calendar month in UTC; spend is the cost recorded on the user's sessions
      created in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

HOUR = timedelta(hours=1)


class LimitedAction(str, Enum):
    CREATE_SESSION = "create_session"
    START_WORK = "start_work"


@dataclass(frozen=True, slots=True)
class UserLimits:
    max_running_sessions: int | None = None
    max_sessions_per_hour: int | None = None
    monthly_spend_usd: float | None = None

    @property
    def unlimited(self) -> bool:
        return (
            self.max_running_sessions is None
            and self.max_sessions_per_hour is None
            and (self.monthly_spend_usd is None)
        )


@dataclass(frozen=True, slots=True)
class UsageSnapshot:
    running_sessions: int  # other than the session the command is about
    sessions_last_hour: int
    spend_this_month_usd: float


@dataclass(frozen=True, slots=True)
class LimitExceeded:
    limit: str  # the variable that sets it
    message: str


def month_start(now: datetime) -> datetime:
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def limit_refusal(action: LimitedAction, usage: UsageSnapshot, limits: UserLimits) -> LimitExceeded | None:
    cap = limits.monthly_spend_usd
    if cap is not None and usage.spend_this_month_usd >= cap:
        return LimitExceeded(
            "FORGE_USER_MONTHLY_SPEND_USD",
            f"Monthly spend cap reached: ${usage.spend_this_month_usd:.2f} of ${cap:.2f} this month "
            "(FORGE_USER_MONTHLY_SPEND_USD). Ask an admin to raise it, or wait for next month.",
        )
    hourly = limits.max_sessions_per_hour
    if action == LimitedAction.CREATE_SESSION and hourly is not None and usage.sessions_last_hour >= hourly:
        return LimitExceeded(
            "FORGE_USER_SESSIONS_PER_HOUR",
            f"Session limit reached: {usage.sessions_last_hour} sessions created in the last hour, the limit is "
            f"{hourly} (FORGE_USER_SESSIONS_PER_HOUR). Try again later.",
        )
    running = limits.max_running_sessions
    if action == LimitedAction.START_WORK and running is not None and usage.running_sessions >= running:
        return LimitExceeded(
            "FORGE_USER_MAX_RUNNING_SESSIONS",
            f"Running-session limit reached: {usage.running_sessions} of your sessions are running, the limit is "
            f"{running} (FORGE_USER_MAX_RUNNING_SESSIONS). Wait for one to pause for review, or cancel one.",
        )
    return None

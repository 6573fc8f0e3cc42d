"""Per-user limit verdicts: each names its variable; None limits never refuse; actions count what they start."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from forge.core.accounts.user_limits import LimitedAction, UsageSnapshot, UserLimits, limit_refusal, month_start

CREATE, START = LimitedAction.CREATE_SESSION, LimitedAction.START_WORK
BUSY = UsageSnapshot(running_sessions=50, sessions_last_hour=50, spend_this_month_usd=500.0)


@pytest.mark.parametrize("action", [CREATE, START])
def test_no_limit_never_refuses(action: LimitedAction) -> None:
    assert UserLimits().unlimited and limit_refusal(action, BUSY, UserLimits()) is None


def test_the_hourly_limit_refuses_creating_only() -> None:
    limits = UserLimits(max_sessions_per_hour=3)
    at_limit = UsageSnapshot(0, 3, 0.0)
    refused = limit_refusal(CREATE, at_limit, limits)
    assert refused is not None and refused.limit == "FORGE_USER_SESSIONS_PER_HOUR" and "3" in refused.message
    assert limit_refusal(START, at_limit, limits) is None
    assert limit_refusal(CREATE, UsageSnapshot(0, 2, 0.0), limits) is None


def test_the_running_limit_refuses_starting_work_only() -> None:
    limits = UserLimits(max_running_sessions=2)
    refused = limit_refusal(START, UsageSnapshot(2, 0, 0.0), limits)
    assert refused is not None and refused.limit == "FORGE_USER_MAX_RUNNING_SESSIONS"
    assert limit_refusal(CREATE, UsageSnapshot(2, 0, 0.0), limits) is None
    assert limit_refusal(START, UsageSnapshot(1, 0, 0.0), limits) is None


@pytest.mark.parametrize("action", [CREATE, START])
def test_the_spend_cap_refuses_both_once_reached(action: LimitedAction) -> None:
    limits = UserLimits(monthly_spend_usd=10.0)
    refused = limit_refusal(action, UsageSnapshot(0, 0, 10.0), limits)
    assert refused is not None and refused.limit == "FORGE_USER_MONTHLY_SPEND_USD"
    assert "$10.00 of $10.00" in refused.message
    assert limit_refusal(action, UsageSnapshot(0, 0, 9.99), limits) is None


def test_the_month_starts_at_midnight_utc_on_the_first() -> None:
    assert month_start(datetime(2026, 11, 23, 17, 5, 3, 9, tzinfo=UTC)) == datetime(2026, 11, 1, tzinfo=UTC)

"""When a login attempt is refused, and for how long (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from forge.core.accounts.login_throttle import LoginThrottlePolicy, failures_in_window, login_refusal

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
POLICY = LoginThrottlePolicy(max_failures=3, window_seconds=600)


def _ago(*seconds: float) -> list[datetime]:
    return [NOW - timedelta(seconds=s) for s in seconds]


def test_fewer_failures_than_allowed_in_the_window_are_no_refusal() -> None:
    assert login_refusal(_ago(10, 20), NOW, POLICY) is None
    assert login_refusal(_ago(10, 20, 700, 800), NOW, POLICY) is None  # two are older than the window


def test_the_refusal_lasts_until_the_oldest_counted_failure_leaves_the_window() -> None:
    refused = login_refusal(_ago(30, 100, 400), NOW, POLICY)
    assert refused is not None and refused.retry_after_seconds == 200  # 400 s ago + 600 s = in 200 s
    assert refused.message == (
        "Too many failed logins for this account from your address (3 in the last 10 min); try again in 4 min."
    )


def test_with_more_failures_than_allowed_the_wait_is_until_enough_have_left() -> None:
    refused = login_refusal(_ago(1, 2, 3, 500, 599.5), NOW, POLICY)
    assert refused is not None and refused.retry_after_seconds == 597  # the third newest, 3 s ago
    assert "(5 in the last" in refused.message and "try again in 10 min" in refused.message


def test_the_wait_is_at_least_one_second_and_only_window_failures_are_kept() -> None:
    refused = login_refusal(_ago(5, 6, 599.9), NOW, POLICY)
    assert refused is not None and refused.retry_after_seconds == 1
    assert failures_in_window(_ago(1, 900, 600), NOW, POLICY) == tuple(_ago(1))

from __future__ import annotations

import pytest

from forge.core.llm.backoff_schedule import RetryPolicy, backoff_delay

POLICY = RetryPolicy(max_attempts=5, base_delay_s=1.0, max_delay_s=30.0, jitter=0.25)


def test_delay_doubles_per_attempt_without_jitter_at_the_midpoint_draw() -> None:
    assert [backoff_delay(POLICY, n, 0.5) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 8.0]


def test_jitter_spreads_the_delay_by_at_most_the_configured_fraction() -> None:
    assert backoff_delay(POLICY, 3, 0.0) == pytest.approx(3.0)
    assert backoff_delay(POLICY, 3, 0.999999) == pytest.approx(5.0, abs=1e-4)


def test_delay_is_capped() -> None:
    assert backoff_delay(POLICY, 12, 0.99) == 30.0


def test_retry_after_is_honoured_up_to_its_own_cap() -> None:
    assert backoff_delay(POLICY, 1, 0.5, retry_after_s=7.0) == 7.0
    assert backoff_delay(POLICY, 1, 0.5, retry_after_s=999.0) == POLICY.max_retry_after_s

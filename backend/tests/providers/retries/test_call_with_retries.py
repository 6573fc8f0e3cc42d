from __future__ import annotations

import pytest

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.ports import ContextOverflowError, ModelUnavailableError
from forge.providers.call_with_retries import FailureKind, call_with_retries


class Flaky:
    def __init__(self, failures: list[Exception]):
        self.failures = failures
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return "ok"


class RateLimited(Exception):
    pass


def classify(error: Exception) -> FailureKind:
    if isinstance(error, RateLimited):
        return FailureKind(retryable=True, retry_after_s=7.0)
    if isinstance(error, TimeoutError):
        return FailureKind(retryable=True)
    if isinstance(error, OverflowError):
        return FailureKind(retryable=False, context_overflow=True)
    return FailureKind(retryable=False)


async def _run(operation: Flaky, policy: RetryPolicy = RetryPolicy(max_attempts=3)) -> tuple[str, list[float]]:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    result = await call_with_retries(operation, classify, policy, sleep=sleep, draw=lambda: 0.5)
    return result, slept


async def test_retries_transient_failures_with_backoff_then_succeeds() -> None:
    result, slept = await _run(Flaky([TimeoutError(), RateLimited()]))
    assert result == "ok" and slept == [1.0, 7.0]  # backoff, then the server's retry-after


async def test_gives_up_after_max_attempts_naming_the_last_failure() -> None:
    operation = Flaky([TimeoutError("slow")] * 5)
    with pytest.raises(ModelUnavailableError, match="after 3 attempt"):
        await _run(operation)
    assert operation.calls == 3


async def test_non_retryable_failure_is_not_retried() -> None:
    operation = Flaky([PermissionError("bad key")])
    with pytest.raises(ModelUnavailableError, match="bad key"):
        await _run(operation)
    assert operation.calls == 1


async def test_context_overflow_is_raised_as_such_for_the_loop_to_compact() -> None:
    with pytest.raises(ContextOverflowError):
        await _run(Flaky([OverflowError("prompt is too long")]))

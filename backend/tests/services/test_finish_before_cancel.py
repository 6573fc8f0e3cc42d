from __future__ import annotations

import asyncio

import pytest

from forge.services.runs.finish_before_cancel import finish_before_cancelling


class Write:
    """A write that takes a few loop turns and records whether it ran to its end."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.finished = False

    async def run(self, result: str = "committed") -> str:
        self.started.set()
        for _ in range(5):
            await asyncio.sleep(0)
        self.finished = True
        return result


async def test_returns_the_result_of_work_that_is_not_cancelled() -> None:
    assert await finish_before_cancelling(Write().run("ok")) == "ok"


async def test_raises_the_exception_of_the_work() -> None:
    async def fails() -> None:
        await asyncio.sleep(0)
        raise ValueError("constraint violated")

    with pytest.raises(ValueError, match="constraint violated"):
        await finish_before_cancelling(fails())


@pytest.mark.parametrize("cancels", [1, 3])
async def test_a_cancelled_caller_lets_the_work_finish_then_is_cancelled(cancels: int) -> None:
    write = Write()
    after: list[str] = []

    async def caller() -> None:
        after.append(await finish_before_cancelling(write.run()))

    task = asyncio.create_task(caller())
    await write.started.wait()
    for _ in range(cancels):
        task.cancel()
        await asyncio.sleep(0)
    with pytest.raises(asyncio.CancelledError):
        await task
    assert write.finished
    assert after == []  # the code after the call does not run: bookkeeping belongs inside the work


async def test_a_cancellation_of_the_work_itself_reaches_the_caller() -> None:
    blocked = asyncio.Event()

    async def hangs() -> None:
        await asyncio.Event().wait()

    async def caller() -> None:
        blocked.set()
        await finish_before_cancelling(hangs())

    task = asyncio.create_task(caller())
    await blocked.wait()
    await asyncio.sleep(0)
    (work,) = [t for t in asyncio.all_tasks() if t is not task and t is not asyncio.current_task()]
    work.cancel()  # what the loop does to every task when it shuts down
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_then_runs_in_the_callers_task_once_the_work_is_done_cancelled_or_not() -> None:
    write = Write()
    seen: list[tuple[str, bool]] = []

    async def caller() -> None:
        me = asyncio.current_task()
        await finish_before_cancelling(
            write.run(), then=lambda result: seen.append((result, asyncio.current_task() is me))
        )

    task = asyncio.create_task(caller())
    await write.started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert seen == [("committed", True)]


async def test_then_does_not_run_when_the_work_fails() -> None:
    seen: list[object] = []

    async def fails() -> None:
        raise ValueError("lost")

    with pytest.raises(ValueError):
        await finish_before_cancelling(fails(), then=seen.append)
    assert seen == []


async def test_a_cancelled_caller_whose_work_then_fails_is_cancelled_with_the_failure_as_cause() -> None:
    started = asyncio.Event()

    async def fails_later() -> None:
        started.set()
        for _ in range(3):
            await asyncio.sleep(0)
        raise ValueError("the database went away")

    task = asyncio.create_task(finish_before_cancelling(fails_later()))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError) as raised:
        await task
    assert isinstance(raised.value.__cause__, ValueError)

"""The sliced wake-up signal: every waiter released once, and other work not queued behind them all."""

from __future__ import annotations

import asyncio

import pytest

from forge.services.broadcast.sliced_wake_signal import SlicedWakeSignal


async def _waiters(signal: SlicedWakeSignal, count: int, woken: list[int]) -> list[asyncio.Task[None]]:
    async def wait(i: int) -> None:
        await signal.wait()
        woken.append(i)

    tasks = [asyncio.create_task(wait(i)) for i in range(count)]
    await asyncio.sleep(0)  # every waiter is waiting
    return tasks


async def test_releases_every_waiter_once_in_arrival_order() -> None:
    signal, woken = SlicedWakeSignal(slice_size=8), []
    tasks = await _waiters(signal, 50, woken)
    signal.set()
    await asyncio.gather(*tasks)
    assert woken == list(range(50))


async def test_work_scheduled_after_set_runs_before_the_last_slices() -> None:
    signal, woken = SlicedWakeSignal(slice_size=8), []
    tasks = await _waiters(signal, 100, woken)
    signal.set()
    seen_by_probe: list[int] = []
    asyncio.get_running_loop().call_soon(lambda: seen_by_probe.append(len(woken)))
    await asyncio.gather(*tasks)
    assert seen_by_probe and seen_by_probe[0] <= 16  # at most two slices ran before it, not all 100


async def test_an_asyncio_event_would_queue_the_probe_behind_every_waiter() -> None:
    """The contrast the signal exists for (if asyncio changes this, the test above is moot)."""
    event, woken = asyncio.Event(), []

    async def wait(i: int) -> None:
        await event.wait()
        woken.append(i)

    tasks = [asyncio.create_task(wait(i)) for i in range(100)]
    await asyncio.sleep(0)
    event.set()
    seen_by_probe: list[int] = []
    asyncio.get_running_loop().call_soon(lambda: seen_by_probe.append(len(woken)))
    await asyncio.gather(*tasks)
    assert seen_by_probe == [100]


async def test_wait_on_a_set_signal_returns_at_once() -> None:
    signal = SlicedWakeSignal()
    signal.set()
    signal.set()  # idempotent
    assert signal.is_set()
    await asyncio.wait_for(signal.wait(), timeout=1)


async def test_a_cancelled_waiter_is_skipped_and_the_others_wake() -> None:
    signal, woken = SlicedWakeSignal(slice_size=2), []
    tasks = await _waiters(signal, 5, woken)
    tasks[1].cancel()
    await asyncio.sleep(0)
    signal.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert woken == [0, 2, 3, 4]
    assert isinstance(results[1], asyncio.CancelledError)


def test_a_slice_must_hold_a_waiter() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        SlicedWakeSignal(slice_size=0)

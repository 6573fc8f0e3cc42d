"""Cancelling a session while the agent works stops the run and keeps what was done."""

from __future__ import annotations

import asyncio
from pathlib import Path

from support.fixed_clock import CountingIds, FixedClock
from support.fresh_database import migrated_sqlite_url
from support.memory_research import MemoryResearch

from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.core.domain_types import SessionStatus
from forge.core.llm.messages import ModelRequest, ModelResponse
from forge.core.session.events import EventType
from forge.services.service_results import FailureKind, ServiceFailure


class BlockingModel:
    """A model whose call never returns until cancelled (a slow provider)."""

    def __init__(self) -> None:
        self.called = asyncio.Event()

    @property
    def label(self) -> str:
        return "blocking model"

    @property
    def context_window(self) -> int:
        return 1000

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.called.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_cancel_stops_the_running_agent_and_records_why(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    model = BlockingModel()
    container = build_container(
        Settings(embedder="hashed", database_url=url),
        model=model,
        research=MemoryResearch([]),
        clock=FixedClock(),
        new_id=CountingIds(),
    )
    service = container.service
    record = await service.create("How can a hospital cut emergency wait times without more staff?")
    assert not isinstance(record, ServiceFailure)
    started = await service.start_run(record.id)
    assert not isinstance(started, ServiceFailure) and started.started
    await asyncio.wait_for(model.called.wait(), 2)
    running = await service.get(record.id)
    assert not isinstance(running, ServiceFailure) and running.running

    cancelled = await service.cancel(record.id)
    assert not isinstance(cancelled, ServiceFailure) and cancelled.status == SessionStatus.CANCELLED
    after = await service.get(record.id)
    assert not isinstance(after, ServiceFailure) and not after.running and after.status == SessionStatus.CANCELLED
    events = await service.events(record.id, 0, 100)
    assert not isinstance(events, ServiceFailure)
    assert [e.type for e in events] == [EventType.PHASE_CHANGE, EventType.ERROR, EventType.DONE]
    assert events[1].data["code"] == "CANCELLED"
    refused = await service.start_run(record.id)  # a cancelled session does not restart
    assert isinstance(refused, ServiceFailure) and refused.kind == FailureKind.CONFLICT
    assert "cancelled" in refused.message
    again = await service.get(record.id)
    assert not isinstance(again, ServiceFailure) and not again.running
    await container.close()

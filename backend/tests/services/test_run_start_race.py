"""A command that took a run's lease makes the run live in its process before its commit.

On PostgreSQL the commit releases the session's row lock, and a command that waited for it can run
before the committing coroutine resumes. These tests run exactly that interleaving: a `start_run`
right after another command's commit returns, before that command goes on. It must find the run
live (`started=False`), never start a second one. (On SQLite the write gate is held until the
unit of work ends, so the interleaving cannot happen there.)
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from support.fresh_database import migrated_database_url

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.events import EventType
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.services.service_results import RunStarted, ServiceFailure

pytestmark = pytest.mark.postgres
PROBLEM = "How can a hospital cut emergency wait times without more staff?"


@pytest.fixture
async def container(tmp_path: Path) -> AsyncIterator[Container]:
    async with migrated_database_url("postgresql", tmp_path, prefix="forge_test_start_race") as url:
        made = build_container(
            Settings(embedder="hashed", database_url=url, data_dir=tmp_path, offline_step_delay_ms=20)
        )
        try:
            yield made
        finally:
            await made.close()


class CommandAfterNextCommit:
    """Runs `command` once, right after the next unit of work's commit returns (before its caller
    resumes); what it returned is kept in `result`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, command: Callable[[], Awaitable[Any]]) -> None:
        self.result: Any = None
        self._command: Callable[[], Awaitable[Any]] | None = command
        original = SqlAlchemyUnitOfWork.commit

        async def commit_then_command(uow: SqlAlchemyUnitOfWork) -> None:
            await original(uow)
            command, self._command = self._command, None
            if command is not None:
                self.result = await command()

        monkeypatch.setattr(SqlAlchemyUnitOfWork, "commit", commit_then_command)


async def _wait_for_pause(c: Container, sid: SessionId) -> None:
    await c.runs.wait(sid)  # every run of the session in this process, to its end


def _runs_of(events: list[Any]) -> list[tuple[str, bool]]:
    return [(e.data["phase"], bool(e.data.get("resumed"))) for e in events if e.type == EventType.PHASE_CHANGE]


async def test_a_start_run_right_after_another_start_runs_commit_finds_the_run_live(
    container: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = await container.service.create(PROBLEM)
    assert not isinstance(created, ServiceFailure)
    second = CommandAfterNextCommit(monkeypatch, lambda: container.service.start_run(created.id))
    first = await container.service.start_run(created.id)
    assert isinstance(first, RunStarted) and first.started
    assert isinstance(second.result, RunStarted) and not second.result.started, "a second run was started"
    await _wait_for_pause(container, created.id)
    events = await container.service.events(created.id, 0, 1000)
    assert not isinstance(events, ServiceFailure)
    assert _runs_of(events) == [("decompose", False)]
    assert [e.type for e in events].count(EventType.DONE) == 1


async def test_a_start_run_right_after_a_reviews_commit_finds_the_next_phases_run_live(
    container: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = await container.service.create(PROBLEM)
    assert not isinstance(created, ServiceFailure)
    started = await container.service.start_run(created.id)
    assert isinstance(started, RunStarted) and started.started
    await _wait_for_pause(container, created.id)
    second = CommandAfterNextCommit(monkeypatch, lambda: container.service.start_run(created.id))
    reviewed = await container.service.submit_autopilot_review(created.id, AutopilotPolicy())
    assert not isinstance(reviewed, ServiceFailure)
    assert isinstance(second.result, RunStarted) and not second.result.started, "a second run was started"
    await _wait_for_pause(container, created.id)
    events = await container.service.events(created.id, 0, 1000)
    assert not isinstance(events, ServiceFailure)
    assert _runs_of(events) == [("decompose", False), ("explore", False)]

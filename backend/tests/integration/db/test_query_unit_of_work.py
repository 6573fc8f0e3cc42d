"""A query's unit of work reads what commands committed, cannot write, and on PostgreSQL reads
outside a transaction block (no BEGIN and ROLLBACK round trips)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from support.fresh_database import BACKENDS, fresh_database_url, migrated_database_url

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.db.engine import create_engine_for, create_query_session_factory
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.services.service_results import ServiceFailure

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


@pytest.fixture(params=BACKENDS)
async def container(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Container]:
    async with migrated_database_url(request.param, tmp_path, prefix="forge_test_queries") as url:
        made = build_container(Settings(embedder="hashed", database_url=url, data_dir=tmp_path))
        try:
            yield made
        finally:
            await made.close()


def _query(container: Container) -> SqlAlchemyUnitOfWork:
    return SqlAlchemyUnitOfWork(create_query_session_factory(container.engine), query_only=True)


async def _created(container: Container) -> SessionId:
    created = await container.service.create(PROBLEM)
    assert not isinstance(created, ServiceFailure)
    return created.id


async def test_a_query_reads_what_a_command_committed(container: Container) -> None:
    sid = await _created(container)
    async with _query(container) as uow:
        record = await uow.sessions.get(sid)
        state = await uow.sessions.load_state(sid)
    assert record is not None and record.problem == PROBLEM
    assert state.problem == PROBLEM


async def test_a_query_cannot_write_or_commit_and_the_session_is_untouched(container: Container) -> None:
    sid = await _created(container)
    async with _query(container) as uow:
        before = await uow.sessions.get(sid)
        with pytest.raises(RuntimeError, match="cannot write"):
            await uow.sessions.lock(sid)
        with pytest.raises(RuntimeError, match="cannot write"):
            await uow.sessions.delete(sid)
        with pytest.raises(RuntimeError, match="nothing to commit"):
            await uow.commit()
    async with _query(container) as uow:
        assert await uow.sessions.get(sid) == before


@pytest.mark.postgres
async def test_on_postgresql_each_read_of_a_query_is_its_own_transaction(tmp_path: Path) -> None:
    async with fresh_database_url("postgresql", tmp_path, prefix="forge_test_queries") as url:
        engine = create_engine_for(url)
        try:
            async with SqlAlchemyUnitOfWork(create_query_session_factory(engine), query_only=True) as uow:
                session = uow._active()
                first = (await session.execute(text("SELECT transaction_timestamp()"))).scalar_one()
                await session.execute(text("SELECT pg_sleep(0.01)"))
                second = (await session.execute(text("SELECT transaction_timestamp()"))).scalar_one()
        finally:
            await engine.dispose()
    assert second > first, "the reads ran in one transaction block (a BEGIN was sent)"

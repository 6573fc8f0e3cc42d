"""SQLite's write gate in a real container: held from a unit of work's first write to its commit,
and shared with other processes through the lock file beside the database."""

from __future__ import annotations

import asyncio
import fcntl
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.fresh_database import migrated_sqlite_url
from support.lock_file import free_for_others

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.db.cross_process_write_lock import write_lock_path
from forge.services.service_results import ServiceFailure

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


@pytest.fixture
async def container(tmp_path: Path) -> AsyncIterator[Container]:
    url = await migrated_sqlite_url(tmp_path)
    made = build_container(Settings(embedder="hashed", database_url=url, data_dir=tmp_path))
    try:
        yield made
    finally:
        await made.close()


async def _created(container: Container) -> SessionId:
    created = await container.service.create(PROBLEM)
    assert not isinstance(created, ServiceFailure)
    return created.id


async def test_a_write_holds_the_lock_file_against_other_processes_until_its_commit(
    container: Container, tmp_path: Path
) -> None:
    sid = await _created(container)
    lock_file = write_lock_path(tmp_path / "forge.db")
    async with container.uow_factory() as uow:
        assert free_for_others(lock_file)  # nothing written yet: readers take no lock
        await uow.sessions.lock(sid)
        assert not free_for_others(lock_file)
        await uow.commit()
        assert free_for_others(lock_file)


async def test_the_next_writer_goes_once_a_unit_of_work_has_committed_before_its_block_ends(
    container: Container,
) -> None:
    sid = await _created(container)
    async with container.uow_factory() as first:
        await first.sessions.lock(sid)
        await first.commit()
        async with asyncio.timeout(5):  # the gate kept to the end of the block would deadlock here
            async with container.uow_factory() as second:
                await second.sessions.lock(sid)
                await second.commit()


async def test_a_writer_waits_for_another_process_holding_the_lock_file_then_writes(
    container: Container, tmp_path: Path
) -> None:
    sid = await _created(container)
    lock_file = write_lock_path(tmp_path / "forge.db")
    other = os.open(lock_file, os.O_RDWR | os.O_CREAT)  # its own open file: as another process holds it
    fcntl.flock(other, fcntl.LOCK_EX)
    try:

        async def write() -> None:
            async with container.uow_factory() as uow:
                await uow.sessions.lock(sid)
                await uow.commit()

        writing = asyncio.create_task(write())
        await asyncio.sleep(0.1)
        assert not writing.done()
    finally:
        os.close(other)
    async with asyncio.timeout(5):
        await writing
    assert free_for_others(lock_file)


async def test_a_database_whose_lock_file_cannot_be_made_is_still_written(container: Container, tmp_path: Path) -> None:
    sid = await _created(container)
    lock_file = write_lock_path(tmp_path / "forge.db")
    lock_file.unlink(missing_ok=True)
    lock_file.mkdir()  # a directory where the file should be: opening it for writing fails
    async with container.uow_factory() as uow:
        before = await uow.sessions.get(sid)
    async with container.uow_factory() as uow:
        await uow.sessions.lock(sid)
        await uow.commit()
    async with container.uow_factory() as uow:
        after = await uow.sessions.get(sid)
    assert before is not None and after is not None and after.version == before.version + 1

"""Seqs counted in memory under the session's lock, on SQLite and PostgreSQL: appends in a locked
transaction number messages and events exactly as the row's counters would, the counters are
written before the commit (with the state's UPDATE or on their own), and a rollback keeps nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.llm.messages import Message, Role, TextPart
from forge.core.session.events import agent_text
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord, ToolCallEntry
from forge.db.tables import SessionRow, ToolCallRow
from forge.db.unit_of_work import SqlAlchemyUnitOfWork

UowFactory = Callable[[], SqlAlchemyUnitOfWork]
T0 = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)


async def add_session(uow_factory: UowFactory) -> SessionRecord:
    record = SessionRecord(
        SessionId(uuid.uuid4()), "Store heat?", SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0, T0, "m"
    )
    async with uow_factory() as uow:
        await uow.sessions.add(record, ForgeState(problem=record.problem))
        await uow.commit()
    return record


def text_message(role: Role, text: str) -> Message:
    return Message(role, (TextPart(text),))


async def _row(db: Any, session_id: Any) -> tuple[int, int]:
    async with db.session_factory() as s:
        row = (
            await s.execute(
                select(SessionRow.last_event_seq, SessionRow.message_count).where(SessionRow.id == session_id)
            )
        ).one()
    return int(row[0]), int(row[1])


async def test_locked_appends_number_on_from_the_row_and_write_its_counters(db: Any, uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:  # unlocked: allocated in the row, as before
        await uow.sessions.append_messages(record.id, [text_message(Role.USER, "brief")])
        first = await uow.events.append_all(record.id, [agent_text("a")], T0)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.sessions.lock(record.id) is not None
        await uow.sessions.append_messages(record.id, [text_message(Role.ASSISTANT, "x"), text_message(Role.USER, "y")])
        stored = await uow.events.append_all(record.id, [agent_text("b"), agent_text("c")], T0)
        more = await uow.events.append_all(record.id, [agent_text("d")], T0)
        assert await uow.events.last_seq(record.id) == 4  # what the lock read, plus this transaction's appends
        await uow.sessions.save_state(record.id, ForgeState(problem=record.problem), at=T0, cancelled=False)
        await uow.commit()
    assert [e.seq for e in [*first, *stored, *more]] == [1, 2, 3, 4]
    assert await _row(db, record.id) == (4, 3)
    async with uow_factory() as uow:
        assert [m.text for m in await uow.sessions.load_messages(record.id)] == ["brief", "x", "y"]
        assert [e.seq for e in await uow.events.after(record.id, 0)] == [1, 2, 3, 4]
        assert await uow.events.last_seq(record.id) == 4


async def test_counters_moved_after_the_last_update_are_written_by_the_commit(db: Any, uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        await uow.sessions.lock(record.id)
        await uow.sessions.save_state(record.id, ForgeState(problem=record.problem), at=T0, cancelled=False)
        await uow.events.append_all(record.id, [agent_text("late")], T0)  # after the state's UPDATE
        await uow.sessions.append_messages(record.id, [text_message(Role.USER, "late")])
        await uow.commit()
    assert await _row(db, record.id) == (1, 1)
    async with uow_factory() as uow:  # the next locked transaction numbers on from there
        await uow.sessions.lock(record.id)
        assert [e.seq for e in await uow.events.append_all(record.id, [agent_text("next")], T0)] == [2]
        await uow.commit()
    assert await _row(db, record.id) == (2, 1)


async def test_a_second_lock_in_the_transaction_keeps_what_it_appended(db: Any, uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        await uow.sessions.lock(record.id)
        await uow.events.append_all(record.id, [agent_text("one")], T0)
        await uow.sessions.lock(record.id)  # the row does not show the append yet
        assert [e.seq for e in await uow.events.append_all(record.id, [agent_text("two")], T0)] == [2]
        await uow.commit()
    assert await _row(db, record.id) == (2, 0)


async def test_a_rolled_back_locked_transaction_leaves_the_counters(db: Any, uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        await uow.sessions.lock(record.id)
        await uow.events.append_all(record.id, [agent_text("lost")], T0)
        await uow.sessions.append_messages(record.id, [text_message(Role.USER, "lost")])
    assert await _row(db, record.id) == (0, 0)
    async with uow_factory() as uow:
        await uow.sessions.lock(record.id)
        assert [e.seq for e in await uow.events.append_all(record.id, [agent_text("kept")], T0)] == [1]
        await uow.commit()


async def test_a_compaction_under_the_lock_numbers_the_new_conversation_from_one(
    db: Any, uow_factory: UowFactory
) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        await uow.sessions.append_messages(record.id, [text_message(Role.USER, m) for m in "abc"])
        await uow.commit()
    async with uow_factory() as uow:
        await uow.sessions.lock(record.id)
        await uow.sessions.replace_messages(record.id, [text_message(Role.USER, "summary")])
        await uow.sessions.append_messages(record.id, [text_message(Role.ASSISTANT, "next")])
        await uow.commit()
    assert await _row(db, record.id) == (0, 2)
    async with uow_factory() as uow:
        assert [m.text for m in await uow.sessions.load_messages(record.id)] == ["summary", "next"]


async def test_tool_calls_number_on_from_the_row_locked_or_not(db: Any, uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    call = ToolCallEntry("web_search", {"q": "x"}, None, None, Phase.EXPLORE, T0)
    async with uow_factory() as uow:  # unlocked: allocated in the row
        await uow.tool_calls.record_all(record.id, [call, call])
        await uow.commit()
    async with uow_factory() as uow:
        await uow.sessions.lock(record.id)
        await uow.tool_calls.record_all(record.id, [call])
        await uow.tool_calls.record_all(record.id, [call, call])
        await uow.commit()  # no UPDATE of the row came after: the commit writes the counter
    async with uow_factory() as uow:
        await uow.sessions.lock(record.id)
        await uow.tool_calls.record_all(record.id, [call])
        await uow.rollback()
    async with db.session_factory() as s:
        seqs = (await s.scalars(select(ToolCallRow.seq).where(ToolCallRow.session_id == record.id))).all()
        count = await s.scalar(select(SessionRow.tool_call_count).where(SessionRow.id == record.id))
    assert (sorted(seqs), count) == ([1, 2, 3, 4, 5], 5)

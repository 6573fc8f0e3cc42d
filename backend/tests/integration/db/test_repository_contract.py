"""Contract of the SQLAlchemy repositories and unit of work, run on SQLite and PostgreSQL alike."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.exc import IntegrityError, StatementError

from forge.core.domain_types import (
    EventSeq,
    Phase,
    SessionId,
    SessionStatus,
    ToolCallId,
)
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message, ProviderPart, Role, TextPart, ToolCall, ToolResult
from forge.core.session_events import EventType, agent_text, phase_change, tool_error
from forge.core.session_record import SessionRecord, ToolCallEntry
from forge.db.repositories import SessionNotFoundError
from forge.db.tables import (
    CHILD_TABLES,
    AnalogyRow,
    Base,
    ClaimRow,
    ContradictionRow,
    EdgeRow,
    EvidenceRow,
    ReframingRow,
    SessionRow,
)
from forge.db.unit_of_work import SqlAlchemyUnitOfWork

UowFactory = Callable[[], SqlAlchemyUnitOfWork]
StateBuilder = Callable[[], ForgeState]
METADATA = Base.metadata
PLUS_TWO = timezone(timedelta(hours=2))
T0 = datetime(2025, 3, 4, 5, 6, 7, 123456, tzinfo=PLUS_TWO)


def new_id() -> Any:
    return uuid.uuid4()


def make_record(**changes: Any) -> SessionRecord:
    fields: dict[str, Any] = {
        "id": SessionId(new_id()),
        "problem": "How can cities store summer heat for winter?",
        "status": SessionStatus.DECOMPOSING,
        "current_phase": Phase.DECOMPOSE,
        "current_round": 0,
        "created_at": T0,
        "model_label": "fake-model",
    }
    return SessionRecord(**{**fields, **changes})


async def add_session(uow_factory: UowFactory, **changes: Any) -> SessionRecord:
    record = make_record(**changes)
    async with uow_factory() as uow:
        await uow.sessions.add(record, ForgeState(problem=record.problem))
        await uow.commit()
    return record


async def test_added_session_reads_back_every_field_with_aware_utc_datetimes(uow_factory: UowFactory) -> None:
    record = make_record(
        status=SessionStatus.BUILDING,
        current_phase=Phase.BUILD,
        current_round=2,
        total_tokens_used=1234,
        total_cost_usd=0.42,
        resolved_at=T0 + timedelta(hours=1),
        awaiting_input_type="build_decision",
        running=True,
    )
    async with uow_factory() as uow:
        await uow.sessions.add(record, ForgeState(problem=record.problem))
        await uow.commit()
    async with uow_factory() as uow:
        loaded = await uow.sessions.get(record.id)
    assert loaded == record
    assert loaded is not None and loaded.resolved_at is not None
    assert loaded.created_at.utcoffset() == timedelta(0)
    assert loaded.resolved_at.utcoffset() == timedelta(0)
    assert loaded.created_at.microsecond == T0.microsecond


async def test_get_of_an_unknown_session_returns_none(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        assert await uow.sessions.get(SessionId(new_id())) is None


async def test_update_rewrites_the_session_scalars(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    changed = make_record(
        id=record.id,
        status=SessionStatus.CRYSTALLIZED,
        current_phase=Phase.CRYSTALLIZE,
        resolved_at=T0 + timedelta(days=1),
        total_cost_usd=1.5,
        running=False,
    )
    async with uow_factory() as uow:
        await uow.sessions.update(changed)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.sessions.get(record.id) == changed


async def test_list_page_returns_newest_first_with_the_total_and_offset(uow_factory: UowFactory) -> None:
    records = [await add_session(uow_factory, created_at=T0 + timedelta(minutes=n)) for n in range(5)]
    async with uow_factory() as uow:
        first = await uow.sessions.list_page(limit=2, offset=0, status=None)
        last = await uow.sessions.list_page(limit=2, offset=4, status=None)
    newest_first = [r.id for r in reversed(records)]
    assert [r.id for r in first.items] == newest_first[:2]
    assert [r.id for r in last.items] == newest_first[4:]
    assert (first.total, first.limit, first.offset) == (5, 2, 0)
    assert last.total == 5


async def test_list_page_filters_by_status_and_counts_only_matches(uow_factory: UowFactory) -> None:
    building = await add_session(uow_factory, status=SessionStatus.BUILDING, current_phase=Phase.BUILD)
    await add_session(uow_factory)
    await add_session(uow_factory, created_at=T0 + timedelta(seconds=1))
    async with uow_factory() as uow:
        page = await uow.sessions.list_page(limit=10, offset=0, status=SessionStatus.BUILDING)
        empty = await uow.sessions.list_page(limit=10, offset=0, status=SessionStatus.CANCELLED)
    assert page.items == (building,)
    assert page.total == 1
    assert (empty.items, empty.total) == ((), 0)


async def test_saved_state_loads_back_equal(uow_factory: UowFactory, rich_state: StateBuilder) -> None:
    record = await add_session(uow_factory)
    state = rich_state()
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, state)
        await uow.commit()
    async with uow_factory() as uow:
        loaded = await uow.sessions.load_state(record.id)
    assert loaded == state
    assert loaded.antitheses_searched == {0, 1}


async def test_saved_state_is_projected_onto_the_knowledge_tables(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    record = await add_session(uow_factory)
    state = rich_state()
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, state)
        await uow.commit()
    sid = record.id
    assert await db.count(ClaimRow, session_id=sid) == 4  # 1 past + 2 current + 1 user graph node
    assert await db.count(EvidenceRow, session_id=sid) == 6  # 2 state of the art + 4 cited by claims
    assert await db.count(EvidenceRow, session_id=sid, claim_id=None) == 2
    assert await db.count(EdgeRow, session_id=sid) == 2
    assert await db.count(ReframingRow, session_id=sid) == 3
    assert await db.count(ReframingRow, session_id=sid, selected=True) == 1
    assert await db.count(AnalogyRow, session_id=sid, starred=True) == 1
    assert await db.count(ContradictionRow, session_id=sid) == 1
    assert await db.count(ClaimRow, id=state.past_round_claims[0].id, novelty=0.9, status="validated") == 1


async def test_saving_a_smaller_state_replaces_the_projection(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    record = await add_session(uow_factory)
    state = rich_state()
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, state)
        state.knowledge_graph_edges = state.knowledge_graph_edges[:1]
        state.reframings = []
        await uow.sessions.save_state(record.id, state)
        await uow.commit()
    assert await db.count(EdgeRow, session_id=record.id) == 1
    assert await db.count(ReframingRow, session_id=record.id) == 0
    assert await db.count(ClaimRow, session_id=record.id) == 4


async def test_messages_round_trip_text_tool_calls_provider_blocks_and_tool_results(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    messages = [
        Message(Role.USER, (TextPart("Solve it."),)),
        Message(
            Role.ASSISTANT,
            (
                TextPart("Searching."),
                ProviderPart("anthropic", {"type": "server_tool_use", "id": "srv_1", "input": {"query": "heat"}}),
                ToolCall(ToolCallId("call_1"), "web_search", {"query": "heat", "filters": {"years": [2020, 2024]}}),
                ToolCall(ToolCallId("call_2"), "state_thesis", {"raw": "{broken"}, parse_error="Expecting value"),
            ),
        ),
        Message(Role.USER, (ToolResult(ToolCallId("call_1"), "3 hits"), ToolResult(ToolCallId("call_2"), "bad", True))),
    ]
    async with uow_factory() as uow:
        assert await uow.sessions.load_messages(record.id) == []
        await uow.sessions.save_messages(record.id, messages)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.sessions.load_messages(record.id) == messages


async def test_event_seqs_start_at_one_and_increase_per_session_independently(uow_factory: UowFactory) -> None:
    first, second = await add_session(uow_factory), await add_session(uow_factory)
    async with uow_factory() as uow:
        seqs = [
            (await uow.events.append(sid, agent_text(f"{n}"), T0)).seq
            for n, sid in enumerate([first.id, second.id, first.id, first.id, second.id])
        ]
        await uow.commit()
    async with uow_factory() as uow:
        after_commit = await uow.events.append(first.id, agent_text("later"), T0)
        await uow.commit()
    assert seqs == [1, 1, 2, 3, 2]
    assert after_commit.seq == 4
    async with uow_factory() as uow:
        assert (await uow.events.last_seq(first.id), await uow.events.last_seq(second.id)) == (4, 2)
        assert await uow.events.last_seq(SessionId(new_id())) == 0


async def test_events_after_a_seq_are_exactly_the_later_ones_in_order(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    events = [agent_text("hello"), phase_change(Phase.EXPLORE, 0), tool_error("web_search", "E1", "boom")]
    async with uow_factory() as uow:
        stored = [await uow.events.append(record.id, e, T0 + timedelta(seconds=n)) for n, e in enumerate(events)]
        await uow.commit()
    async with uow_factory() as uow:
        everything = await uow.events.after(record.id, 0)
        later = await uow.events.after(record.id, 1)
        limited = await uow.events.after(record.id, 0, limit=1)
        none_left = await uow.events.after(record.id, 3)
    assert everything == stored
    assert everything[0].data == "hello"
    assert later == stored[1:]
    assert [(e.seq, e.type) for e in later] == [(EventSeq(2), EventType.PHASE_CHANGE), (3, EventType.TOOL_ERROR)]
    assert later[0].data == {"phase": "explore", "round": 0}
    assert later[0].created_at.utcoffset() == timedelta(0)
    assert [e.seq for e in limited] == [1]
    assert none_left == []


async def test_tool_call_log_lists_entries_in_recording_order(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    entries = [
        ToolCallEntry("web_search", {"query": "q", "n": [1, 2]}, {"hits": 2}, None, Phase.DECOMPOSE, T0),
        ToolCallEntry("state_thesis", {"text": "t"}, None, "RESEARCH_REQUIRED", Phase.SYNTHESIZE, T0),
    ]
    async with uow_factory() as uow:
        for entry in entries:
            await uow.tool_calls.record(record.id, entry)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.tool_calls.list_for(record.id) == entries
        assert await uow.tool_calls.list_for(SessionId(new_id())) == []


async def test_delete_removes_the_session_and_every_row_it_owns(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    doomed, kept = await add_session(uow_factory), await add_session(uow_factory)
    async with uow_factory() as uow:
        for sid in (doomed.id, kept.id):
            await uow.sessions.save_state(sid, rich_state())
            await uow.sessions.save_messages(sid, [Message(Role.USER, (TextPart("hi"),))])
            await uow.events.append(sid, agent_text("x"), T0)
            await uow.tool_calls.record(sid, ToolCallEntry("t", {}, {}, None, Phase.EXPLORE, T0))
        await uow.commit()
    assert all([await db.count(model, session_id=doomed.id) > 0 for model in CHILD_TABLES])
    async with uow_factory() as uow:
        assert await uow.sessions.delete(doomed.id) is True
        await uow.commit()
    assert await db.count(SessionRow, id=doomed.id) == 0
    assert {m.__tablename__: await db.count(m, session_id=doomed.id) for m in CHILD_TABLES} == {
        m.__tablename__: 0 for m in CHILD_TABLES
    }
    assert all([await db.count(model, session_id=kept.id) > 0 for model in CHILD_TABLES])
    async with uow_factory() as uow:
        assert await uow.sessions.delete(doomed.id) is False
        assert await uow.sessions.get(kept.id) == kept


async def test_state_and_messages_of_an_unknown_session_raise_not_found(uow_factory: UowFactory) -> None:
    unknown = SessionId(new_id())
    async with uow_factory() as uow:
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.load_state(unknown)
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.save_state(unknown, ForgeState())
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.load_messages(unknown)
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.update(make_record(id=unknown))


async def test_unit_of_work_exit_without_commit_rolls_everything_back(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    record = make_record()
    async with uow_factory() as uow:
        await uow.sessions.add(record, rich_state())
        await uow.events.append(record.id, agent_text("lost"), T0)
    with pytest.raises(RuntimeError, match="boom"):
        async with uow_factory() as uow:
            await uow.sessions.add(make_record(id=record.id), ForgeState())
            raise RuntimeError("boom")
    async with uow_factory() as uow:
        assert await uow.sessions.get(record.id) is None
    assert [await db.count(model, session_id=record.id) for model in CHILD_TABLES] == [0] * len(CHILD_TABLES)


async def test_explicit_rollback_discards_work_since_the_last_commit(uow_factory: UowFactory) -> None:
    kept = make_record()
    async with uow_factory() as uow:
        await uow.sessions.add(kept, ForgeState())
        await uow.commit()
        await uow.events.append(kept.id, agent_text("discarded"), T0)
        await uow.rollback()
        assert await uow.events.last_seq(kept.id) == 0
        assert await uow.sessions.get(kept.id) == kept


async def test_foreign_keys_are_enforced(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        with pytest.raises(IntegrityError):
            await uow.events.append(SessionId(new_id()), agent_text("orphan"), T0)


async def test_naive_datetimes_are_refused(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        with pytest.raises(StatementError, match="Naive datetime"):
            await uow.sessions.add(make_record(created_at=datetime(2025, 1, 1)), ForgeState())


async def test_migrated_schema_matches_the_orm_models(db: Any) -> None:
    async with db.session_factory() as session:
        connection = await session.connection()
        differences = await connection.run_sync(
            lambda sync: compare_metadata(MigrationContext.configure(sync, opts={"compare_type": True}), METADATA)
        )
    assert differences == []

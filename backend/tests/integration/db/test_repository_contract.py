"""Contract of the SQLAlchemy repositories and unit of work, run on SQLite and PostgreSQL alike."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError, StatementError

from forge.core.domain_types import EventSeq, Phase, ReviewType, SessionId, SessionStatus, ToolCallId
from forge.core.explore.mapping_quality_gate import GateRule, MappingRow, MappingTable, MappingType
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.llm.messages import Message, ProviderPart, Role, TextPart, ToolCall, ToolResult
from forge.core.session.events import EventType, agent_text, phase_change, tool_error
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import RunLease, SessionRecord, ToolCallEntry
from forge.core.session.spend import PhaseSpend
from forge.core.session.state_codec import encode_value
from forge.db.repositories import SessionNotFoundError
from forge.db.run_job_queue import ours_in_autogenerate
from forge.db.tables import (
    CHILD_TABLES,
    AnalogyRow,
    Base,
    ClaimRow,
    ContradictionRow,
    EdgeRow,
    EvidenceRow,
    HypothesisRow,
    MessageRow,
    ReframingRow,
    SessionRow,
)
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.ports import HypothesisFilter, HypothesisPage

UowFactory = Callable[[], SqlAlchemyUnitOfWork]
StateBuilder = Callable[[], ForgeState]
METADATA = Base.metadata
PLUS_TWO = timezone(timedelta(hours=2))
T0 = datetime(2025, 3, 4, 5, 6, 7, 123456, tzinfo=PLUS_TWO)
AT = T0.astimezone(UTC)  # `at` for resolved_at: see test_resolved_at_keeps_the_instant_of_an_at_with_an_offset
PROJECTED = (ClaimRow, EvidenceRow, EdgeRow, ReframingRow, AnalogyRow, ContradictionRow)


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


def state_at(
    phase: Phase,
    round_number: int = 0,
    *,
    awaiting: ReviewType | None = None,
    document: str | None = None,
    tokens: int = 0,
    cost: float = 0.0,
) -> ForgeState:
    state = ForgeState(problem="How can cities store summer heat for winter?", current_phase=phase)
    state.current_round = round_number
    state.knowledge_document_markdown = document
    if tokens or cost:
        state.spend_by_phase = {phase.value: PhaseSpend(tokens, cost, 1)}
    if awaiting is not None:
        state.await_review(awaiting)
    return state


async def add_session(uow_factory: UowFactory, state: ForgeState | None = None, **changes: Any) -> SessionRecord:
    """Add a session (in DECOMPOSE round 0 unless `state` says otherwise); returns it as `get` reads it."""
    record = make_record(**changes)
    async with uow_factory() as uow:
        await uow.sessions.add(record, state or ForgeState(problem=record.problem))
        await uow.commit()
    async with uow_factory() as uow:
        stored = await uow.sessions.get(record.id)
    assert stored is not None
    return stored


def text_message(role: Role, text: str) -> Message:
    return Message(role, (TextPart(text),))


async def test_added_session_reads_back_its_fields_derived_from_the_state(uow_factory: UowFactory) -> None:
    record = make_record(status=SessionStatus.CANCELLED, current_round=9, resolved_at=T0, running=True)
    state = state_at(Phase.BUILD, 2, awaiting=ReviewType.BUILD_DECISION, tokens=1234, cost=0.42)
    async with uow_factory() as uow:
        await uow.sessions.add(record, state)
        await uow.commit()
    async with uow_factory() as uow:
        loaded = await uow.sessions.get(record.id)
    assert loaded == SessionRecord(
        id=record.id,
        problem=record.problem,
        status=SessionStatus.BUILDING,
        current_phase=Phase.BUILD,
        current_round=2,
        created_at=T0,
        model_label="fake-model",
        total_tokens_used=1234,
        total_cost_usd=0.42,
        resolved_at=None,
        awaiting_input_type="build_decision",
        cancelled=False,
        version=0,
        run_lease=None,
        running=False,
    )
    assert loaded is not None
    assert loaded.created_at.utcoffset() == timedelta(0)
    assert loaded.created_at.microsecond == T0.microsecond


async def test_get_of_an_unknown_session_returns_none(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        assert await uow.sessions.get(SessionId(new_id())) is None


async def test_save_state_derives_the_status_columns_from_the_state(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    awaiting = state_at(Phase.EXPLORE, 1, awaiting=ReviewType.EXPLORE_REVIEW, tokens=10, cost=0.25)
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, awaiting, at=T0)
        await uow.commit()
    async with uow_factory() as uow:
        loaded = await uow.sessions.get(record.id)
    assert loaded is not None
    assert (loaded.status, loaded.current_phase, loaded.current_round) == (SessionStatus.EXPLORING, Phase.EXPLORE, 1)
    assert loaded.awaiting_input_type == "explore_review"
    assert (loaded.total_tokens_used, loaded.total_cost_usd) == (10, 0.25)
    assert loaded.resolved_at is None
    awaiting.enter_phase(Phase.SYNTHESIZE)
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, awaiting, at=T0)
        loaded = await uow.sessions.get(record.id)
    assert loaded is not None
    assert (loaded.status, loaded.current_phase, loaded.awaiting_input_type) == (
        SessionStatus.SYNTHESIZING,
        Phase.SYNTHESIZE,
        None,
    )


async def test_crystallize_without_a_document_is_crystallizing_and_unresolved(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, state_at(Phase.CRYSTALLIZE, 1), at=T0)
        await uow.commit()
    async with uow_factory() as uow:
        loaded = await uow.sessions.get(record.id)
    assert loaded is not None
    assert (loaded.status, loaded.current_phase, loaded.resolved_at) == (
        SessionStatus.CRYSTALLIZING,
        Phase.CRYSTALLIZE,
        None,
    )


async def test_crystallize_with_a_document_is_crystallized_and_resolved_once(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    state = state_at(Phase.CRYSTALLIZE, 1, document="# Knowledge")
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, state, at=AT + timedelta(hours=1))
        await uow.commit()
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, state, at=AT + timedelta(hours=5))
        await uow.commit()
    async with uow_factory() as uow:
        loaded = await uow.sessions.get(record.id)
        crystallized = await uow.sessions.list_page(limit=10, offset=0, status=SessionStatus.CRYSTALLIZED)
    assert loaded is not None
    assert loaded.status == SessionStatus.CRYSTALLIZED
    assert loaded.resolved_at == AT + timedelta(hours=1)
    assert loaded.resolved_at is not None and loaded.resolved_at.utcoffset() == timedelta(0)
    assert [r.id for r in crystallized.items] == [record.id]


async def test_set_cancelled_wins_over_the_state_saved_before_and_after(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, state_at(Phase.BUILD, 1, awaiting=ReviewType.BUILD_DECISION), at=AT)
        await uow.sessions.set_cancelled(record.id, AT + timedelta(minutes=1))
        await uow.commit()
    async with uow_factory() as uow:
        cancelled = await uow.sessions.get(record.id)
        await uow.sessions.save_state(
            record.id, state_at(Phase.CRYSTALLIZE, 2, document="# K"), at=AT + timedelta(days=1)
        )
        await uow.sessions.set_cancelled(record.id, AT + timedelta(days=2))
        await uow.commit()
    async with uow_factory() as uow:
        later = await uow.sessions.get(record.id)
        page = await uow.sessions.list_page(limit=10, offset=0, status=SessionStatus.CANCELLED)
    assert cancelled is not None and later is not None
    assert (cancelled.status, cancelled.cancelled, cancelled.awaiting_input_type) == (
        SessionStatus.CANCELLED,
        True,
        None,
    )
    assert cancelled.current_phase == Phase.BUILD
    assert cancelled.resolved_at == AT + timedelta(minutes=1)
    assert (later.status, later.cancelled, later.current_phase) == (SessionStatus.CANCELLED, True, Phase.CRYSTALLIZE)
    assert later.resolved_at == AT + timedelta(minutes=1)
    assert [r.id for r in page.items] == [record.id]


@pytest.mark.parametrize("finish", ["crystallize", "cancel"])
async def test_resolved_at_keeps_the_instant_of_an_at_with_an_offset(uow_factory: UowFactory, finish: str) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        if finish == "crystallize":
            await uow.sessions.save_state(record.id, state_at(Phase.CRYSTALLIZE, 1, document="# K"), at=T0)
        else:
            await uow.sessions.set_cancelled(record.id, T0)
        await uow.commit()
    async with uow_factory() as uow:
        loaded = await uow.sessions.get(record.id)
    assert loaded is not None and loaded.resolved_at is not None
    assert loaded.resolved_at == T0, f"stored {loaded.resolved_at.isoformat()} for {T0.isoformat()}"


@pytest.mark.parametrize("finish", ["crystallize", "cancel"])
async def test_resolved_at_refuses_a_naive_at(uow_factory: UowFactory, finish: str) -> None:
    record = await add_session(uow_factory)
    naive = datetime(2025, 1, 1, 12, 0)
    async with uow_factory() as uow:
        with pytest.raises(StatementError, match="Naive datetime"):
            if finish == "crystallize":
                await uow.sessions.save_state(record.id, state_at(Phase.CRYSTALLIZE, 1, document="# K"), at=naive)
            else:
                await uow.sessions.set_cancelled(record.id, naive)


async def test_lock_bumps_the_version_once_per_committed_transaction(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        first = await uow.sessions.lock(record.id)
        await uow.commit()
    async with uow_factory() as uow:
        second = await uow.sessions.lock(record.id)
        await uow.commit()
    async with uow_factory() as uow:
        rolled_back = await uow.sessions.lock(record.id)
    async with uow_factory() as uow:
        after = await uow.sessions.get(record.id)
    assert first is not None and second is not None and rolled_back is not None and after is not None
    assert (first.version, second.version, rolled_back.version, after.version) == (1, 2, 3, 2)
    assert first.id == record.id and first.problem == record.problem


async def test_lock_of_an_unknown_session_returns_none(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        assert await uow.sessions.lock(SessionId(new_id())) is None


async def test_get_and_lock_see_the_writes_made_earlier_in_the_same_unit_of_work(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        before = await uow.sessions.get(record.id)
        locked = await uow.sessions.lock(record.id)
        await uow.sessions.save_state(record.id, state_at(Phase.VALIDATE, 3), at=T0)
        after = await uow.sessions.get(record.id)
        assert before is not None and locked is not None and after is not None
        assert (before.version, locked.version, after.version) == (0, 1, 1)
        assert (after.status, after.current_round) == (SessionStatus.VALIDATING, 3)


async def test_run_lease_is_set_renewed_only_by_its_owner_and_cleared(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    lease = RunLease("instance-a/run-1", T0 + timedelta(seconds=30))
    async with uow_factory() as uow:
        await uow.sessions.set_run_lease(record.id, lease)
        await uow.commit()
    async with uow_factory() as uow:
        held = await uow.sessions.get(record.id)
        renewed = await uow.sessions.renew_run_lease(record.id, RunLease(lease.owner, T0 + timedelta(seconds=60)))
        stolen = await uow.sessions.renew_run_lease(record.id, RunLease("instance-b/run-2", T0 + timedelta(hours=1)))
        await uow.commit()
    async with uow_factory() as uow:
        extended = await uow.sessions.get(record.id)
        await uow.sessions.set_run_lease(record.id, None)
        await uow.commit()
    async with uow_factory() as uow:
        cleared = await uow.sessions.get(record.id)
        renewed_after_clear = await uow.sessions.renew_run_lease(record.id, lease)
        await uow.commit()
    async with uow_factory() as uow:
        still_cleared = await uow.sessions.get(record.id)
    assert held is not None and extended is not None and cleared is not None and still_cleared is not None
    assert held.run_lease == lease
    assert held.run_lease is not None and held.run_lease.expires_at.utcoffset() == timedelta(0)
    assert held.run_lease.instance == "instance-a"
    assert (renewed, stolen, renewed_after_clear) == (True, False, False)
    assert extended.run_lease == RunLease("instance-a/run-1", T0 + timedelta(seconds=60))
    assert extended.version == held.version
    assert cleared.run_lease is None and still_cleared.run_lease is None


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
    building = await add_session(uow_factory, state_at(Phase.BUILD, 1))
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
        await uow.sessions.save_state(record.id, state, at=T0)
        await uow.commit()
    async with uow_factory() as uow:
        loaded = await uow.sessions.load_state(record.id)
    assert loaded == state
    assert loaded.antitheses_searched == {0, 1}


async def test_save_state_leaves_the_projection_to_refresh_projection(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    record = await add_session(uow_factory)
    state = rich_state()
    async with uow_factory() as uow:
        await uow.sessions.save_state(record.id, state, at=T0)
        await uow.commit()
    assert [await db.count(model, session_id=record.id) for model in PROJECTED] == [0] * len(PROJECTED)
    async with uow_factory() as uow:
        await uow.sessions.refresh_projection(record.id, state)
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


async def test_add_projects_the_initial_state(db: Any, uow_factory: UowFactory, rich_state: StateBuilder) -> None:
    record = await add_session(uow_factory, rich_state())
    assert await db.count(ClaimRow, session_id=record.id) == 4
    assert await db.count(EvidenceRow, session_id=record.id) == 6


async def test_refreshing_with_a_smaller_state_replaces_the_projection(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    record = await add_session(uow_factory)
    state = rich_state()
    async with uow_factory() as uow:
        await uow.sessions.refresh_projection(record.id, state)
        state.knowledge_graph_edges = state.knowledge_graph_edges[:1]
        state.reframings = []
        await uow.sessions.refresh_projection(record.id, state)
        await uow.commit()
    assert await db.count(EdgeRow, session_id=record.id) == 1
    assert await db.count(ReframingRow, session_id=record.id) == 0
    assert await db.count(ClaimRow, session_id=record.id) == 4
    async with uow_factory() as uow:
        await uow.sessions.refresh_projection(record.id, ForgeState(problem=record.problem))
        await uow.commit()
    assert [await db.count(model, session_id=record.id) for model in PROJECTED] == [0] * len(PROJECTED)


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
        await uow.sessions.append_messages(record.id, messages)
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
    assert later[0].data == {"phase": "explore", "round": 0, "resumed": False}
    assert later[0].created_at.utcoffset() == timedelta(0)
    assert [e.seq for e in limited] == [1]
    assert none_left == []


async def test_append_all_gives_consecutive_seqs_across_calls_and_sessions_independently(
    uow_factory: UowFactory,
) -> None:
    first, second = await add_session(uow_factory), await add_session(uow_factory)
    async with uow_factory() as uow:
        a = await uow.events.append_all(first.id, [agent_text("a1"), agent_text("a2"), agent_text("a3")], T0)
        b = await uow.events.append_all(second.id, [agent_text("b1"), agent_text("b2")], T0)
        nothing = await uow.events.append_all(first.id, [], T0)
        await uow.commit()
    async with uow_factory() as uow:
        c = await uow.events.append_all(first.id, [phase_change(Phase.EXPLORE, 0), agent_text("a5")], T0)
        await uow.commit()
    assert [(e.seq, e.data) for e in a] == [(1, "a1"), (2, "a2"), (3, "a3")]
    assert [(e.seq, e.data) for e in b] == [(1, "b1"), (2, "b2")]
    assert nothing == []
    assert [(e.seq, e.type) for e in c] == [(4, EventType.PHASE_CHANGE), (5, EventType.AGENT_TEXT)]
    async with uow_factory() as uow:
        assert await uow.events.after(first.id, 0) == a + c
        assert await uow.events.after(second.id, 0) == b
        assert (await uow.events.last_seq(first.id), await uow.events.last_seq(second.id)) == (5, 2)
        assert await uow.events.last(first.id) == c[-1]
        assert await uow.events.last(second.id) == b[-1]


async def test_last_and_last_seq_agree_and_start_empty(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        assert (await uow.events.last(record.id), await uow.events.last_seq(record.id)) == (None, 0)
        stored = await uow.events.append(record.id, tool_error("web_search", "E1", "boom"), T0)
        assert await uow.events.last(record.id) == stored
        assert await uow.events.last_seq(record.id) == stored.seq == 1
        await uow.commit()
    async with uow_factory() as uow:
        last = await uow.events.last(record.id)
        assert last is not None and last.seq == await uow.events.last_seq(record.id) == 1
        assert last == stored
        assert last.data == {"tool": "web_search", "error_code": "E1", "message": "boom"}


async def test_event_seqs_above_two_to_the_31_are_stored_and_read(db: Any, uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    start = 2**40
    async with db.session_factory() as session:
        await session.execute(update(SessionRow).where(SessionRow.id == record.id).values(last_event_seq=start))
        await session.commit()
    async with uow_factory() as uow:
        stored = await uow.events.append_all(record.id, [agent_text("big"), agent_text("bigger")], T0)
        await uow.commit()
    async with uow_factory() as uow:
        read = await uow.events.after(record.id, start)
        later = await uow.events.after(record.id, start + 1)
        assert await uow.events.last_seq(record.id) == start + 2
        assert await uow.events.last(record.id) == stored[-1]
    assert [e.seq for e in stored] == [start + 1, start + 2]
    assert read == stored
    assert later == stored[1:]


async def test_messages_append_in_order_across_calls_and_replace_rewrites_them(
    db: Any, uow_factory: UowFactory
) -> None:
    record = await add_session(uow_factory)
    first = [text_message(Role.USER, "one"), text_message(Role.ASSISTANT, "two")]
    second = [text_message(Role.USER, "three")]
    async with uow_factory() as uow:
        await uow.sessions.append_messages(record.id, first)
        await uow.sessions.append_messages(record.id, [])
        await uow.commit()
    async with uow_factory() as uow:
        await uow.sessions.append_messages(record.id, second)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.sessions.load_messages(record.id) == first + second
    summary = [text_message(Role.USER, "summary of one..three")]
    async with uow_factory() as uow:
        await uow.sessions.replace_messages(record.id, summary)
        await uow.sessions.append_messages(record.id, [text_message(Role.ASSISTANT, "four")])
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.sessions.load_messages(record.id) == [*summary, text_message(Role.ASSISTANT, "four")]
    assert await db.count(MessageRow, session_id=record.id) == 2
    async with uow_factory() as uow:
        await uow.sessions.replace_messages(record.id, [])
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.sessions.load_messages(record.id) == []
        await uow.sessions.append_messages(record.id, second)
        assert await uow.sessions.load_messages(record.id) == second


async def test_tool_call_log_lists_entries_in_recording_order(uow_factory: UowFactory) -> None:
    record = await add_session(uow_factory)
    entries = [
        ToolCallEntry("web_search", {"query": "q", "n": [1, 2]}, {"hits": 2}, None, Phase.DECOMPOSE, T0),
        ToolCallEntry("state_thesis", {"text": "t"}, None, "RESEARCH_REQUIRED", Phase.SYNTHESIZE, T0),
    ]
    batch = [ToolCallEntry(f"tool_{n}", {"n": n}, [n], None, Phase.BUILD, T0) for n in range(3)]
    async with uow_factory() as uow:
        for entry in entries:
            await uow.tool_calls.record_all(record.id, (entry,))
        await uow.commit()
    async with uow_factory() as uow:
        await uow.tool_calls.record_all(record.id, batch)
        await uow.tool_calls.record_all(record.id, [])
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.tool_calls.list_for(record.id) == entries + batch
        assert await uow.tool_calls.list_for(SessionId(new_id())) == []


POOLED = Hypothesis(
    HypothesisId("biso-0-queueing-1"),
    "queueing",
    "Queueing",
    "Little's law",
    "Buffer arrivals",
    "Buffer the evening arrivals in the waiting room.",
    "Arrivals above capacity accumulate.",
    MappingTable(
        (MappingRow("customer", "arrives", "patient", "walks in", MappingType.ENTITY, "flow", "arrivals per hour"),)
    ),
    "waiting minutes",
    ("Breaks when beds block.",),
    GateSummary(GateStatus.FAILED, (GateRule.EFFECTIVE_ROWS,), 1, 0.57),
)


async def test_the_pool_round_trips_and_filters_by_domain_gate_and_score(uow_factory: UowFactory) -> None:
    session = await add_session(uow_factory)
    better = replace(POOLED, id=HypothesisId("b"), domain_id="ecology", gate=GateSummary(GateStatus.PASSED, (), 7, 7.5))
    async with uow_factory() as uow:
        await uow.hypotheses.add_all(session.id, [POOLED, better], T0)
        await uow.commit()
    async with uow_factory() as uow:
        everything = await uow.hypotheses.page(session.id, HypothesisFilter(), limit=10, offset=0)
        assert everything == HypothesisPage([better, POOLED], 2)  # best first, records intact
        passed = await uow.hypotheses.page(
            session.id, HypothesisFilter(gate_status=GateStatus.PASSED), limit=10, offset=0
        )
        assert passed.items == [better]
        queueing = await uow.hypotheses.page(session.id, HypothesisFilter(domain_id="queueing"), limit=10, offset=0)
        assert queueing.items == [POOLED]
        high = await uow.hypotheses.page(session.id, HypothesisFilter(min_score=5.0), limit=10, offset=0)
        assert high.total == 1
        second = await uow.hypotheses.page(session.id, HypothesisFilter(), limit=1, offset=1)
        assert second == HypothesisPage([POOLED], 2)


async def test_a_pool_row_written_by_the_reflective_codec_reads_back_equal(db: Any, uow_factory: UowFactory) -> None:
    session = await add_session(uow_factory)
    async with db.session_factory() as writer:  # as rows were written before records went through msgspec
        row = {"session_id": session.id, "hypothesis_id": POOLED.id, "round": POOLED.round, "created_at": T0}
        row |= {"domain_id": POOLED.domain_id, "gate_status": POOLED.gate.status.value}
        row |= {"mapping_score": POOLED.gate.mapping_score, "record": encode_value(POOLED)}
        await writer.execute(insert(HypothesisRow), [row])
        await writer.commit()
    async with uow_factory() as uow:
        assert (await uow.hypotheses.page(session.id, HypothesisFilter(), limit=5, offset=0)).items == [POOLED]
        assert await uow.hypotheses.by_ids(session.id, [POOLED.id]) == {POOLED.id: POOLED}


async def test_delete_removes_the_session_and_every_row_it_owns(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    doomed, kept = await add_session(uow_factory), await add_session(uow_factory)
    async with uow_factory() as uow:
        for sid in (doomed.id, kept.id):
            await uow.sessions.refresh_projection(sid, rich_state())
            await uow.sessions.append_messages(sid, [text_message(Role.USER, "hi")])
            await uow.events.append(sid, agent_text("x"), T0)
            await uow.tool_calls.record_all(sid, (ToolCallEntry("t", {}, {}, None, Phase.EXPLORE, T0),))
            await uow.hypotheses.add_all(sid, [POOLED], T0)
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
            await uow.sessions.save_state(unknown, ForgeState(), at=T0)
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.load_messages(unknown)
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.append_messages(unknown, [text_message(Role.USER, "hi")])
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.replace_messages(unknown, [])
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.set_cancelled(unknown, T0)
        with pytest.raises(SessionNotFoundError):
            await uow.sessions.set_run_lease(unknown, None)
        with pytest.raises(SessionNotFoundError):
            await uow.events.append(unknown, agent_text("orphan"), T0)
        assert await uow.sessions.renew_run_lease(unknown, RunLease("a/b", T0)) is False
        assert await uow.events.last(unknown) is None
        assert await uow.events.last_seq(unknown) == 0


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


async def test_logging_tool_calls_of_an_unknown_session_raises_not_found(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        with pytest.raises(SessionNotFoundError):
            await uow.tool_calls.record_all(SessionId(new_id()), (ToolCallEntry("t", {}, {}, None, Phase.EXPLORE, T0),))


async def test_projecting_onto_an_unknown_session_violates_the_foreign_keys(
    uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    async with uow_factory() as uow:
        with pytest.raises(IntegrityError):
            await uow.sessions.refresh_projection(SessionId(new_id()), rich_state())


async def test_naive_datetimes_are_refused(uow_factory: UowFactory) -> None:
    async with uow_factory() as uow:
        with pytest.raises(StatementError, match="Naive datetime"):
            await uow.sessions.add(make_record(created_at=datetime(2025, 1, 1)), ForgeState())
    record = await add_session(uow_factory)
    async with uow_factory() as uow:
        with pytest.raises(StatementError, match="Naive datetime"):
            await uow.sessions.set_run_lease(record.id, RunLease("a/b", datetime(2025, 1, 1)))


async def test_migrated_schema_matches_the_orm_models(db: Any) -> None:
    async with db.session_factory() as session:
        connection = await session.connection()
        differences = await connection.run_sync(
            lambda sync: compare_metadata(
                MigrationContext.configure(sync, opts={"compare_type": True, "include_name": ours_in_autogenerate}),
                METADATA,
            )
        )
    assert differences == []

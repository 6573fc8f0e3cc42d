"""A refresh under the session's lock rewrites only the projected tables whose rows changed, on
SQLite and PostgreSQL; the row keeps the digest of what was written, carried by its next UPDATE or
written at commit. Without the lock every table is rewritten."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord
from forge.db.state_projection import project_state, projection_digest
from forge.db.tables import ClaimRow, EdgeRow, EvidenceRow, ReframingRow, SessionRow
from forge.db.unit_of_work import SqlAlchemyUnitOfWork

UowFactory = Callable[[], SqlAlchemyUnitOfWork]
StateBuilder = Callable[[], ForgeState]
T0 = datetime(2026, 11, 27, 8, 0, tzinfo=UTC)


async def add_session(uow_factory: UowFactory, state: ForgeState) -> SessionRecord:
    record = SessionRecord(SessionId(uuid.uuid4()), state.problem, SessionStatus.BUILDING, Phase.BUILD, 1, T0, "m")
    async with uow_factory() as uow:
        await uow.sessions.add(record, state)
        await uow.commit()
    return record


async def tamper_claims(db: Any, session_id: uuid.UUID) -> None:
    """Change the stored claims behind the repository's back: a rewrite would restore them."""
    async with db.session_factory() as s:
        await s.execute(update(ClaimRow).where(ClaimRow.session_id == session_id).values(claim_text="tampered"))
        await s.commit()


async def stored_digest(db: Any, session_id: uuid.UUID) -> str | None:
    async with db.session_factory() as s:
        return await s.scalar(select(SessionRow.projection_digest).where(SessionRow.id == session_id))


async def refresh_under_lock(uow_factory: UowFactory, session_id: SessionId, state: ForgeState, *, save: bool) -> None:
    """What the services do when a run pauses or a review is applied: lock, refresh, (save), commit."""
    async with uow_factory() as uow:
        await uow.sessions.lock(session_id)
        await uow.sessions.refresh_projection(session_id, state)
        if save:
            await uow.sessions.save_state(session_id, state, at=T0, cancelled=False)
        await uow.commit()


async def test_a_locked_refresh_leaves_the_unchanged_tables_alone(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    state = rich_state()
    record = await add_session(uow_factory, state)
    await tamper_claims(db, record.id)
    state.reframings = state.reframings[:1]
    await refresh_under_lock(uow_factory, record.id, state, save=True)
    assert await db.count(ReframingRow, session_id=record.id) == 1
    assert await db.count(ClaimRow, session_id=record.id, claim_text="tampered") == 4  # not rewritten
    assert await stored_digest(db, record.id) == projection_digest(project_state(record.id, state))


async def test_a_changed_claim_is_rewritten_with_its_evidence_and_edges(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    state = rich_state()
    record = await add_session(uow_factory, state)
    claim = state.current_round_claims[0]
    state.current_round_claims[0] = replace(claim, text="sharpened")
    state.knowledge_graph_nodes = [
        replace(n, text="sharpened") if n.id == claim.id else n for n in state.knowledge_graph_nodes
    ]
    await refresh_under_lock(uow_factory, record.id, state, save=True)
    assert await db.count(ClaimRow, id=claim.id, claim_text="sharpened") == 1
    # Deleting the claims cascaded to their evidence and edges; both were written again.
    assert await db.count(EvidenceRow, session_id=record.id) == 6
    assert await db.count(EdgeRow, session_id=record.id) == 2


async def test_a_locked_refresh_with_no_later_update_writes_its_digest_at_commit(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    state = rich_state()
    record = await add_session(uow_factory, state)
    state.reframings = []
    await refresh_under_lock(uow_factory, record.id, state, save=False)
    assert await stored_digest(db, record.id) == projection_digest(project_state(record.id, state))
    await tamper_claims(db, record.id)
    await refresh_under_lock(uow_factory, record.id, state, save=False)  # it knows nothing changed
    assert await db.count(ClaimRow, session_id=record.id, claim_text="tampered") == 4


async def test_a_rolled_back_refresh_leaves_the_digest_of_the_rows_kept(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    state = rich_state()
    record = await add_session(uow_factory, state)
    kept = await stored_digest(db, record.id)
    async with uow_factory() as uow:
        await uow.sessions.lock(record.id)
        await uow.sessions.refresh_projection(record.id, ForgeState(problem=state.problem))
        await uow.rollback()
    assert await stored_digest(db, record.id) == kept == projection_digest(project_state(record.id, state))
    assert await db.count(ClaimRow, session_id=record.id) == 4


async def test_an_unlocked_refresh_rewrites_every_table_and_writes_the_digest(
    db: Any, uow_factory: UowFactory, rich_state: StateBuilder
) -> None:
    state = rich_state()
    record = await add_session(uow_factory, state)
    await tamper_claims(db, record.id)
    async with db.session_factory() as s:  # a session from before the digest existed
        await s.execute(update(SessionRow).where(SessionRow.id == record.id).values(projection_digest=None))
        await s.commit()
    async with uow_factory() as uow:
        await uow.sessions.refresh_projection(record.id, state)
        await uow.commit()
    assert await db.count(ClaimRow, session_id=record.id, claim_text="tampered") == 0
    assert await stored_digest(db, record.id) == projection_digest(project_state(record.id, state))

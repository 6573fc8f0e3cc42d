"""SqlAccountRepository on SQLite and PostgreSQL: users by email, tokens and logins by digest (never a
revoked, expired or disabled one), session ownership, per-user usage; the local user from migration 0006."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest
from integration.db.conftest import Database
from sqlalchemy.exc import IntegrityError

from forge.core.accounts.users import LOCAL_USER_ID, ApiToken, ApiTokenId, Role, User, UserId
from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import RunLease, SessionRecord
from forge.core.session.spend import PhaseSpend

T0 = datetime(2026, 11, 23, 12, tzinfo=UTC)
ADA = User(UserId(UUID(int=11)), "ada@example.org", Role.MEMBER, T0)
BOB = User(UserId(UUID(int=12)), "bob@example.org", Role.ADMIN, T0)


async def _users(db: Database) -> None:
    async with db.uow() as uow:
        await uow.accounts.add_user(ADA, "$argon2id$ada")
        await uow.accounts.add_user(BOB, None)
        await uow.commit()


def _session(owner: UserId, created: datetime) -> tuple[SessionRecord, ForgeState]:
    record = SessionRecord(
        SessionId(uuid4()),
        "a problem text",
        SessionStatus.DECOMPOSING,
        Phase.DECOMPOSE,
        0,
        created,
        "m",
        owner_id=owner,
    )
    return record, ForgeState(problem="a problem text")


async def test_the_migration_creates_the_local_user(db: Database) -> None:
    async with db.uow() as uow:
        local = await uow.accounts.user(LOCAL_USER_ID)
        assert local is not None and local.email == "local@localhost" and local.role == Role.ADMIN
        assert await uow.accounts.password_hash_of(LOCAL_USER_ID) is None


async def test_users_are_found_by_email_and_an_email_is_taken_once(db: Database) -> None:
    await _users(db)
    async with db.uow() as uow:
        assert await uow.accounts.user_by_email("ada@example.org") == ADA
        assert await uow.accounts.password_hash_of(ADA.id) == "$argon2id$ada"
        assert {u.email for u in await uow.accounts.users()} == {
            "local@localhost",
            "ada@example.org",
            "bob@example.org",
        }
        assert await uow.accounts.update_user(ADA.id, role=Role.ADMIN, disabled=True)
        assert await uow.accounts.user(ADA.id) == User(ADA.id, ADA.email, Role.ADMIN, T0, disabled=True)
        assert not await uow.accounts.update_user(UserId(uuid4()), disabled=True)
    with pytest.raises(IntegrityError):
        async with db.uow() as uow:
            await uow.accounts.add_user(User(UserId(uuid4()), "ada@example.org", Role.MEMBER, T0), None)


async def test_a_token_is_found_by_digest_until_revoked_or_its_user_disabled(db: Database) -> None:
    await _users(db)
    token = ApiToken(ApiTokenId(uuid4()), ADA.id, "ci", "kf_abcdef", T0)
    async with db.uow() as uow:
        await uow.accounts.add_token(token, "d" * 64)
        await uow.commit()
    async with db.uow() as uow:
        assert await uow.accounts.active_token_by_digest("d" * 64) == (token, ADA)
        assert await uow.accounts.active_token_by_digest("e" * 64) is None
        await uow.accounts.touch_token(token.id, T0 + timedelta(minutes=5))
        assert (await uow.accounts.tokens_of(ADA.id))[0].last_used_at == T0 + timedelta(minutes=5)
        await uow.accounts.update_user(ADA.id, disabled=True)
        assert await uow.accounts.active_token_by_digest("d" * 64) is None
        await uow.accounts.update_user(ADA.id, disabled=False)
        await uow.accounts.revoke_token(token.id, T0 + timedelta(hours=1))
        assert await uow.accounts.active_token_by_digest("d" * 64) is None
        assert (await uow.accounts.token(token.id)) == ApiToken(
            token.id, ADA.id, "ci", "kf_abcdef", T0, T0 + timedelta(minutes=5), T0 + timedelta(hours=1)
        )
        assert await uow.accounts.token_counts([ADA.id, BOB.id]) == {}


async def test_a_login_is_found_until_it_expires_or_ends(db: Database) -> None:
    await _users(db)
    async with db.uow() as uow:
        await uow.accounts.add_login("a" * 64, ADA.id, T0, T0 + timedelta(days=1))
        await uow.accounts.add_login("b" * 64, ADA.id, T0, T0 + timedelta(days=1))
        assert await uow.accounts.login_user("a" * 64, T0 + timedelta(hours=1)) == ADA
        assert await uow.accounts.login_user("a" * 64, T0 + timedelta(days=1)) is None  # expired
        await uow.accounts.delete_logins(digest="a" * 64)
        assert await uow.accounts.login_user("a" * 64, T0) is None
        assert await uow.accounts.login_user("b" * 64, T0) == ADA
        await uow.accounts.delete_expired_logins(T0 + timedelta(days=2))
        assert await uow.accounts.login_user("b" * 64, T0) is None


async def test_sessions_have_owners_and_usage_counts_each_users_own(db: Database) -> None:
    await _users(db)
    old, fresh, bobs = _session(ADA.id, T0 - timedelta(days=40)), _session(ADA.id, T0), _session(BOB.id, T0)
    lease = RunLease("instance/run", T0 + timedelta(seconds=15))
    async with db.uow() as uow:
        for record, state in (old, fresh, bobs):
            await uow.sessions.add(record, state)
        await uow.sessions.set_run_lease(fresh[0].id, lease)
        for record, cost in ((old[0], 3.0), (fresh[0], 0.5)):
            await uow.sessions.save_state(record.id, _spent(cost), at=T0)
        await uow.commit()
    async with db.uow() as uow:
        assert await uow.accounts.session_owner(fresh[0].id) == ADA.id
        assert await uow.accounts.session_owner(SessionId(uuid4())) is None
        usage = await uow.accounts.usage(
            ADA.id, sessions_since=T0 - timedelta(hours=1), spend_since=T0 - timedelta(days=1)
        )
        assert (usage.sessions_total, usage.sessions_since) == (2, 1)
        assert (usage.spend_since_usd, usage.spend_total_usd) == (pytest.approx(0.5), pytest.approx(3.5))
        assert usage.leases == ((fresh[0].id, lease),)
        page = await uow.sessions.list_page(limit=10, offset=0, status=None, owner=BOB.id)
        assert [r.id for r in page.items] == [bobs[0].id] and page.items[0].owner_id == BOB.id


def _spent(cost: float) -> ForgeState:
    state = ForgeState(problem="a problem text")
    state.spend_by_phase[Phase.DECOMPOSE.value] = PhaseSpend(tokens=10, cost_usd=cost, calls=1)
    return state

"""SqlAccountRepository: users, API tokens, login sessions, session ownership and per-user usage.

Invariants:
    - Works inside the unit of work's AsyncSession and never commits; every write enters the write
      gate first (one SQLite writer at a time, a no-op on PostgreSQL).
    - Only domain records leave (User, ApiToken, UsageRow); password hashes leave only through
      `password_hash_of`, for the one caller that verifies a login.
    - Credentials are looked up by digest (unique columns); a revoked token, an expired login or a
      disabled user is never returned as a credential's owner.
    - Usage reads count what is stored: sessions created since a time, their recorded cost, and
      the run leases of the user's sessions (the service judges which are live).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from forge.core.accounts.users import ApiToken, ApiTokenId, Role, User, UserId
from forge.core.domain_types import SessionId
from forge.core.session.record import RunLease
from forge.db.tables import ApiTokenRow, LoginSessionRow, SessionRow, UserRow
from forge.db.write_gate import NO_GATE, WriteTicket
from forge.ports import StoredUsage


def _user(row: UserRow | Any) -> User:
    return User(UserId(row.id), row.email, Role(row.role), row.created_at, row.disabled)


def _token(row: ApiTokenRow) -> ApiToken:
    return ApiToken(
        ApiTokenId(row.id), UserId(row.user_id), row.name, row.prefix, row.created_at, row.last_used_at, row.revoked_at
    )


class SqlAccountRepository:
    def __init__(self, session: AsyncSession, gate: WriteTicket = NO_GATE) -> None:
        self._session = session
        self._gate = gate

    # ---- users -----------------------------------------------------------------------------
    async def add_user(self, user: User, password_hash: str | None) -> None:
        await self._gate.enter()
        values = {
            "id": user.id,
            "email": user.email,
            "password_hash": password_hash,
            "role": user.role.value,
            "disabled": user.disabled,
            "created_at": user.created_at,
        }
        await self._session.execute(insert(UserRow).values(**values))

    async def user(self, user_id: UserId) -> User | None:
        row = await self._session.get(UserRow, user_id)
        return _user(row) if row is not None else None

    async def user_by_email(self, email: str) -> User | None:
        row = await self._session.scalar(select(UserRow).where(UserRow.email == email))
        return _user(row) if row is not None else None

    async def password_hash_of(self, user_id: UserId) -> str | None:
        return await self._session.scalar(select(UserRow.password_hash).where(UserRow.id == user_id))

    async def users(self) -> list[User]:
        return [_user(r) for r in await self._session.scalars(select(UserRow).order_by(UserRow.created_at, UserRow.id))]

    async def update_user(self, user_id: UserId, *, role: Role | None = None, disabled: bool | None = None) -> bool:
        await self._gate.enter()
        values: dict[str, Any] = {}
        if role is not None:
            values["role"] = role.value
        if disabled is not None:
            values["disabled"] = disabled
        if not values:
            return await self.user(user_id) is not None
        result = await self._session.execute(update(UserRow).where(UserRow.id == user_id).values(**values))
        return bool(cast(Any, result).rowcount)

    async def set_password_hash(self, user_id: UserId, password_hash: str) -> None:
        await self._gate.enter()
        await self._session.execute(update(UserRow).where(UserRow.id == user_id).values(password_hash=password_hash))

    # ---- API tokens ------------------------------------------------------------------------
    async def add_token(self, token: ApiToken, digest: str) -> None:
        await self._gate.enter()
        self._session.add(
            ApiTokenRow(
                id=token.id,
                user_id=token.user_id,
                name=token.name,
                prefix=token.prefix,
                digest=digest,
                created_at=token.created_at,
            )
        )
        await self._session.flush()

    async def token(self, token_id: ApiTokenId) -> ApiToken | None:
        row = await self._session.get(ApiTokenRow, token_id)
        return _token(row) if row is not None else None

    async def tokens_of(self, user_id: UserId) -> list[ApiToken]:
        query = select(ApiTokenRow).where(ApiTokenRow.user_id == user_id).order_by(ApiTokenRow.created_at.desc())
        return [_token(r) for r in await self._session.scalars(query)]

    async def active_token_by_digest(self, digest: str) -> tuple[ApiToken, User] | None:
        query = (
            select(ApiTokenRow, UserRow)
            .join(UserRow, UserRow.id == ApiTokenRow.user_id)
            .where(ApiTokenRow.digest == digest, ApiTokenRow.revoked_at.is_(None), UserRow.disabled.is_(False))
        )
        found = (await self._session.execute(query)).first()
        return (_token(found[0]), _user(found[1])) if found is not None else None

    async def revoke_token(self, token_id: ApiTokenId, at: datetime) -> None:
        await self._gate.enter()
        unrevoked = (ApiTokenRow.id == token_id) & ApiTokenRow.revoked_at.is_(None)
        await self._session.execute(update(ApiTokenRow).where(unrevoked).values(revoked_at=at))

    async def touch_token(self, token_id: ApiTokenId, at: datetime) -> None:
        await self._gate.enter()
        await self._session.execute(update(ApiTokenRow).where(ApiTokenRow.id == token_id).values(last_used_at=at))

    # ---- login sessions --------------------------------------------------------------------
    async def add_login(self, digest: str, user_id: UserId, created_at: datetime, expires_at: datetime) -> None:
        await self._gate.enter()
        row = {"digest": digest, "user_id": user_id, "created_at": created_at, "expires_at": expires_at}
        await self._session.execute(insert(LoginSessionRow).values(**row))

    async def login_user(self, digest: str, now: datetime) -> User | None:
        query = (
            select(UserRow)
            .join(LoginSessionRow, LoginSessionRow.user_id == UserRow.id)
            .where(LoginSessionRow.digest == digest, LoginSessionRow.expires_at > now, UserRow.disabled.is_(False))
        )
        row = await self._session.scalar(query)
        return _user(row) if row is not None else None

    async def delete_logins(self, *, digest: str | None = None, user_id: UserId | None = None) -> None:
        """End one login (logout) or every login of a user (disabled), and drop expired ones."""
        await self._gate.enter()
        if digest is not None:
            await self._session.execute(delete(LoginSessionRow).where(LoginSessionRow.digest == digest))
        if user_id is not None:
            await self._session.execute(delete(LoginSessionRow).where(LoginSessionRow.user_id == user_id))

    async def delete_expired_logins(self, now: datetime) -> None:
        await self._gate.enter()
        await self._session.execute(delete(LoginSessionRow).where(LoginSessionRow.expires_at <= now))

    # ---- ownership and usage ---------------------------------------------------------------
    async def session_owner(self, session_id: SessionId) -> UserId | None:
        owner = await self._session.scalar(select(SessionRow.owner_id).where(SessionRow.id == session_id))
        return UserId(owner) if owner is not None else None

    async def usage(self, user_id: UserId, *, sessions_since: datetime, spend_since: datetime) -> StoredUsage:
        mine = SessionRow.owner_id == user_id
        totals = (
            await self._session.execute(
                select(
                    func.count(),
                    func.count().filter(SessionRow.created_at >= sessions_since),
                    func.coalesce(func.sum(SessionRow.total_cost_usd).filter(SessionRow.created_at >= spend_since), 0),
                    func.coalesce(func.sum(SessionRow.total_cost_usd), 0),
                ).where(mine)
            )
        ).one()
        leased = select(SessionRow.id, SessionRow.run_owner, SessionRow.run_lease_expires_at).where(
            mine, SessionRow.run_owner.is_not(None)
        )
        leases = tuple(
            (SessionId(r.id), RunLease(r.run_owner, r.run_lease_expires_at))
            for r in (await self._session.execute(leased)).all()
            if r.run_lease_expires_at is not None
        )
        return StoredUsage(int(totals[0]), int(totals[1]), float(totals[2]), float(totals[3]), leases)

    async def token_counts(self, user_ids: Sequence[uuid.UUID]) -> dict[UserId, int]:
        """Active (unrevoked) tokens per user."""
        query = (
            select(ApiTokenRow.user_id, func.count())
            .where(ApiTokenRow.user_id.in_(user_ids), ApiTokenRow.revoked_at.is_(None))
            .group_by(ApiTokenRow.user_id)
        )
        return {UserId(uid): int(n) for uid, n in (await self._session.execute(query)).all()}

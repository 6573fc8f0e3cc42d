"""Accounts: users, password logins, login sessions and personal API tokens.

Invariants:
    - Read -> pure rule (core.accounts / core.credentials) -> write, one unit of work per command;
      failures are `ServiceFailure` values (404 / 409 / 422 at the edge), never exceptions.
    - Secrets (login cookies, API tokens, generated passwords) come from `new_secret` (the `secrets`
      module in production) and are returned exactly once; only their digests (tokens, cookies) or
      argon2 hashes (passwords) are stored.
    - A wrong email and a wrong password are indistinguishable: both verify against a hash (a dummy
      one for an unknown email), so the answer takes as long either way.
    - Password hashing runs in a worker thread: it is slow by design and must not stall the loop.
    - Another user's token is "not found", never "forbidden": ids of others are not disclosed.
    - The built-in local user cannot log in (no password) and cannot be changed.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from uuid import UUID

from forge.core.accounts.credentials import (
    api_token_from_secret,
    csrf_token_for,
    is_api_token,
    is_session_secret,
    login_session_expiry,
    secret_digest,
    should_touch,
    token_display_prefix,
)
from forge.core.accounts.users import (
    AccountRefusal,
    ApiToken,
    ApiTokenId,
    Role,
    User,
    UserId,
    may_revoke,
    normalise_email,
    password_refusal,
    token_name_refusal,
)
from forge.ports import Clock, PasswordHasher, UnitOfWorkFactory
from forge.services.service_results import FailureKind, ServiceFailure

GENERATED_PASSWORD_BYTES = 15  # 20 url-safe characters


def new_secret() -> str:
    return secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class NewUser:
    user: User
    generated_password: str | None  # shown once when no password was given


@dataclass(frozen=True, slots=True)
class LoginGranted:
    user: User
    cookie_secret: str
    csrf_token: str


@dataclass(frozen=True, slots=True)
class NewToken:
    token: ApiToken
    secret: str  # the whole `kf_...` token, shown once


def _invalid(refusal: AccountRefusal) -> ServiceFailure:
    return ServiceFailure(FailureKind.INVALID, refusal.message)


class AccountService:
    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        hasher: PasswordHasher,
        clock: Clock,
        new_id: Callable[[], UUID],
        make_secret: Callable[[], str] = new_secret,
    ) -> None:
        self._uow_factory = uow_factory
        self._hasher = hasher
        self._clock = clock
        self._new_id = new_id
        self._secret = make_secret
        self._dummy_hash: str | None = None

    # ---- users -----------------------------------------------------------------------------
    async def add_user(self, email: str, role: Role, password: str | None) -> NewUser | ServiceFailure:
        address = normalise_email(email)
        if isinstance(address, AccountRefusal):
            return _invalid(address)
        generated = secrets.token_urlsafe(GENERATED_PASSWORD_BYTES) if password is None else None
        chosen = password if password is not None else generated
        assert chosen is not None
        refused = password_refusal(chosen)
        if refused is not None:
            return _invalid(refused)
        password_hash = await asyncio.to_thread(self._hasher.hash, chosen)
        user = User(UserId(self._new_id()), address, role, self._clock.now())
        async with self._uow_factory() as uow:
            if await uow.accounts.user_by_email(address) is not None:
                return ServiceFailure(FailureKind.CONFLICT, f"A user with the email {address} already exists.")
            await uow.accounts.add_user(user, password_hash)
            await uow.commit()
        return NewUser(user, generated)

    async def users(self) -> list[User]:
        async with self._uow_factory() as uow:
            return await uow.accounts.users()

    async def user(self, user_id: UserId) -> User | None:
        async with self._uow_factory() as uow:
            return await uow.accounts.user(user_id)

    async def user_by_email(self, email: str) -> User | None:
        address = normalise_email(email)
        if isinstance(address, AccountRefusal):
            return None
        async with self._uow_factory() as uow:
            return await uow.accounts.user_by_email(address)

    async def update_user(
        self, actor: User, user_id: UserId, *, role: Role | None, disabled: bool | None
    ) -> User | ServiceFailure:
        """Change a user's role or disable them (which ends their logins; their tokens stop working)."""
        async with self._uow_factory() as uow:
            user = await uow.accounts.user(user_id)
            if user is None:
                return ServiceFailure(FailureKind.NOT_FOUND, f"User {user_id} does not exist.")
            if user.is_local:
                return ServiceFailure(FailureKind.CONFLICT, "The built-in local user cannot be changed.")
            if user.id == actor.id and (disabled or (role is not None and role != user.role)):
                return ServiceFailure(FailureKind.CONFLICT, "You cannot disable yourself or change your own role.")
            await uow.accounts.update_user(user_id, role=role, disabled=disabled)
            if disabled:
                await uow.accounts.delete_logins(user_id=user_id)
            await uow.commit()
        return replace(user, role=role or user.role, disabled=user.disabled if disabled is None else disabled)

    # ---- browser logins --------------------------------------------------------------------
    async def _verify(self, password: str, password_hash: str | None) -> bool:
        if password_hash is None:
            if self._dummy_hash is None:
                self._dummy_hash = await asyncio.to_thread(self._hasher.hash, self._secret())
            await asyncio.to_thread(self._hasher.verify, password, self._dummy_hash)
            return False
        return await asyncio.to_thread(self._hasher.verify, password, password_hash)

    async def login(self, email: str, password: str) -> LoginGranted | None:
        """A new login session for the right email and password; None otherwise (whichever was wrong)."""
        address = normalise_email(email)
        async with self._uow_factory() as uow:
            user = await uow.accounts.user_by_email(address) if isinstance(address, str) else None
            stored = await uow.accounts.password_hash_of(user.id) if user is not None else None
        usable = user is not None and not user.disabled
        if not await self._verify(password, stored if usable else None) or user is None:
            return None
        secret, now = self._secret(), self._clock.now()
        async with self._uow_factory() as uow:
            await uow.accounts.delete_expired_logins(now)
            await uow.accounts.add_login(secret_digest(secret), user.id, now, login_session_expiry(now))
            await uow.commit()
        return LoginGranted(user, secret, csrf_token_for(secret))

    async def user_for_cookie(self, cookie_secret: str) -> User | None:
        if not is_session_secret(cookie_secret):
            return None
        async with self._uow_factory() as uow:
            return await uow.accounts.login_user(secret_digest(cookie_secret), self._clock.now())

    async def logout(self, cookie_secret: str) -> None:
        async with self._uow_factory() as uow:
            await uow.accounts.delete_logins(digest=secret_digest(cookie_secret))
            await uow.commit()

    # ---- API tokens ------------------------------------------------------------------------
    async def user_for_token(self, token: str) -> User | None:
        """The owner of an active token (recording its use at most once a minute), else None."""
        if not is_api_token(token):
            return None
        now = self._clock.now()
        async with self._uow_factory() as uow:
            found = await uow.accounts.active_token_by_digest(secret_digest(token))
            if found is None:
                return None
            record, user = found
            if should_touch(record.last_used_at, now):
                await uow.accounts.touch_token(record.id, now)
                await uow.commit()
        return user

    async def create_token(self, user: User, name: str) -> NewToken | ServiceFailure:
        refused = token_name_refusal(name)
        if refused is not None:
            return _invalid(refused)
        secret = api_token_from_secret(self._secret())
        token = ApiToken(
            ApiTokenId(self._new_id()), user.id, name.strip(), token_display_prefix(secret), self._clock.now()
        )
        async with self._uow_factory() as uow:
            await uow.accounts.add_token(token, secret_digest(secret))
            await uow.commit()
        return NewToken(token, secret)

    async def tokens(self, user_id: UserId) -> list[ApiToken]:
        async with self._uow_factory() as uow:
            return await uow.accounts.tokens_of(user_id)

    async def revoke_token(self, actor: User, token_id: ApiTokenId) -> ApiToken | ServiceFailure:
        """Revoke a token (idempotent: revoking a revoked token returns it unchanged)."""
        now = self._clock.now()
        async with self._uow_factory() as uow:
            token = await uow.accounts.token(token_id)
            if token is None or not may_revoke(actor, token):
                return ServiceFailure(FailureKind.NOT_FOUND, f"Token {token_id} does not exist.")
            if token.revoked_at is not None:
                return token
            await uow.accounts.revoke_token(token_id, now)
            await uow.commit()
        return replace(token, revoked_at=now)

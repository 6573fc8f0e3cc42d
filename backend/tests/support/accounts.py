"""An app with FORGE_AUTH=on over a migrated database, and users with API tokens to call it as.

Passwords are hashed with real argon2id at the lowest cost (the production parameters take ~0.2 s a
hash, by design), passed in through `build_container(password_hasher=...)`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

import httpx
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from forge.api.app import create_app
from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.accounts.users import Role, User
from forge.db.migrate import upgrade_database
from forge.providers.password_hashing import Argon2PasswordHasher
from forge.services.account_service import NewToken, NewUser

BASE_URL = "http://localhost"
PASSWORD = "a long enough password"


def cheap_hasher() -> Argon2PasswordHasher:
    return Argon2PasswordHasher(PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),)))


@dataclass
class Member:
    user: User
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class AuthApp:
    container: Container
    transport: httpx.ASGITransport

    def client(self, **kwargs: Any) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=self.transport, base_url=BASE_URL, timeout=60, **kwargs)

    async def member(self, email: str, role: Role = Role.MEMBER, password: str = PASSWORD) -> Member:
        created = await self.container.accounts.add_user(email, role, password)
        assert isinstance(created, NewUser), created
        token = await self.container.accounts.create_token(created.user, "tests")
        assert isinstance(token, NewToken), token
        return Member(created.user, token.secret)


@asynccontextmanager
async def auth_app(database_url: str, **settings: Any) -> AsyncIterator[AuthApp]:
    """The app with FORGE_AUTH=on (other Settings fields as keywords), its container closed after."""
    await upgrade_database(database_url)
    chosen = replace(Settings(database_url=database_url), auth="on", **settings)
    container = build_container(chosen, password_hasher=cheap_hasher())
    try:
        yield AuthApp(container, httpx.ASGITransport(app=create_app(container)))
    finally:
        await container.close()

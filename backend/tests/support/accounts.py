"""An app with FORGE_AUTH=on over a migrated database (the caller's: support/fresh_database.py's
`migrated_database_url`), and users with API tokens to call it as.

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
from starlette.types import ASGIApp
from support.api_client import asgi_client

from forge.api.app import create_app
from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.accounts.users import Role, User
from forge.providers.password_hashing import Argon2PasswordHasher
from forge.services.account_service import NewToken, NewUser

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
    app: ASGIApp

    def client(self, **kwargs: Any) -> httpx.AsyncClient:
        """A client of the app (`client_address=(host, port)` says where its requests come from)."""
        return asgi_client(self.app, **kwargs)

    async def member(self, email: str, role: Role = Role.MEMBER, password: str = PASSWORD) -> Member:
        created = await self.container.accounts.add_user(email, role, password)
        assert isinstance(created, NewUser), created
        token = await self.container.accounts.create_token(created.user, "tests")
        assert isinstance(token, NewToken), token
        return Member(created.user, token.secret)


@asynccontextmanager
async def auth_app(database_url: str, **settings: Any) -> AsyncIterator[AuthApp]:
    """The app with FORGE_AUTH=on (other Settings fields as keywords) over the migrated database at
    `database_url`, its container closed after."""
    chosen = replace(Settings(embedder="hashed", database_url=database_url), auth="on", **settings)
    container = build_container(chosen, password_hasher=cheap_hasher())
    try:
        yield AuthApp(container, create_app(container))
    finally:
        await container.close()

"""Accounts and usage without a server: what `forge users|tokens|admin` open over the configured database."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from forge.bootstrap.container import SystemClock
from forge.config import Settings
from forge.db.engine import (
    create_engine_for,
    create_session_factory,
)
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.ports import (
    PasswordHasher,
    UnitOfWork,
)
from forge.providers.password_hashing import Argon2PasswordHasher
from forge.services.account_service import AccountService
from forge.services.runs.registry import RunRegistry
from forge.services.user_usage import UserUsageService

log = logging.getLogger(__name__)


@dataclass
class AccountTools:
    """What the account commands of the CLI need: no model, no runs of their own."""

    engine: AsyncEngine
    accounts: AccountService
    usage: UserUsageService

    async def close(self) -> None:
        await self.engine.dispose()


def build_account_tools(settings: Settings, *, password_hasher: PasswordHasher | None = None) -> AccountTools:
    """Accounts and usage over the configured database, for `forge users|tokens|admin`. Leases of the
    server's runs are trusted until they expire (the server is another process)."""
    engine = create_engine_for(settings.database_url, pool_size=1, max_overflow=1)
    factory = create_session_factory(engine)

    def uow_factory() -> UnitOfWork:
        return SqlAlchemyUnitOfWork(factory)

    clock = SystemClock()
    runs = RunRegistry(clock, lease_seconds=settings.run_lease_seconds, trust_other_processes=True)
    accounts = AccountService(uow_factory, password_hasher or Argon2PasswordHasher(), clock, uuid.uuid4)
    return AccountTools(engine, accounts, UserUsageService(uow_factory, runs, clock, settings.user_limits))

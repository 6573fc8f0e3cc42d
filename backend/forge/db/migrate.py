"""Bring a database to the newest schema revision (`alembic upgrade head`) from code.

Invariants:
    - The Alembic configuration is always `alembic.ini` next to this module, whatever the
      current directory; the URL passed in is the only database touched.
    - Migrating never reconfigures the application's logging.

Design decisions:
    - Alembic's command API is synchronous and our env.py drives an async engine with its own
      `asyncio.run`. `upgrade_database` therefore runs the whole command in a worker thread
      (`asyncio.to_thread`): that thread has no running loop, so env.py's `asyncio.run` owns a
      fresh loop there, creates its engine (NullPool) on it and disposes it before returning.
      This works identically for aiosqlite and asyncpg, whose connections must stay on the loop
      that created them, and keeps the caller's loop free. Handing env.py a live connection of
      the caller's engine (`connection.run_sync`) was rejected: it would tie the migration to the
      caller's pool and transaction state.
    - `upgrade_database_sync` is for code with no running event loop in its thread (CLI, test
      session setup); calling it from inside a running loop raises instead of deadlocking.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config

from forge.db.engine import async_url

ALEMBIC_INI = Path(__file__).resolve().parent / "alembic.ini"


def alembic_config(url: str) -> Config:
    config = Config(str(ALEMBIC_INI))
    rendered = async_url(url).render_as_string(hide_password=False)
    config.set_main_option("sqlalchemy.url", rendered.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade_database_sync(url: str) -> None:
    """Run `alembic upgrade head` on `url`; the calling thread must not run an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        command.upgrade(alembic_config(url), "head")
        return
    raise RuntimeError("upgrade_database_sync called from a running event loop; await upgrade_database.")


async def upgrade_database(url: str) -> None:
    """Run `alembic upgrade head` on `url` in a worker thread (see the module docstring)."""
    await asyncio.to_thread(upgrade_database_sync, url)

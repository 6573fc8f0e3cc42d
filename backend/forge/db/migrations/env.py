"""Alembic environment for the Knowledge Forge schema (async engines, SQLite and PostgreSQL).

Invariants:
    - The URL comes from `config.get_main_option("sqlalchemy.url")`, which the caller sets
      (see forge.db.migrate); the environment variable FORGE_DATABASE_URL is only a fallback
      for running the alembic CLI by hand.
    - target_metadata is the ORM metadata of forge.db.tables, so autogenerate compares against
      the models.
    - Autogenerate ignores the task engine's `procrastinate_*` tables (applied by 0007, not models).
    - SQLite migrations render as batch operations (table copy-and-move), with foreign-key
      enforcement left off for the migration connection.
    - When the caller passes a live sync Connection in `config.attributes["connection"]`, the
      migrations run on it; otherwise this module makes its own async engine and runs it to
      completion with `asyncio.run`, so it must not be entered from a running event loop thread.
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from forge.db.engine import async_url, ensure_sqlite_directory, is_sqlite
from forge.db.run_job_queue import ours_in_autogenerate
from forge.db.tables import Base

config = context.config
target_metadata = Base.metadata

if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _database_url() -> str:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("FORGE_DATABASE_URL")
    if not url:
        raise RuntimeError("No database URL: set sqlalchemy.url on the Alembic config or FORGE_DATABASE_URL.")
    return async_url(url).render_as_string(hide_password=False)


def _run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        include_name=ours_in_autogenerate,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    url = _database_url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=is_sqlite(url),
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async_migrations(url: str) -> None:
    ensure_sqlite_directory(url)
    engine = create_async_engine(url, poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run_on)
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_on(connection)
    else:
        asyncio.run(_run_async_migrations(_database_url()))


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

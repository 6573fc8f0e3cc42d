"""FORGE_RUNNER: in-process by default; workers only with PostgreSQL."""

from __future__ import annotations

import pytest

from forge.config import Settings

PG = "postgresql+asyncpg://forge@db:5432/forge"


def test_the_default_runs_sessions_in_process_on_sqlite_and_postgresql() -> None:
    assert Settings.from_env({}).runner == "inprocess"
    assert Settings.from_env({"DATABASE_URL": PG}).runner == "inprocess"


def test_workers_with_postgresql_are_read_with_their_timings() -> None:
    settings = Settings.from_env(
        {
            "DATABASE_URL": PG,
            "FORGE_RUNNER": "Workers",
            "FORGE_WORKER_CONCURRENCY": "3",
            "FORGE_WORKER_HEARTBEAT_SECONDS": "0.5",
            "FORGE_WORKER_STALLED_SECONDS": "4",
            "FORGE_QUEUE_LEASE_SECONDS": "600",
        }
    )
    assert (settings.runner, settings.worker_concurrency) == ("workers", 3)
    assert (settings.worker_heartbeat_seconds, settings.worker_stalled_seconds) == (0.5, 4.0)
    assert settings.queue_lease_seconds == 600.0


def test_workers_on_sqlite_are_refused_naming_the_variable_and_postgresql() -> None:
    with pytest.raises(ValueError, match="FORGE_RUNNER=workers needs PostgreSQL"):
        Settings.from_env({"FORGE_RUNNER": "workers"})


def test_an_unknown_runner_is_refused() -> None:
    with pytest.raises(ValueError, match="FORGE_RUNNER must be one of inprocess, workers"):
        Settings.from_env({"DATABASE_URL": PG, "FORGE_RUNNER": "celery"})

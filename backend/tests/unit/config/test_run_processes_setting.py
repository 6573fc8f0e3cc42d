"""FORGE_RUN_PROCESSES: `forge serve`'s run processes; "auto" (or unset) lets serve pick by cores."""

from __future__ import annotations

import pytest

from forge.config import MAX_AUTO_RUN_PROCESSES, Settings, auto_run_processes

PG = "postgresql+asyncpg://forge@db:5432/forge"


def test_unset_or_auto_is_left_to_serve_and_a_number_is_kept() -> None:
    assert Settings.from_env({}).run_processes is None
    assert Settings.from_env({"FORGE_RUN_PROCESSES": " Auto "}).run_processes is None
    assert Settings.from_env({"FORGE_RUN_PROCESSES": "3"}).run_processes == 3
    assert Settings.from_env({"FORGE_RUN_PROCESSES": "0"}).run_processes == 0


def test_settings_built_in_code_run_in_process() -> None:
    assert Settings(database_url="sqlite+aiosqlite:///forge.db").run_processes == 0


@pytest.mark.parametrize("value", ["two", "-1", "65", "1.5"])
def test_a_value_that_is_not_a_count_is_refused_with_what_to_write(value: str) -> None:
    with pytest.raises(ValueError, match="FORGE_RUN_PROCESSES must be"):
        Settings.from_env({"FORGE_RUN_PROCESSES": value})


def test_run_processes_and_workers_together_are_refused_saying_which_to_scale() -> None:
    with pytest.raises(ValueError, match="scale `forge worker`"):
        Settings.from_env({"DATABASE_URL": PG, "FORGE_RUNNER": "workers", "FORGE_RUN_PROCESSES": "2"})
    assert Settings.from_env({"DATABASE_URL": PG, "FORGE_RUNNER": "workers"}).run_processes is None


@pytest.mark.parametrize(("cores", "expected"), [(None, 0), (1, 0), (2, 2), (3, 3), (64, MAX_AUTO_RUN_PROCESSES)])
def test_auto_is_one_run_process_per_core_and_none_on_one_core(cores: int | None, expected: int) -> None:
    assert auto_run_processes(cores) == expected


def test_auto_is_none_with_workers_which_run_the_sessions() -> None:
    assert auto_run_processes(8, "workers") == 0

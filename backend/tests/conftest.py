"""The whole suite: markers a developer can select by (`-m "not system"`, `-m "not postgres"`), and
the end of the run's migrated database templates (support/fresh_database.py), and no local server's
facts kept from one test to the next.

Markers (registered in pyproject.toml; CI selects none, so it runs everything):
    - system: tests under tests/system (real `forge serve` processes, killed and restarted).
    - postgres: tests that need the PostgreSQL server — every case parametrised with the
      "postgresql" backend, every test using the `postgres_url` fixture, and modules that say so
      themselves (`pytestmark = pytest.mark.postgres`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.fresh_database import drop_templates

from forge.providers.openai_server_facts import KNOWN_SERVERS

SYSTEM_DIR = Path(__file__).parent / "system"


def _uses_postgres(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgresql" in callspec.params.values():
        return True
    return "postgres_url" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(SYSTEM_DIR):
            item.add_marker(pytest.mark.system)
        if _uses_postgres(item):
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session", autouse=True)
def _drop_migrated_templates() -> Iterator[None]:
    yield
    drop_templates()


@pytest.fixture(autouse=True)
def _forget_known_servers() -> None:
    """Each test's fake local server is probed afresh: the process-wide facts (`KNOWN_SERVERS`) would
    otherwise carry one test's server into the next at the same base_url."""
    KNOWN_SERVERS.forget_all()

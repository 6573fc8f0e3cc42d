"""System tests: the real server in a child process, killed and restarted, over SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.fresh_database import BACKENDS, fresh_database_url


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with fresh_database_url(request.param, tmp_path) as url:
        yield url

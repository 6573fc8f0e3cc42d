"""A clock and an id source for deterministic tests."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta


class FixedClock:
    def __init__(self, start: datetime | None = None, step: timedelta = timedelta(seconds=1)):
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._step = step

    def now(self) -> datetime:
        current = self._now
        self._now += self._step
        return current


class CountingIds:
    def __init__(self, seed: int = 0):
        self._n = seed

    def __call__(self) -> uuid.UUID:
        self._n += 1
        return uuid.UUID(int=self._n)

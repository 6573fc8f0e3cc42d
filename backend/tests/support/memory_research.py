"""An in-memory ResearchProvider for agent tests: returns fixed hits for any query."""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.domain_types import SessionId
from forge.core.records import ResearchHit


class MemoryResearch:
    def __init__(self, hits: Sequence[ResearchHit]):
        self._hits = tuple(hits)
        self.queries: list[str] = []

    @property
    def name(self) -> str:
        return "memory"

    async def search(self, query: str, *, session_id: SessionId | None, limit: int = 5) -> Sequence[ResearchHit]:
        self.queries.append(query)
        return self._hits[:limit]

    async def add_document(self, session_id: SessionId, title: str, text: str) -> ResearchHit:
        return ResearchHit(f"session://{session_id}/{title}", title, text[:100])

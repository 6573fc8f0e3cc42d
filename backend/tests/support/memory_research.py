"""An in-memory ResearchProvider for agent tests: returns fixed hits for any query."""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.domain_types import SessionId
from forge.core.session.records import ResearchHit, SessionDocument


class MemoryResearch:
    def __init__(self, hits: Sequence[ResearchHit]):
        self._hits = tuple(hits)
        self.queries: list[str] = []

    @property
    def name(self) -> str:
        return "memory"

    async def search(
        self,
        query: str,
        *,
        session_id: SessionId | None,
        limit: int = 5,
        session_documents: Sequence[SessionDocument] = (),
    ) -> Sequence[ResearchHit]:
        self.queries.append(query)
        own = tuple(ResearchHit(d.source, d.title, d.text[:100]) for d in session_documents)
        return (own + self._hits)[:limit]

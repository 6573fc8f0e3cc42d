"""The hypergraph SEARCH grounds on: the ingested one (`forge hkg ingest`) or the demo built from the
shipped knowledge, opened on first use and then kept for the process.

Invariants:
    - Nothing is read at construction: the first `trace` (or `warm`) loads the hypergraph and embeds its node
      names once (under a lock, so concurrent operators open it once).
    - A hypergraph that cannot be loaded (a damaged ingested file) never stops a search: every
      trace is then NO_MATCH with no path and score 0, and `problem` says why.
    - The same hypergraph answers the path navigator (`neighbourhood`, the `HkgNeighbourhoodSource`
      port analyze_gaps reads); empty when it cannot be loaded.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from forge.core.curation.graph_gaps import HkgNeighbourhood
from forge.core.explore.library_records import ShippedKnowledge
from forge.core.hkg.hypergraph_records import HypergraphDefect
from forge.core.hkg.structural_grounding import GroundingRequest, GroundingStatus
from forge.core.search.hyperpath_trace import HyperpathTrace
from forge.ports import Embedder
from forge.services.stages.hkg_grounding import HkgGrounding, load_hypergraph, open_hkg_grounding


class LazyHkgGrounding:
    """The `StructuralGrounding` port over the hypergraph at `path` (or the demo from the shipped
    `knowledge` the composition root loaded once), its nodes matched with `embedder` (in the product
    the one research and memory rank with; its model loads in a thread on the first embed or warm)."""

    def __init__(self, path: Path, knowledge: ShippedKnowledge, embedder: Embedder | None) -> None:
        self._path = path
        self._knowledge = knowledge
        self._embedder = embedder
        self._grounding: HkgGrounding | None = None
        self._lock = asyncio.Lock()
        self.problem: str | None = None
        self.origin: str | None = None

    async def _open(self) -> HkgGrounding | None:
        async with self._lock:
            if self._grounding is None and self.problem is None:
                loaded = await asyncio.to_thread(load_hypergraph, self._path, lambda: self._knowledge)
                if isinstance(loaded, HypergraphDefect):
                    self.problem = loaded.message
                else:
                    self._grounding = await open_hkg_grounding(loaded, self._embedder)
                    self.origin = loaded.origin
        return self._grounding

    async def warm(self) -> None:
        """Open the hypergraph now (a server warming up) instead of on the first trace."""
        await self._open()

    async def neighbourhood(self, query: str, limit: int) -> HkgNeighbourhood:
        """The `HkgNeighbourhoodSource` port: empty when no hypergraph is usable."""
        grounding = await self._open()
        return HkgNeighbourhood() if grounding is None else await grounding.neighbourhood(query, limit)

    async def trace(self, request: GroundingRequest) -> HyperpathTrace:
        grounding = await self._open()
        if grounding is None:
            return HyperpathTrace(GroundingStatus.NO_MATCH, 0.0, request.hypothesis_terms, request.frame_terms)
        return await grounding.trace(request)

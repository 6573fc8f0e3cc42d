"""The container hands the hypergraph's node matching the embedder memory and research rank with."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.core.hkg.structural_grounding import GroundingRequest
from forge.providers.hashed_embedder import HashedTextEmbedder


class CountingEmbedder:
    """The offline vectors, counting the texts it was asked to embed."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self._inner = HashedTextEmbedder()

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return await self._inner.embed(texts)

    async def warm(self) -> None:
        await self._inner.warm()


async def test_the_hypergraph_embeds_its_nodes_and_terms_with_the_memory_embedder(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    settings = Settings(embedder="hashed", database_url=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}", data_dir=tmp_path)
    container = build_container(settings, embedder=embedder)
    try:
        assert container.memory_embedder is embedder and container.grounding is not None
        assert embedder.texts == []  # nothing embedded before the hypergraph is opened
        await container.grounding.trace(GroundingRequest.for_hyperpath_expand(("entropy",), ("queue",)))
        assert len(embedder.texts) > 100  # the demo's node names, then the request's terms
        assert embedder.texts[-2:] == ["entropy", "queue"]
    finally:
        await container.close()

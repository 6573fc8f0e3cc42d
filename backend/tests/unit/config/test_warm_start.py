"""A server warms up before taking work: the lazy parts are loaded at start, not on the first run."""

from __future__ import annotations

import gc
from pathlib import Path

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import SERVING_GC_THRESHOLDS
from forge.config import Settings
from forge.providers.sentence_embedder import SentenceEmbedder
from forge.providers.token_counting import cl100k_encoding


def _settings(tmp_path: Path) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}")


async def test_start_with_warm_on_start_opens_the_hypergraph_and_the_embedding_table(tmp_path: Path) -> None:
    container = build_container(_settings(tmp_path))
    assert container.grounding is not None and container.grounding.origin is None
    assert isinstance(container.memory_embedder, SentenceEmbedder)  # what warm_up loads in a thread
    container.warm_on_start = True
    thresholds = gc.get_threshold()
    await container.start()
    try:
        assert container.grounding.origin is not None  # the demo hypergraph from the shipped knowledge
        assert cl100k_encoding.cache_info().currsize == 1
        assert gc.get_freeze_count() > 0  # what was loaded is out of the cyclic collector's sight
        assert gc.get_threshold() == SERVING_GC_THRESHOLDS  # young collections far less often than 700
    finally:
        gc.unfreeze()  # warm_up froze this test process's objects; give them back to the collector
        gc.set_threshold(*thresholds)  # and this test process keeps its own collector settings
        await container.close()


async def test_start_without_warm_on_start_leaves_the_hypergraph_and_the_collector_alone(tmp_path: Path) -> None:
    container = build_container(_settings(tmp_path))
    thresholds = gc.get_threshold()
    await container.start()
    try:
        assert container.grounding is not None and container.grounding.origin is None
        assert gc.get_threshold() == thresholds
    finally:
        await container.close()

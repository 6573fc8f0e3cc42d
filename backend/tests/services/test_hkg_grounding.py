"""The HKG grounding service: demo fallback, ingest, and terms → evidence through the Embedder port."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from forge.core.hkg.hypergraph_records import HypergraphDefect
from forge.core.hkg.structural_grounding import GroundingRequest, GroundingStatus
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.services.stages.hkg_grounding import (
    DEMO_ORIGIN,
    LoadedHypergraph,
    ingest_hypergraph_file,
    load_hypergraph,
    open_hkg_grounding,
)


class RecordingEmbedder:
    """Hands out the offline vectors and remembers each batch it was asked for."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self._inner = HashedTextEmbedder()

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.batches.append(list(texts))
        return await self._inner.embed(texts)

    async def warm(self) -> None:
        await self._inner.warm()


def _demo(tmp_path: Path) -> LoadedHypergraph:
    loaded = load_hypergraph(tmp_path / "absent.jsonl", load_shipped_knowledge)
    assert isinstance(loaded, LoadedHypergraph)
    return loaded


async def test_without_an_ingested_file_the_demo_is_grounded_through_the_embedder(tmp_path: Path) -> None:
    loaded = _demo(tmp_path)
    assert loaded.origin == DEMO_ORIGIN
    embedder = RecordingEmbedder()
    grounding = await open_hkg_grounding(loaded, embedder)
    evidence = await grounding.ground(GroundingRequest.for_hyperpath_expand(["entropy"], ["waiting time", "queue"]))
    assert evidence.status is GroundingStatus.PATH_FOUND
    assert len(embedder.batches[0]) == len(loaded.store.nodes)  # node names, once
    assert embedder.batches[1] == ["entropy", "waiting time", "queue"]
    assert all(loaded.store.hyperedge(e) is not None for e in evidence.hyperedge_ids)
    assert {ref.hyperedge_id for ref in evidence.provenance} <= set(evidence.hyperedge_ids)


async def test_a_repeated_request_is_answered_from_the_traversal_cache(tmp_path: Path) -> None:
    grounding = await open_hkg_grounding(_demo(tmp_path), None)
    request = GroundingRequest.for_hyperbridge(["entropy"], ["immune memory"])
    first = await grounding.ground(request)
    second = await grounding.ground(request)
    assert first == second
    assert grounding.cache.counts().hits == 1


async def test_ingest_validates_before_writing_and_load_reads_what_was_written(tmp_path: Path) -> None:
    target = tmp_path / "hkg" / "hypergraph.jsonl"
    good = tmp_path / "good.jsonl"
    good.write_text('{"type": "node", "id": "a"}\n{"type": "hyperedge", "id": "e", "nodes": ["a"]}\n', encoding="utf-8")
    stats = ingest_hypergraph_file(good, target)
    assert not isinstance(stats, HypergraphDefect) and stats.hyperedge_count == 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "hyperedge", "id": "e", "nodes": ["ghost"]}\n', encoding="utf-8")
    defect = ingest_hypergraph_file(bad, target)
    assert isinstance(defect, HypergraphDefect)
    assert defect.message == f"{bad}: line 1: hyperedge 'e' names undeclared node 'ghost'"
    loaded = load_hypergraph(target, load_shipped_knowledge)
    assert isinstance(loaded, LoadedHypergraph) and loaded.store.stats().hyperedge_count == 1
    assert not list(target.parent.glob("*.partial"))


async def test_the_navigator_embeds_the_query_terms_when_the_nodes_have_vectors(tmp_path: Path) -> None:
    loaded = _demo(tmp_path)
    embedder = RecordingEmbedder()
    with_vectors = await open_hkg_grounding(loaded, embedder)
    around = await with_vectors.neighbourhood("why does the queue grow", 20)
    assert embedder.batches[1:] == [["queue", "grow"]]  # after the node names, the query's seed terms
    assert "term:queue" in around.seeds
    words_only = await open_hkg_grounding(loaded, None)
    assert "term:queue" in (await words_only.neighbourhood("why does the queue grow", 20)).seeds

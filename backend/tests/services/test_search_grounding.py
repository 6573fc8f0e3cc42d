"""The hypergraph SEARCH grounds on: the demo when nothing is ingested, opened once on first use; a
damaged ingested file never stops a search (every trace is NO_MATCH, and the problem is kept)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from forge.core.hkg.structural_grounding import GroundingRequest, GroundingStatus
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.services.stages.search_grounding import LazyHkgGrounding

SHIPPED = load_shipped_knowledge()

REQUEST = GroundingRequest.for_hyperpath_expand(("buffer", "queue length"), ("waiting time",))


async def test_without_an_ingested_file_the_demo_answers_with_labelled_paths(tmp_path: Path) -> None:
    grounding = LazyHkgGrounding(tmp_path / "hypergraph.jsonl", SHIPPED, HashedTextEmbedder())
    first, second = await asyncio.gather(grounding.trace(REQUEST), grounding.trace(REQUEST))
    assert first == second and first.grounded and first.status is GroundingStatus.PATH_FOUND
    assert grounding.origin is not None and "demo" in grounding.origin
    step = first.paths[0].steps[0]
    assert step.relation and not step.hyperedge_id.startswith("?")
    assert all(ref.source for ref in first.provenance)


async def test_a_damaged_ingested_file_gives_no_match_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "hypergraph.jsonl"
    path.write_text("{not json\n", encoding="utf-8")
    grounding = LazyHkgGrounding(path, SHIPPED, None)
    trace = await grounding.trace(REQUEST)
    assert trace.status is GroundingStatus.NO_MATCH and trace.paths == () and trace.score == 0.0
    assert grounding.problem is not None and "line 1" in grounding.problem


async def test_the_navigator_reads_the_demo_around_a_query_and_nothing_from_a_damaged_file(tmp_path: Path) -> None:
    demo = LazyHkgGrounding(tmp_path / "hypergraph.jsonl", SHIPPED, HashedTextEmbedder())
    around = await demo.neighbourhood("queue waiting time", 20)
    assert "term:queue" in around.seeds and 0 < len(around.nodes) <= 20
    kept = {node_id for node_id, _ in around.nodes}
    assert set(around.seeds) <= kept and all(set(members) <= kept for _, members in around.hyperedges)
    path = tmp_path / "damaged.jsonl"
    path.write_text("{not json\n", encoding="utf-8")
    damaged = await LazyHkgGrounding(path, SHIPPED, None).neighbourhood("queue", 20)
    assert damaged.nodes == () and damaged.seeds == ()

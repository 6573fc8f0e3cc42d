"""HKG grounding service: the hypergraph file, ingest, and the interface the search operators call.

`hyperpath_expand`, `hyperbridge` and VERIFY's structural grounding call `HkgGrounding.ground` with
terms from a hypothesis and terms from the problem frame; they get back a `HyperpathEvidence`
(paths, node ids, hyperedge ids, provenance references and the 0-10 score — never provenance text).

Invariants:
    - One hypergraph file, JSONL, at `Settings.hkg_path` (under FORGE_DATA_DIR). Ingest validates
      the whole input before it writes, and writes through a temporary file and a rename, so a bad
      file leaves the previous hypergraph in place.
    - Without an ingested file the demo hypergraph, built from the shipped knowledge files, is used.
    - Failures are values (`HypergraphDefect`) carrying one readable message (with the line number
      for JSONL); nothing here raises for bad input.
    - Embeddings go through the `Embedder` port (in the product the one research and memory use);
      node vectors (of `node_names`) are computed once per service, and only for hypergraphs up to
      `EMBEDDED_NODE_LIMIT` nodes (larger ones match on exact, alias and words). The terms of a
      grounding request and of a navigator query are embedded per call when the nodes have vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from forge.core.curation.graph_gaps import HkgNeighbourhood
from forge.core.explore.library_records import ShippedKnowledge
from forge.core.hkg.demo_hypergraph import build_demo_hypergraph
from forge.core.hkg.hkg_neighbourhood import hkg_neighbourhood, seed_terms
from forge.core.hkg.hypergraph_graphml import parse_graphml
from forge.core.hkg.hypergraph_jsonl import dump_hypergraph_jsonl, parse_hypergraph_jsonl
from forge.core.hkg.hypergraph_records import (
    HyperedgeId,
    HypergraphContents,
    HypergraphDefect,
    NodeId,
)
from forge.core.hkg.hypergraph_store import HypergraphStats, HypergraphStore, build_hypergraph_store
from forge.core.hkg.node_matching import NodeMatcher, node_names
from forge.core.hkg.structural_grounding import GroundingRequest, HyperpathEvidence, ground_terms
from forge.core.hkg.traversal_cache import TraversalCache
from forge.core.search.hyperpath_trace import HyperpathTrace, trace_from_evidence
from forge.ports import Embedder

EMBEDDED_NODE_LIMIT = 20_000
GRAPHML_SUFFIXES = (".graphml", ".xml")
DEMO_ORIGIN = "demo hypergraph (built from the shipped source domains and TRIZ data)"


@dataclass(frozen=True, slots=True)
class LoadedHypergraph:
    store: HypergraphStore
    origin: str


def read_hypergraph_file(path: Path) -> HypergraphContents | HypergraphDefect:
    """JSONL, or GraphML when the name ends in .graphml / .xml; a defect's message names the file."""
    try:
        if path.suffix.lower() in GRAPHML_SUFFIXES:
            parsed = parse_graphml(path.read_text(encoding="utf-8"), path.name)
        else:
            with path.open(encoding="utf-8") as lines:
                parsed = parse_hypergraph_jsonl(lines)
    except (OSError, UnicodeDecodeError) as error:
        return HypergraphDefect(f"cannot read {path}: {error}")
    return _defect_in(path, parsed) if isinstance(parsed, HypergraphDefect) else parsed


def _defect_in(path: Path, defect: HypergraphDefect) -> HypergraphDefect:
    return HypergraphDefect(f"{path}: {defect.message}")


def _store_from_file(path: Path) -> HypergraphStore | HypergraphDefect:
    """Read and validate one hypergraph file; a store's defect names the file it came from."""
    contents = read_hypergraph_file(path)
    if isinstance(contents, HypergraphDefect):
        return contents
    store = build_hypergraph_store(contents)
    return _defect_in(path, store) if isinstance(store, HypergraphDefect) else store


def ingest_hypergraph_file(source: Path, target: Path) -> HypergraphStats | HypergraphDefect:
    """Validate `source` and save it as the hypergraph at `target` (JSONL); the stats of what was saved."""
    store = _store_from_file(source)
    if isinstance(store, HypergraphDefect):
        return store
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.write_text(dump_hypergraph_jsonl(store.nodes, store.hyperedges), encoding="utf-8")
        partial.replace(target)
    except OSError as error:
        return HypergraphDefect(f"cannot write {target}: {error}")
    return store.stats()


def build_demo_store(knowledge: ShippedKnowledge) -> HypergraphStore | HypergraphDefect:
    contents = build_demo_hypergraph(knowledge.domains, knowledge.triz.principles, knowledge.triz.parameters)
    return build_hypergraph_store(contents)


def load_hypergraph(path: Path, demo_knowledge: Callable[[], ShippedKnowledge]) -> LoadedHypergraph | HypergraphDefect:
    """The ingested hypergraph at `path`, or the demo built from `demo_knowledge()` (asked only when
    nothing was ingested: the server passes the knowledge it already loaded, the CLI reads the files)."""
    if not path.exists():
        try:
            demo = build_demo_store(demo_knowledge())
        except (OSError, ValueError, KeyError, TypeError) as error:
            return HypergraphDefect(f"cannot build the demo hypergraph from the shipped knowledge: {error}")
        return demo if isinstance(demo, HypergraphDefect) else LoadedHypergraph(demo, DEMO_ORIGIN)
    store = _store_from_file(path)
    if isinstance(store, HypergraphDefect):
        return store
    return LoadedHypergraph(store, f"ingested hypergraph {path}")


class HkgGrounding:
    """Terms in, evidence out, over one loaded hypergraph. Build with `open_hkg_grounding`."""

    def __init__(self, loaded: LoadedHypergraph, matcher: NodeMatcher, embedder: Embedder | None) -> None:
        self.loaded = loaded
        self._matcher = matcher
        self._embedder = embedder if matcher.has_vectors else None
        self._cache = TraversalCache(loaded.store)

    @property
    def cache(self) -> TraversalCache:
        return self._cache

    async def ground(self, request: GroundingRequest) -> HyperpathEvidence:
        """Match both term lists to nodes, find the k shortest hyperpaths (cached), build the evidence."""
        terms = list(dict.fromkeys((*request.hypothesis_terms, *request.frame_terms)))
        vectors = await self._term_vectors(terms)
        return ground_terms(self._cache, self._matcher, request, vectors)

    async def trace(self, request: GroundingRequest) -> HyperpathTrace:
        """The evidence as a trace of labelled nodes and relations (the `StructuralGrounding` port)."""
        evidence = await self.ground(request)
        store = self.loaded.store

        def label(node_id: NodeId) -> str:
            node = store.node(node_id)
            return node.label if node is not None else node_id

        def relation(edge_id: HyperedgeId) -> str:
            edge = store.hyperedge(edge_id)
            return edge.relation if edge is not None else "related_to"

        return trace_from_evidence(evidence, request.hypothesis_terms, request.frame_terms, label, relation)

    async def neighbourhood(self, query: str, limit: int) -> HkgNeighbourhood:
        """The HKG around `query` for the path navigator: its terms matched by labels, aliases, words
        and (when the nodes have vectors) meaning, each term embedded as `ground` embeds its terms."""
        vectors = await self._term_vectors(seed_terms(query))
        return hkg_neighbourhood(self.loaded.store, self._matcher, query, limit, vectors)

    async def _term_vectors(self, terms: Sequence[str]) -> dict[str, list[float]]:
        if self._embedder is None or not terms:
            return {}
        return dict(zip(terms, await self._embedder.embed(terms), strict=True))


async def open_hkg_grounding(loaded: LoadedHypergraph, embedder: Embedder | None) -> HkgGrounding:
    """Embed the node names once (small hypergraphs only) and build the matcher."""
    nodes = loaded.store.nodes
    vectors = None
    if embedder is not None and 0 < len(nodes) <= EMBEDDED_NODE_LIMIT:
        vectors = np.asarray(await embedder.embed([node_names(node) for node in nodes]), dtype=np.float32)
    return HkgGrounding(loaded, NodeMatcher(loaded.store, vectors), embedder)

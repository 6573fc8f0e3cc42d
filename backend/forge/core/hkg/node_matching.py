"""NodeMatcher: free-text terms → hypergraph nodes with confidences, in two stages (recall, rerank).

Recall gathers candidates from four sources:
    exact   the term's normalised phrase equals a node label's      (confidence 1.0)
    alias   it equals one of the node's aliases                      (confidence 0.92)
    lexical the node's names (label and aliases) share a content word: the `RECALL_SIZE` best by BM25
    vector  the node's vector is among the `RECALL_SIZE` nearest     (only when vectors are given)
Rerank scores every other candidate with the retrieval research and memory use: BM25 of the node's
names (one document per node, label and aliases, indexed over the whole hypergraph so a rare word
weighs more than a common one) fused with the cosine by `hybrid_ranking.fuse` and DEFAULT_FUSION.
The mapping into confidences:
    - The lexical side's "best" is not the best recalled node but `Bm25Index.reference_score`: a
      name made of just the term's words the hypergraph knows. The side then says how much of the
      term a name covers (1 for all of it), so a node sharing one common word of a long term stays
      weak even when no node does better; a word no node has is left to the cosine.
    - Without a semantic side (no node vectors, or no term vector) the fusion weighs the lexical side
      alone (lexical_weight 1), as the research corpus ranks by BM25 alone without an embedder.
    - The fused score lies in [0, 1] (each side does and the weights sum to 1); the confidence is
      RERANK_CEILING × fused, in [0, 0.85]: a fused match never reaches an alias match.
    - LEXICAL: the names share a word with the term; EMBEDDING: the node was found by meaning alone.

Invariants:
    - Normalisation: lowercase words of letters and digits, each folded to its singular, joined by
      single spaces ("Temperature (T)" → "temperature t").
    - Candidates below `min_confidence` are dropped; the rest are ordered by confidence descending,
      then node id ascending: the same store, vectors and term always give the same list.
    - Only the recalled candidates are scored (the postings of the term's words, the vector top k).
    - Pure: vectors are passed in (node vectors at construction, the term's vector per call); the
      shell computes them through the `Embedder` port.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

import numpy as np
import numpy.typing as npt

from forge.core.hkg.hypergraph_records import HypergraphNode, NodeId
from forge.core.hkg.hypergraph_store import HypergraphStore
from forge.core.research.bm25_index import IndexedDocument, build_bm25_index
from forge.core.research.hybrid_ranking import DEFAULT_FUSION, FusedScore, fuse
from forge.core.research.text_terms import fold

EXACT_CONFIDENCE = 1.0
ALIAS_CONFIDENCE = 0.92
RERANK_CEILING = 0.85
RECALL_SIZE = 50
DEFAULT_MIN_CONFIDENCE = 0.35
MATCH_MEMO_SIZE = 4096

_WORD = re.compile(r"[a-z0-9]+")
_REFERENCE = "\0reference"  # the lexical side's best: never a node's key (those are positions)
_WORDS_ALONE = replace(DEFAULT_FUSION, lexical_weight=1.0)


class MatchMethod(str, Enum):
    EXACT = "exact"
    ALIAS = "alias"
    LEXICAL = "lexical"
    EMBEDDING = "embedding"


@dataclass(frozen=True, slots=True)
class NodeCandidate:
    node_id: NodeId
    label: str
    confidence: float
    method: MatchMethod
    lexical_score: float  # BM25 of the node's names for the term (0: no shared word)
    cosine: float | None  # None when the term was matched without vectors


@dataclass(frozen=True, slots=True)
class TermMatch:
    term: str
    candidates: tuple[NodeCandidate, ...]

    @property
    def best(self) -> NodeCandidate | None:
        return self.candidates[0] if self.candidates else None


def normalize_phrase(text: str) -> str:
    return " ".join(fold(word) for word in _WORD.findall(text.lower()))


def _unit_rows(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)
    return unit


def node_names(node: HypergraphNode) -> str:
    """What the lexical side reads of a node (and what the shell embeds): its label and aliases."""
    return " ".join((node.label, *node.aliases))


class NodeMatcher:
    """Build once per store (and vector set); `match` is then cheap."""

    __slots__ = ("_alias", "_exact", "_matched", "_names_index", "_nodes", "_vectors")

    def __init__(self, store: HypergraphStore, node_vectors: npt.NDArray[np.float32] | None = None) -> None:
        if node_vectors is not None and node_vectors.shape[0] != len(store.nodes):
            raise ValueError("node_vectors needs one row per node, in store order")
        self._nodes = store.nodes
        self._vectors = None if node_vectors is None else _unit_rows(node_vectors)
        self._exact: dict[str, list[int]] = defaultdict(list)
        self._alias: dict[str, list[int]] = defaultdict(list)
        # `match` is a pure function of its arguments over this immutable index: answers are kept
        # (bounded), since every trace of a session matches the same frame terms again.
        self._matched: dict[tuple[str, tuple[float, ...] | None, int, float], TermMatch] = {}
        for position, node in enumerate(store.nodes):
            self._exact[normalize_phrase(node.label)].append(position)
            for alias in node.aliases:
                self._alias[normalize_phrase(alias)].append(position)
        self._names_index = build_bm25_index(
            IndexedDocument(str(position), "", node_names(node)) for position, node in enumerate(store.nodes)
        )

    @property
    def has_vectors(self) -> bool:
        return self._vectors is not None

    def match(
        self,
        term: str,
        term_vector: Sequence[float] | None = None,
        limit: int = 3,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    ) -> TermMatch:
        key = (term, None if term_vector is None else tuple(term_vector), limit, min_confidence)
        found = self._matched.get(key)
        if found is None:
            if len(self._matched) >= MATCH_MEMO_SIZE:
                self._matched.clear()
            found = self._matched[key] = self._match(term, term_vector, limit, min_confidence)
        return found

    def _match(self, term: str, term_vector: Sequence[float] | None, limit: int, min_confidence: float) -> TermMatch:
        phrase = normalize_phrase(term) or "\0"  # a term with no word matches no label exactly
        fixed = dict.fromkeys(self._alias.get(phrase, []), MatchMethod.ALIAS)
        fixed |= dict.fromkeys(self._exact.get(phrase, []), MatchMethod.EXACT)
        similarities = self._similarities(term_vector)
        # With vectors (hypergraphs up to the shell's embedding limit) every word-sharing node's BM25 is
        # kept, so a node recalled by meaning keeps its words too; without, only the recalled best.
        found = self._names_index.scores(term, None if similarities is not None else RECALL_SIZE)
        bm25 = {int(source): score for source, score in found.items()}
        recalled = set(list(bm25)[:RECALL_SIZE])  # `scores` is best first
        if similarities is not None:
            count = min(RECALL_SIZE, len(similarities))
            recalled |= {int(p) for p in np.argpartition(-similarities, count - 1)[:count]}
        reranked = sorted(recalled - set(fixed))
        fused = self._fused(term, reranked, bm25, similarities)
        candidates = [self._fixed(position, method, bm25, similarities) for position, method in fixed.items()]
        candidates += [self._reranked(position, fused[str(position)], similarities) for position in reranked]
        kept = sorted(
            (c for c in candidates if c.confidence >= min_confidence), key=lambda c: (-c.confidence, c.node_id)
        )
        return TermMatch(term, tuple(kept[:limit]))

    def _similarities(self, term_vector: Sequence[float] | None) -> npt.NDArray[np.float32] | None:
        """The cosine of the term with every node (None without node vectors or a usable term vector)."""
        if term_vector is None or self._vectors is None or len(self._nodes) == 0:
            return None
        query = np.asarray(term_vector, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        if norm == 0.0 or query.shape[0] != self._vectors.shape[1]:
            return None
        similarities: npt.NDArray[np.float32] = self._vectors @ (query / norm)
        return similarities

    def _fused(
        self, term: str, positions: list[int], bm25: dict[int, float], similarities: npt.NDArray[np.float32] | None
    ) -> dict[str, FusedScore]:
        """Each position's fused score, its lexical side measured against the reference name."""
        lexical = {str(p): bm25[p] for p in positions if p in bm25}
        lexical[_REFERENCE] = self._names_index.reference_score(term)
        if similarities is None:
            return {f.key: f for f in fuse(lexical, {}, _WORDS_ALONE)}
        semantic = {str(p): float(similarities[p]) for p in positions}
        return {f.key: f for f in fuse(lexical, semantic, DEFAULT_FUSION)}

    def _fixed(
        self, position: int, method: MatchMethod, bm25: dict[int, float], similarities: npt.NDArray[np.float32] | None
    ) -> NodeCandidate:
        node = self._nodes[position]
        confidence = EXACT_CONFIDENCE if method is MatchMethod.EXACT else ALIAS_CONFIDENCE
        cosine = None if similarities is None else float(similarities[position])
        return NodeCandidate(node.id, node.label, confidence, method, bm25.get(position, 0.0), cosine)

    def _reranked(
        self, position: int, fused: FusedScore, similarities: npt.NDArray[np.float32] | None
    ) -> NodeCandidate:
        node = self._nodes[position]
        method = MatchMethod.LEXICAL if fused.lexical > 0 else MatchMethod.EMBEDDING
        cosine = None if similarities is None else fused.semantic
        confidence = round(RERANK_CEILING * fused.score, 4)
        return NodeCandidate(node.id, node.label, confidence, method, fused.lexical, cosine)

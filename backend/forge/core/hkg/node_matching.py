"""NodeMatcher: free-text terms → hypergraph nodes with confidences, in two stages (recall, rerank).

Recall gathers candidates from four sources:
    exact   the term's normalised phrase equals a node label's      (confidence 1.0)
    alias   it equals one of the node's aliases                      (confidence 0.92)
    lexical the node's names (label and aliases) share a content word: the `RECALL_SIZE` best by BM25
    vector  the node's vector is among the `RECALL_SIZE` nearest     (only when vectors are given)
Rerank scores every other candidate with the fusion research and memory use: a lexical side fused
with the cosine by `hybrid_ranking.fuse` and DEFAULT_FUSION, × RERANK_CEILING.
The lexical side is word coverage, symmetric in the term and the name (`word_coverage`):
        2 · idf(T ∩ N) / (idf(T) + idf(N))        best over the node's names (label, each alias)
    with T the term's content words, N a name's, idf(X) the summed BM25 IDFs of X over the names of
    the whole hypergraph (a rare word weighs more than a common one; a word no node has weighs the
    most). It is the IDF-weighted Dice coefficient: the harmonic mean of how much of the term the
    name covers and how much of the name the term covers.
    - Why not the BM25 score itself: BM25 ranks documents for a query and its length normalisation
      rewards a short document, so a one-word name ("baseline") scored most of what a name holding
      all of a sentence-long term's words would, and hub nodes stood for SEARCH's frame sentences
      (their hyperpath enumeration then ran for tens of seconds). Here a name covering one of a
      term's ten content words, all about as rare, scores about 0.2 (a word rarer than the rest
      weighs more), while a two-word term still gets 0.67 from a node naming one of its words and 1
      from a name with exactly its words.
    - The side is measured against a name of exactly the term's words (coverage 1), not the best
      recalled node, so a node sharing a little of the term stays weak even when no node does better.
    - Without a semantic side (no node vectors, or no term vector) the fusion weighs the lexical side
      alone (lexical_weight 1), as the research corpus ranks by BM25 alone without an embedder.
    - The fused score lies in [0, 1] (each side does and the weights sum to 1); the confidence is
      RERANK_CEILING × fused, in [0, 0.85]: a fused match never reaches an alias match.
    - LEXICAL: a name shares a word with the term; EMBEDDING: the node was found by meaning alone.

Invariants:
    - Normalisation: lowercase words of letters and digits, each folded to its singular, joined by
      single spaces ("Temperature (T)" → "temperature t").
    - Candidates below `min_confidence` are dropped; the rest are ordered by confidence descending,
      then node id ascending: the same store, vectors and term always give the same list.
    - Only the recalled candidates are scored (the BM25 best of the term's words, the vector top k).
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
from forge.core.research.bm25_index import Bm25Index, IndexedDocument, build_bm25_index
from forge.core.research.hybrid_ranking import DEFAULT_FUSION, FusedScore, fuse
from forge.core.research.text_terms import content_terms, fold

EXACT_CONFIDENCE = 1.0
ALIAS_CONFIDENCE = 0.92
RERANK_CEILING = 0.85
RECALL_SIZE = 50
DEFAULT_MIN_CONFIDENCE = 0.35
MATCH_MEMO_SIZE = 4096

_WORD = re.compile(r"[a-z0-9]+")
_REFERENCE = "\0reference"  # a name of exactly the term's words: never a node's key (those are positions)
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
    lexical_score: float  # word_coverage of the term by the node's best name, 0..1 (0: no shared word)
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


def word_coverage(term_words: frozenset[str], name_words: frozenset[str], idf: Bm25Index) -> float:
    """2 · idf(T ∩ N) / (idf(T) + idf(N)): how much of the term the name covers and of the name the
    term covers, at once (their harmonic mean), each word weighted by its IDF in `idf`; 0..1."""
    shared = term_words & name_words
    if not shared:
        return 0.0
    weight = idf.idf
    total = sum(map(weight, term_words)) + sum(map(weight, name_words))
    return 2.0 * sum(map(weight, shared)) / total


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
        recalled = {int(source) for source in self._names_index.scores(term, RECALL_SIZE)}
        if similarities is not None:
            count = min(RECALL_SIZE, len(similarities))
            recalled |= {int(p) for p in np.argpartition(-similarities, count - 1)[:count]}
        term_words = frozenset(content_terms(term))
        # every candidate's coverage, a fixed one's too (a node recalled by meaning keeps its words)
        coverage = {p: self._coverage(term_words, p) for p in recalled | set(fixed)}
        reranked = sorted(recalled - set(fixed))
        fused = self._fused(reranked, coverage, similarities)
        candidates = [self._fixed(position, method, coverage, similarities) for position, method in fixed.items()]
        candidates += [self._reranked(position, fused[str(position)], similarities) for position in reranked]
        kept = sorted(
            (c for c in candidates if c.confidence >= min_confidence), key=lambda c: (-c.confidence, c.node_id)
        )
        return TermMatch(term, tuple(kept[:limit]))

    def _coverage(self, term_words: frozenset[str], position: int) -> float:
        """`word_coverage` of the term by the node's best name (names are read here, for the few
        recalled nodes: word sets kept for every node took bench_hkg's matcher from +91 to +134 MiB)."""
        node = self._nodes[position]
        return max(
            word_coverage(term_words, frozenset(content_terms(name)), self._names_index)
            for name in (node.label, *node.aliases)
        )

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
        self, positions: list[int], coverage: dict[int, float], similarities: npt.NDArray[np.float32] | None
    ) -> dict[str, FusedScore]:
        """Each position's fused score, its lexical side measured against a name of exactly the term's
        words (coverage 1), so `fuse`'s division by the best leaves the coverage as it is."""
        lexical = {str(p): coverage[p] for p in positions if coverage[p] > 0}
        lexical[_REFERENCE] = 1.0
        if similarities is None:
            return {f.key: f for f in fuse(lexical, {}, _WORDS_ALONE)}
        semantic = {str(p): float(similarities[p]) for p in positions}
        return {f.key: f for f in fuse(lexical, semantic, DEFAULT_FUSION)}

    def _fixed(
        self,
        position: int,
        method: MatchMethod,
        coverage: dict[int, float],
        similarities: npt.NDArray[np.float32] | None,
    ) -> NodeCandidate:
        node = self._nodes[position]
        confidence = EXACT_CONFIDENCE if method is MatchMethod.EXACT else ALIAS_CONFIDENCE
        cosine = None if similarities is None else float(similarities[position])
        return NodeCandidate(node.id, node.label, confidence, method, coverage[position], cosine)

    def _reranked(
        self, position: int, fused: FusedScore, similarities: npt.NDArray[np.float32] | None
    ) -> NodeCandidate:
        node = self._nodes[position]
        method = MatchMethod.LEXICAL if fused.lexical > 0 else MatchMethod.EMBEDDING
        cosine = None if similarities is None else fused.semantic
        confidence = round(RERANK_CEILING * fused.score, 4)
        return NodeCandidate(node.id, node.label, confidence, method, fused.lexical, cosine)

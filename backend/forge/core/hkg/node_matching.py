"""NodeMatcher: free-text terms → hypergraph nodes with confidences, in two stages (recall, rerank).

Recall gathers candidates from four sources:
    exact   the term's normalised phrase equals a node label's      (confidence 1.0)
    alias   it equals one of the node's aliases                      (confidence 0.92)
    lexical the node's label or an alias shares a content word       (top `RECALL_SIZE` by overlap)
    vector  the node's vector is among the `RECALL_SIZE` nearest     (only when vectors are given)
Rerank scores each non-exact candidate as 0.85 · (1 − (1 − lexical)(1 − cosine⁺)) — a noisy-OR of
the word overlap (Dice coefficient of content words, best over label and aliases) and the cosine
similarity — so either signal alone can match, both together match more confidently, and neither
can reach an alias match.

Invariants:
    - Normalisation: lowercase words of letters and digits, each folded to its singular, joined by
      single spaces ("Temperature (T)" → "temperature t").
    - Candidates below `min_confidence` are dropped; the rest are ordered by confidence descending,
      then node id ascending: the same store, vectors and term always give the same list.
    - Pure: vectors are passed in (node vectors at construction, the term's vector per call); the
      shell computes them through the `Embedder` port.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from forge.core.hkg.hypergraph_records import HypergraphNode, NodeId
from forge.core.hkg.hypergraph_store import HypergraphStore
from forge.core.research.text_terms import content_terms, fold

EXACT_CONFIDENCE = 1.0
ALIAS_CONFIDENCE = 0.92
RERANK_CEILING = 0.85
RECALL_SIZE = 50
DEFAULT_MIN_CONFIDENCE = 0.35
MATCH_MEMO_SIZE = 4096

_WORD = re.compile(r"[a-z0-9]+")


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
    lexical_score: float
    cosine: float | None


@dataclass(frozen=True, slots=True)
class TermMatch:
    term: str
    candidates: tuple[NodeCandidate, ...]

    @property
    def best(self) -> NodeCandidate | None:
        return self.candidates[0] if self.candidates else None


def normalize_phrase(text: str) -> str:
    return " ".join(fold(word) for word in _WORD.findall(text.lower()))


def _dice(left: frozenset[str], right: frozenset[str]) -> float:
    if not left or not right:
        return 0.0
    return 2.0 * len(left & right) / (len(left) + len(right))


def _unit_rows(vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)
    return unit


def _names(node: HypergraphNode) -> tuple[str, ...]:
    return (node.label, *node.aliases)


class NodeMatcher:
    """Build once per store (and vector set); `match` is then cheap."""

    __slots__ = ("_alias", "_exact", "_matched", "_name_words", "_nodes", "_vectors", "_word_index")

    def __init__(self, store: HypergraphStore, node_vectors: npt.NDArray[np.float32] | None = None) -> None:
        if node_vectors is not None and node_vectors.shape[0] != len(store.nodes):
            raise ValueError("node_vectors needs one row per node, in store order")
        self._nodes = store.nodes
        self._vectors = None if node_vectors is None else _unit_rows(node_vectors)
        self._exact: dict[str, list[int]] = defaultdict(list)
        self._alias: dict[str, list[int]] = defaultdict(list)
        self._word_index: dict[str, list[int]] = defaultdict(list)
        self._name_words: list[tuple[frozenset[str], ...]] = []
        # `match` is a pure function of its arguments over this immutable index: answers are kept
        # (bounded), since every trace of a session matches the same frame terms again.
        self._matched: dict[tuple[str, tuple[float, ...] | None, int, float], TermMatch] = {}
        for position, node in enumerate(store.nodes):
            self._exact[normalize_phrase(node.label)].append(position)
            for alias in node.aliases:
                self._alias[normalize_phrase(alias)].append(position)
            words = tuple(frozenset(content_terms(name)) for name in _names(node))
            self._name_words.append(words)
            for word in frozenset().union(*words):
                self._word_index[word].append(position)

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
        words = frozenset(content_terms(term))
        lexical = self._lexical_recall(words)
        cosines = self._vector_recall(term_vector)
        candidates = [
            self._rerank(position, fixed.get(position), lexical.get(position, 0.0), cosines.get(position))
            for position in sorted(set(fixed) | set(lexical) | set(cosines))
        ]
        kept = sorted(
            (c for c in candidates if c.confidence >= min_confidence), key=lambda c: (-c.confidence, c.node_id)
        )
        return TermMatch(term, tuple(kept[:limit]))

    def _lexical_recall(self, words: frozenset[str]) -> dict[int, float]:
        positions = {p for word in words for p in self._word_index.get(word, [])}
        scores = {p: max(_dice(words, name) for name in self._name_words[p]) for p in positions}
        best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:RECALL_SIZE]
        return dict(best)

    def _vector_recall(self, term_vector: Sequence[float] | None) -> dict[int, float]:
        if term_vector is None or self._vectors is None or len(self._nodes) == 0:
            return {}
        query = np.asarray(term_vector, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            return {}
        similarities = self._vectors @ (query / norm)
        count = min(RECALL_SIZE, len(similarities))
        top = np.argpartition(-similarities, count - 1)[:count]
        return {int(p): float(similarities[p]) for p in top}

    def _rerank(self, position: int, fixed: MatchMethod | None, lexical: float, cosine: float | None) -> NodeCandidate:
        node = self._nodes[position]
        if fixed is not None:
            confidence = EXACT_CONFIDENCE if fixed is MatchMethod.EXACT else ALIAS_CONFIDENCE
            return NodeCandidate(node.id, node.label, confidence, fixed, lexical, cosine)
        similarity = max(cosine or 0.0, 0.0)
        confidence = RERANK_CEILING * (1.0 - (1.0 - lexical) * (1.0 - similarity))
        method = MatchMethod.LEXICAL if lexical >= similarity else MatchMethod.EMBEDDING
        return NodeCandidate(node.id, node.label, round(confidence, 4), method, lexical, cosine)

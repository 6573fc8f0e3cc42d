"""Word matching (BM25) and meaning (embedding cosines) fused: how research, memory and the HKG rank.

The local corpus (shipped and uploaded documents) ranks documents with `fuse`; hypothesis memory
ranks episodes by `fused_relevance` × C; the hypergraph's NodeMatcher reranks the nodes a term
recalled with `fuse` (its lexical side the IDF-weighted word coverage of a node's names; × its
rerank ceiling). All use DEFAULT_FUSION and the embedder the shell hands them (`forge.ports.Embedder`,
one object).

Invariants:
    - Pure: scores come in by key, keys go out best first; ties keep the order of first appearance
      (lexical keys first, then semantic ones), so the same inputs always give the same ranking.
    - `fuse` weighs the BM25 side by `lexical_weight` and the cosine side by 1 − `lexical_weight`;
      a key missing from a side gets 0 from it. RECIPROCAL_RANK: a side gives (k + 1) / (k + rank)
      (1 for its first). SCORES: each side min–max normalised. COSINE_PLUS_SCALED_BM25: BM25 divided
      by the query's best BM25, plus the cosine itself (negative counts 0). Every side lies in [0, 1].
    - COSINE_PLUS_SCALED_BM25 keeps the cosine's own scale: an episode related by meaning alone keeps
      (1 − w) × its cosine however few episodes there are (min–max would give the less related of
      two 0, RRF gives nearly 1 to all near the top), so fused relevance × C still lets a trusted,
      slightly less related hypothesis outrank a doubtful close one, as cosine × C did (seed 004 §4.3).
    - DEFAULT_FUSION was chosen on a DEV half of MOOSE-Chem's 36 dev papers (even rows) among the
      fusions relevance × C can use (bench/bench_moose_chem_retrieval.py; numbers in
      docs/architecture.md); the semantic side is a document's best passage.
    - `passages` cuts a long text into word windows (a sentence is never split unless it alone is
      longer than the window), each prefixed with the title: the embedder reads every part of a
      document instead of the first MAX_TOKENS, and a document's cosine is its best passage's
      (`best_passage_cosine`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from forge.core.explore.source_domain_distance import cosine
from forge.core.research.bm25_index import IndexedDocument, build_bm25_index

PASSAGE_WORDS = 120
# A document sharing no word with the query is offered only when its meaning is this close (§10.1's
# "related concept" band of all-MiniLM-L6-v2 cosines).
SEMANTIC_ONLY_MIN = 0.5
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class FusionMethod(StrEnum):
    RECIPROCAL_RANK = "reciprocal_rank"
    SCORES = "scores"
    COSINE_PLUS_SCALED_BM25 = "cosine_plus_scaled_bm25"


@dataclass(frozen=True, slots=True)
class Fusion:
    method: FusionMethod
    rrf_k: int = 60
    lexical_weight: float = 0.5

    @property
    def label(self) -> str:
        if self.method == FusionMethod.RECIPROCAL_RANK:
            return f"rrf(k={self.rrf_k}, w_bm25={self.lexical_weight:.1f})"
        if self.method == FusionMethod.SCORES:
            return f"scores(w_bm25={self.lexical_weight:.1f})"
        return f"cosine+bm25/best(w_bm25={self.lexical_weight:.1f})"


DEFAULT_FUSION = Fusion(FusionMethod.COSINE_PLUS_SCALED_BM25, lexical_weight=0.3)


@dataclass(frozen=True, slots=True)
class FusedScore:
    key: str
    score: float
    lexical: float  # the BM25 score (0 when the key shares no term with the query)
    semantic: float  # the cosine (0 when the key had no vector)


def _normalised(scores: Mapping[str, float]) -> dict[str, float]:
    if not scores:
        return {}
    low, high = min(scores.values()), max(scores.values())
    span = high - low
    return {key: (value - low) / span if span > 0 else 1.0 for key, value in scores.items()}


def _reciprocal_ranks(scores: Mapping[str, float], k: int) -> dict[str, float]:
    order = sorted(scores, key=lambda key: -scores[key])
    return {key: (k + 1) / (k + position + 1) for position, key in enumerate(order)}


def _over_best(scores: Mapping[str, float]) -> dict[str, float]:
    best = max(scores.values(), default=0.0)
    return {key: max(0.0, value) / best if best > 0 else 0.0 for key, value in scores.items()}


def _sides(
    lexical: Mapping[str, float], semantic: Mapping[str, float], fusion: Fusion
) -> tuple[dict[str, float], dict[str, float]]:
    """Each side's contribution in [0, 1] before weighting."""
    if fusion.method == FusionMethod.RECIPROCAL_RANK:  # scaled by k + 1: first on a side gives 1
        return _reciprocal_ranks(lexical, fusion.rrf_k), _reciprocal_ranks(semantic, fusion.rrf_k)
    if fusion.method == FusionMethod.SCORES:
        return _normalised(lexical), _normalised(semantic)
    return _over_best(lexical), {key: max(0.0, value) for key, value in semantic.items()}


def fuse(
    lexical: Mapping[str, float], semantic: Mapping[str, float], fusion: Fusion = DEFAULT_FUSION
) -> list[FusedScore]:
    """Every key of either mapping, best first by the fused score."""
    keys = list(dict.fromkeys([*lexical, *semantic]))
    a, b = _sides(lexical, semantic, fusion)
    w = fusion.lexical_weight
    fused = {key: w * a.get(key, 0.0) + (1.0 - w) * b.get(key, 0.0) for key in keys}
    ranked = sorted(keys, key=lambda key: -fused[key])
    return [FusedScore(key, fused[key], lexical.get(key, 0.0), semantic.get(key, 0.0)) for key in ranked]


def fused_relevance(
    query: str, texts: Mapping[str, str], cosines: Mapping[str, float], fusion: Fusion = DEFAULT_FUSION
) -> dict[str, float]:
    """Each key of `texts` → its relevance to `query` in [0, 1]: BM25 over `texts` (indexed together,
    so IDF comes from them) fused with `cosines` (a key without one counts 0 there)."""
    index = build_bm25_index(IndexedDocument(key, "", text) for key, text in texts.items())
    fused = {f.key: f.score for f in fuse(index.scores(query), cosines, fusion)}
    return {key: fused.get(key, 0.0) for key in texts}


def _windows(words: Sequence[str], size: int) -> list[list[str]]:
    return [list(words[start : start + size]) for start in range(0, len(words), size)]


def passages(title: str, text: str, max_words: int = PASSAGE_WORDS) -> tuple[str, ...]:
    """The title followed by consecutive windows of whole sentences of `text`, each ≤ max_words words
    (the title alone when the text is empty)."""
    groups: list[list[str]] = []
    for sentence in _SENTENCE_END.split(" ".join(text.split())):
        words = sentence.split()
        if groups and len(groups[-1]) + len(words) <= max_words:
            groups[-1].extend(words)
        else:
            groups.extend(_windows(words, max_words) if words else [])
    head = title.strip()
    if not groups:
        return (head,)
    return tuple(f"{head}. {' '.join(group)}" if head else " ".join(group) for group in groups)


def best_passage_cosine(query: Sequence[float], passage_vectors: Sequence[Sequence[float]]) -> float:
    """The best cosine of the query with any passage (0 when there is none or lengths differ)."""
    return max((cosine(query, v) for v in passage_vectors if len(v) == len(query)), default=0.0)

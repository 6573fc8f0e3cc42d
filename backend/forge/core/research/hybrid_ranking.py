"""Word matching (BM25) and meaning (embedding cosines) fused: how the research corpus ranks.

The local corpus (shipped and uploaded documents) ranks with this module, with the embedder
hypothesis memory uses (the shell's `forge.ports.Embedder`); memory itself ranks by cosine × C
(an RRF relevance is nearly flat near the top, so × C it would let trust outrank meaning).

Invariants:
    - Pure: scores come in by key, keys go out best first; ties keep the order of first appearance
      (lexical keys first, then semantic ones), so the same inputs always give the same ranking.
    - `fuse` weighs the BM25 side by `lexical_weight` and the cosine side by 1 − `lexical_weight`;
      with RECIPROCAL_RANK a side gives (k + 1) / (k + rank) (1 for its first; a key missing from a
      ranking gets nothing from it), with SCORES its min–max normalised score (a key missing from the BM25 scores counts
      0 there). Both lie in [0, 1] per query and key.
    - DEFAULT_FUSION was chosen on a DEV half of MOOSE-Chem's 36 dev papers (even rows) and measured on
      the other half (bench/bench_moose_chem_retrieval.py; numbers in docs/architecture.md); the
      semantic side is a document's best passage (the embedder's choice on both DEV halves).
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

PASSAGE_WORDS = 120
# A document sharing no word with the query is offered only when its meaning is this close (§10.1's
# "related concept" band of all-MiniLM-L6-v2 cosines).
SEMANTIC_ONLY_MIN = 0.5
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class FusionMethod(StrEnum):
    RECIPROCAL_RANK = "reciprocal_rank"
    SCORES = "scores"


@dataclass(frozen=True, slots=True)
class Fusion:
    method: FusionMethod
    rrf_k: int = 60
    lexical_weight: float = 0.5

    @property
    def label(self) -> str:
        if self.method == FusionMethod.RECIPROCAL_RANK:
            return f"rrf(k={self.rrf_k}, w_bm25={self.lexical_weight:.1f})"
        return f"scores(w_bm25={self.lexical_weight:.1f})"


DEFAULT_FUSION = Fusion(FusionMethod.RECIPROCAL_RANK, rrf_k=60, lexical_weight=0.5)


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


def fuse(
    lexical: Mapping[str, float], semantic: Mapping[str, float], fusion: Fusion = DEFAULT_FUSION
) -> list[FusedScore]:
    """Every key of either mapping, best first by the fused score."""
    keys = list(dict.fromkeys([*lexical, *semantic]))
    if fusion.method == FusionMethod.RECIPROCAL_RANK:  # scaled by k + 1: first on a side gives 1
        a, b = _reciprocal_ranks(lexical, fusion.rrf_k), _reciprocal_ranks(semantic, fusion.rrf_k)
    else:
        a, b = _normalised(lexical), _normalised(semantic)
    w = fusion.lexical_weight
    fused = {key: w * a.get(key, 0.0) + (1.0 - w) * b.get(key, 0.0) for key in keys}
    ranked = sorted(keys, key=lambda key: -fused[key])
    return [FusedScore(key, fused[key], lexical.get(key, 0.0), semantic.get(key, 0.0)) for key in ranked]


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

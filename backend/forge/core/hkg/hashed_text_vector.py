"""A deterministic text vector that needs no model and no network (feature hashing).

Invariants:
    - The same text gives the same vector on every run and machine (blake2b, not Python's `hash`).
    - Vectors have `dimensions` entries and unit length (the zero vector for text with no word).
    - Features: each lowercase word folded to its singular (weight 0.5) and the character trigrams of
      `#word#` (weight 1.0 per word, spread over its trigrams), each hashed to a signed bucket; the
      trigrams carry more weight so that related spellings ("queueing" ~ "queue") land near.
    - Pure, so memoised: feature buckets and whole vectors are cached per process (bounded LRU);
      callers get a fresh list each time, never the cached one.

Design decision: this captures spelling and morphology ("thermal" ~ "thermodynamics", "queues" ~
"queueing"), not meaning; a real embedding model plugs in through the `Embedder` port instead.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re

from forge.core.research.text_terms import fold

DEFAULT_DIMENSIONS = 256
WORD_WEIGHT = 0.5
TRIGRAM_WEIGHT = 1.0

_WORD = re.compile(r"[a-z0-9]+")


@functools.lru_cache(maxsize=1 << 16)  # pure: the same feature always lands in the same bucket
def _bucket(feature: str, dimensions: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dimensions, (1.0 if (value >> 63) & 1 else -1.0)


def _features(text: str) -> list[tuple[str, float]]:
    features: list[tuple[str, float]] = []
    for word in _WORD.findall(text.lower()):
        folded = fold(word)
        features.append(("w:" + folded, WORD_WEIGHT))
        padded = f"#{folded}#"
        trigrams = [padded[i : i + 3] for i in range(len(padded) - 2)]
        features.extend(("t:" + gram, TRIGRAM_WEIGHT / math.sqrt(len(trigrams))) for gram in trigrams)
    return features


def hashed_text_vector(text: str, dimensions: int = DEFAULT_DIMENSIONS) -> list[float]:
    return list(_cached_vector(text, dimensions))


@functools.lru_cache(maxsize=4096)  # library texts are vectorised again and again (selection, matching)
def _cached_vector(text: str, dimensions: int) -> tuple[float, ...]:
    vector = [0.0] * dimensions
    for feature, weight in _features(text):
        bucket, sign = _bucket(feature, dimensions)
        vector[bucket] += sign * weight
    norm = math.sqrt(sum(v * v for v in vector))
    return tuple(v / norm for v in vector) if norm > 0 else tuple(vector)

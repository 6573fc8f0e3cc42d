"""SAGA Layer 3 (seed 000 §5.3): pattern memory by semantic hash — the mappings a model keeps
producing and scoring highly ("favourite patterns") are flagged.

Invariants:
    - A pattern is a hypothesis's source structure and the source concepts of its mapping; its
      semantic hash is a 64-bit SimHash over their match keys (so spelling, plurals and word order
      do not matter). Two hashes are the same pattern within `SAME_PATTERN_BITS` differing bits.
    - A sighting is (hash, label, where it was seen, score). A pattern is a favourite when it was
      seen in at least `FAVOURITE_MIN_PLACES` distinct places (sessions; rounds when only one
      session's memory is available) with a mean score of at least `FAVOURITE_MIN_SCORE`.
    - Pure: the hashing uses `hashlib.blake2b` (a stable function of the text, unlike `hash`).
    - Grouping: each sighting joins the FIRST group (in order of creation) whose first sighting is
      the same pattern, else starts a group.

Design decision: the history is up to 5,000 sightings read at every checkpoint, and most patterns
are distinct, so comparing each sighting with every group so far was ~1 s per checkpoint at 5,000
distinct sightings (on the event loop), and ~18 ms as one numpy XOR over all leaders per sighting.
Now the leaders are indexed by pigeonhole: cut into SAME_PATTERN_BITS + 1 blocks, two hashes that
differ in at most SAME_PATTERN_BITS bits agree on at least one whole block, so only the leaders
sharing a block with the sighting are compared (a handful, not thousands): the same groups. And
a sighting that shares no block with any other sighting (numpy finds them: one sort per block) is
within SAME_PATTERN_BITS of none, so it is a group of its own that nobody joins; only the others
(a few percent of distinct hashes) go through the loop, and favourites (at least
FAVOURITE_MIN_PLACES sightings) never look at the lone ones.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from forge.core.research.text_terms import match_keys
from forge.core.saga.records import Finding, FindingKind, Severity

SAME_PATTERN_BITS = 3
FAVOURITE_MIN_PLACES = 3
FAVOURITE_MIN_SCORE = 6.0
_BITS = 64


@dataclass(frozen=True, slots=True)
class PatternSighting:
    hash: int
    label: str  # readable: the structure's name
    place: str  # the session (or round) it was seen in
    score: float  # 0..10


@functools.lru_cache(maxsize=8192)  # pure: a domain's structures and concepts recur across its hypotheses
def semantic_hash(text: str) -> int:
    """64-bit SimHash over the text's match keys (0 for a text without terms)."""
    keys = sorted(match_keys(text))
    if not keys:
        return 0
    weights = [0] * _BITS
    for key in keys:
        for bit, vote in enumerate(_votes(key)):
            weights[bit] += vote
    return sum(1 << bit for bit, w in enumerate(weights) if w > 0)


@functools.lru_cache(maxsize=16384)  # pure: match keys recur across texts far more than texts do
def _votes(key: str) -> tuple[int, ...]:
    """The key's vote per bit (+1 where its digest has a 1, else -1), lowest bit first."""
    digest = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
    return tuple(1 if digest >> bit & 1 else -1 for bit in range(_BITS))


def same_pattern(a: int, b: int) -> bool:
    return (a ^ b).bit_count() <= SAME_PATTERN_BITS


def pattern_text(structure: str, source_concepts: Sequence[str]) -> str:
    return " ".join((structure, *source_concepts))


@dataclass(frozen=True, slots=True)
class Favourite:
    hash: int
    label: str
    places: int
    mean_score: float


_BLOCKS = SAME_PATTERN_BITS + 1
_BLOCK_BITS = -(-_BITS // _BLOCKS)  # ceil: the last block may be narrower
_BLOCK_MASK = (1 << _BLOCK_BITS) - 1


@functools.lru_cache(maxsize=65536)  # pure: every checkpoint groups the same history again
def _blocks(h: int) -> tuple[tuple[int, int], ...]:
    return tuple((b, h >> (b * _BLOCK_BITS) & _BLOCK_MASK) for b in range(_BLOCKS))


def group_patterns(history: Sequence[PatternSighting]) -> list[list[PatternSighting]]:
    """The sightings grouped by pattern (module invariants), groups in order of creation."""
    lone = ~_share_a_block(history)
    grouped = _group_sharing(history, lone)
    singles = [(i, [history[i]]) for i in np.flatnonzero(lone).tolist()]
    return [group for _, group in sorted([*grouped, *singles], key=lambda pair: pair[0])]


def favourite_patterns(history: Sequence[PatternSighting]) -> list[Favourite]:
    """Patterns of the history seen in enough places with a high enough mean score."""
    favourites = []
    for _, group in _group_sharing(history, ~_share_a_block(history)):  # a lone sighting is one place
        places = len({s.place for s in group})
        score = sum(s.score for s in group) / len(group)
        if places >= FAVOURITE_MIN_PLACES and score >= FAVOURITE_MIN_SCORE:
            favourites.append(Favourite(group[0].hash, group[0].label, places, round(score, 2)))
    return favourites


def _share_a_block(history: Sequence[PatternSighting]) -> np.ndarray:
    """Per sighting: whether another sighting has the same bits in one of its blocks."""
    hashes = np.fromiter((s.hash for s in history), dtype=np.uint64, count=len(history))
    shared = np.zeros(len(history), dtype=bool)
    for b in range(_BLOCKS):
        keys = (hashes >> np.uint64(b * _BLOCK_BITS)) & np.uint64(_BLOCK_MASK)
        order = np.argsort(keys, kind="stable")
        equal = keys[order][1:] == keys[order][:-1]
        shared[order[1:][equal]] = True
        shared[order[:-1][equal]] = True
    return shared


def _group_sharing(history: Sequence[PatternSighting], lone: np.ndarray) -> list[tuple[int, list[PatternSighting]]]:
    """The groups of the sightings that are not `lone`, each with its leader's position, in order."""
    groups: list[tuple[int, list[PatternSighting]]] = []
    leaders: list[int] = []
    by_block: dict[tuple[int, int], list[int]] = {}  # (block, its bits) -> groups whose leader has them, in order
    for position in np.flatnonzero(~lone).tolist():
        sighting = history[position]
        blocks = _blocks(sighting.hash)
        first: int | None = None
        for block in blocks:
            for g in by_block.get(block, ()):
                if first is not None and g >= first:
                    break  # ascending: nothing earlier in this block
                if (leaders[g] ^ sighting.hash).bit_count() <= SAME_PATTERN_BITS:
                    first = g
                    break
        if first is not None:
            groups[first][1].append(sighting)
            continue
        for block in blocks:
            by_block.setdefault(block, []).append(len(groups))
        leaders.append(sighting.hash)
        groups.append((position, [sighting]))
    return groups


def detect_favourite_patterns(
    batch: Sequence[tuple[str, PatternSighting]], history: Sequence[PatternSighting]
) -> Finding | None:
    """The hypotheses of `batch` (id, its sighting) whose pattern is a favourite of `history`
    (which should include the batch's own sightings)."""
    favourites = favourite_patterns(history)
    hits = [(hid, f) for hid, s in batch for f in favourites if same_pattern(f.hash, s.hash)]
    if not hits:
        return None
    named = "; ".join(f"{hid}: “{f.label}” seen in {f.places} places, mean score {f.mean_score}" for hid, f in hits)
    return Finding(
        FindingKind.FAVOURITE_PATTERN,
        float(max(f.places for _, f in hits)),
        float(FAVOURITE_MIN_PLACES),
        tuple(dict.fromkeys(hid for hid, _ in hits)),
        f"Favourite patterns (the model keeps producing and rewarding them): {named}. "
        "Check they are chosen for this problem, not out of habit.",
        severity=Severity.INFO,
        dimensions=tuple(dict.fromkeys(f.label for _, f in hits)),
    )

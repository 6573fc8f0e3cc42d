"""Term matching for the offline model: stems, overlaps and short phrases over `content_terms`.

Invariants:
    - Pure and deterministic: every function returns lists/tuples in a stable order (first
      appearance), never depending on set iteration order.
    - Matching is on light stems ("waiting", "waits", "wait" -> "wait"), so cue terms written in
      one form match problem text written in another; a hyphenated term also matches by its parts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from forge.core.research.text_terms import content_terms

_SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "ed", "er", "ly")
_MIN_STEM = 4
_ELLIPSIS = "…"


# The offline model stems the same problem, domain and corpus texts on every call of every session:
# memoised (pure functions of immutable strings; bounded).
@lru_cache(maxsize=65_536)
def stem(term: str) -> str:
    """A light suffix-stripping stem that keeps at least four characters ("reducing", "reduce" -> "reduc")."""
    for suffix in _SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) >= _MIN_STEM:
            base = term[: -len(suffix)]
            if len(base) >= 2 and base[-1] == base[-2] and base[-1] not in "ls":
                base = base[:-1]  # "stopping" -> "stopp" -> "stop"
            return base
    if term.endswith("e") and len(term) > _MIN_STEM:
        return term[:-1]
    return term


def _with_parts(term: str) -> list[str]:
    """A hyphenated term and its parts ("heat-wave" -> heat-wave, heat, wave)."""
    parts = [p for p in term.split("-") if len(p) >= 3] if "-" in term else []
    return [term, *parts]


@lru_cache(maxsize=8_192)
def stems(text: str) -> tuple[str, ...]:
    """Distinct stems of the content terms of `text` (hyphenated terms also by part), first seen first."""
    return tuple(dict.fromkeys(stem(p) for t in content_terms(text) for p in _with_parts(t)))


@lru_cache(maxsize=8_192)
def stem_set(text: str) -> frozenset[str]:
    return frozenset(stems(text))


def overlap(a: str, b: str) -> tuple[str, ...]:
    """Terms of `a` (as written, one per stem) whose stems also occur in `b`, in `a`'s order."""
    other = stem_set(b)
    words: dict[str, str] = {}
    for term in content_terms(a):
        for part in _with_parts(term):
            if stem(part) in other:
                words.setdefault(stem(part), part)
    return tuple(words.values())


def coverage(a: str, b: str) -> float:
    """Share of `a`'s stems found in `b` (0 when `a` has none)."""
    mine = stems(a)
    other = stem_set(b)
    return sum(1 for s in mine if s in other) / len(mine) if mine else 0.0


QUERY_WORDS = frozenset({"limit", "fail", "evidence", "against", "work"})


def relevance(hit_text: str, subject: str) -> int:
    """Distinct stems shared by a research hit and a subject, ignoring the words queries add."""
    return len((stem_set(hit_text) & stem_set(subject)) - QUERY_WORDS)


def jaccard(a: str, b: str) -> float:
    sa, sb = stem_set(a), stem_set(b)
    union = sa | sb
    return len(sa & sb) / len(union) if union else 0.0


def cue_hits(cues: Iterable[str], text_stems: frozenset[str]) -> list[str]:
    """Cue phrases all of whose stems occur in `text_stems` (a cue with no content term never hits)."""
    hits = []
    for cue in cues:
        cue_stems = stems(cue)
        if cue_stems and all(s in text_stems for s in cue_stems):
            hits.append(cue)
    return hits


def key_terms(text: str, limit: int = 5, exclude: Sequence[str] = ()) -> list[str]:
    """The first `limit` distinct content terms of `text` whose stems are not excluded."""
    banned = {stem(t) for e in exclude for t in content_terms(e)}
    chosen: list[str] = []
    seen: set[str] = set()
    for term in content_terms(text):
        s = stem(term)
        if s in banned or s in seen:
            continue
        seen.add(s)
        chosen.append(term)
        if len(chosen) == limit:
            break
    return chosen


def first_sentence(text: str, limit: int = 200) -> str:
    """The first sentence of `text`, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    for end in (". ", "! ", "? "):
        cut = flat.find(end)
        if 0 < cut < limit:
            return flat[: cut + 1]
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + _ELLIPSIS


def shorten(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip(" ,;:") + _ELLIPSIS

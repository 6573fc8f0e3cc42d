"""Term matching over the core's match keys (`core.research.text_terms`), used by the offline model's planners and libraries; shares
and relevance come from `core.research.text_relevance` itself.

Invariants:
    - Pure and deterministic: lists come back in a stable order (first appearance), never in set order.
    - Terms compare by `match_key` (plural, suffix and spelling folded; a hyphenated term also by
      its parts), the same keys the research gates and the verifier use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from forge.core.research.text_terms import content_terms, match_key, match_keys


def _keys_of(term: str) -> list[str]:
    parts = [p for p in term.split("-") if len(p) >= 3] if "-" in term else []
    return [match_key(t) for t in (term, *parts)]


def overlap(a: str, b: str) -> tuple[str, ...]:
    """Terms of `a` (as written, one per key) whose keys also occur in `b`, in `a`'s order."""
    other = match_keys(b)
    words: dict[str, str] = {}
    for term in content_terms(a):
        for key in _keys_of(term):
            if key in other:
                words.setdefault(key, term)
    return tuple(words.values())


def cue_hits(cues: Iterable[str], text_keys: frozenset[str]) -> list[str]:
    """Cue phrases all of whose keys occur in `text_keys` (a cue with no content term never hits)."""
    return [cue for cue in cues if (keys := match_keys(cue)) and keys <= text_keys]


def key_terms(text: str, limit: int = 5, exclude: Sequence[str] = ()) -> list[str]:
    """The first `limit` distinct content terms of `text` whose keys are not excluded."""
    seen = set(match_keys(" ".join(exclude)))
    chosen: list[str] = []
    for term in content_terms(text):
        if match_key(term) not in seen and len(chosen) < limit:
            seen.add(match_key(term))
            chosen.append(term)
    return chosen


def synonym_table(spec: str) -> dict[str, str]:
    """ "a b = x y; c = z" -> {"a": "x y", "b": "x y", "c": "z"}: everyday words -> cue vocabulary."""
    return {word: cue.strip() for part in spec.split(";") for words, cue in [part.split("=")] for word in words.split()}


def expand(text: str, table: Mapping[str, str]) -> str:
    """The expansion words of `text`'s terms found in `table` (not `text` itself), first seen first."""
    return " ".join(dict.fromkeys(table[t] for t in content_terms(text) if t in table))

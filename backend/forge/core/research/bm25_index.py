"""Okapi BM25 ranking over an in-memory set of documents (pure: no IO, no async).

Invariants:
    - Terms come from `content_terms` (stopwords dropped, plurals folded), for documents and
      queries alike, so "queues" in a query matches "queue" in a document.
    - A document's indexed terms are its title terms counted twice, its topic terms once and its
      text terms once: a title match outweighs a passing mention in the body.
    - IDF is the non-negative BM25+ form `ln(1 + (N - df + 0.5) / (df + 0.5))`: a term found in
      every document still counts a little, a rare term counts a lot, and no score is negative.
    - Only documents with a positive score (sharing at least one query term) are returned.
    - Results are ordered by score descending, then source ascending, then insertion order: the
      same index and query always give the same list.
    - Sources are unique within an index; building or extending an index with a duplicate source
      raises ValueError.
    - A snippet is at most `SNIPPET_MAX_CHARS` characters of the document text with whitespace
      collapsed: the sentence holding the most (IDF-weighted) query terms, cut to a window around
      the first match when the sentence is too long; the opening of the text when no sentence matches
      (the match was in the title or topics).
    - An index is immutable once built; `with_documents` returns a new index.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from forge.core.research.text_terms import content_terms

K1 = 1.5
B = 0.75
TITLE_WEIGHT = 2
SNIPPET_MAX_CHARS = 300
_ELLIPSIS = "…"

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*(?:[#*\->]|\d+\.)\s)")
_WORD = re.compile(r"[a-z0-9][a-z0-9\-]*[a-z0-9]|[a-z0-9]")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class IndexedDocument:
    source: str
    title: str
    text: str
    topics: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoredDocument:
    source: str
    title: str
    score: float
    snippet: str


@dataclass(frozen=True, slots=True)
class _Entry:
    document: IndexedDocument
    term_counts: Mapping[str, int]
    length: int


def _tokenize(document: IndexedDocument) -> _Entry:
    terms = content_terms(document.title) * TITLE_WEIGHT
    for topic in document.topics:
        terms += content_terms(topic)
    terms += content_terms(document.text)
    return _Entry(document, Counter(terms), len(terms))


def _query_terms(query: str) -> list[str]:
    """Distinct content terms of the query, in order of first appearance."""
    return list(dict.fromkeys(content_terms(query)))


def collapse_whitespace(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def leading_excerpt(text: str, max_chars: int = SNIPPET_MAX_CHARS) -> str:
    """The opening of `text` (whitespace collapsed), cut at a word boundary to at most `max_chars`."""
    flat = collapse_whitespace(text)
    if len(flat) <= max_chars:
        return flat
    cut = flat[: max_chars - len(_ELLIPSIS)]
    space = cut.rfind(" ")
    if space > max_chars // 2:
        cut = cut[:space]
    return cut.rstrip() + _ELLIPSIS


def _window(sentence: str, anchor: int, max_chars: int) -> str:
    """At most `max_chars` of `sentence` around character offset `anchor`, cut at word boundaries."""
    if len(sentence) <= max_chars:
        return sentence
    budget = max_chars - 2 * len(_ELLIPSIS)
    start = max(0, min(anchor - budget // 4, len(sentence) - budget))
    if start > 0:
        space = sentence.find(" ", start, anchor)
        start = space + 1 if space != -1 else start
    end = min(len(sentence), start + budget)
    if end < len(sentence):
        space = sentence.rfind(" ", anchor, end)
        end = space if space != -1 else end
    piece = sentence[start:end].strip()
    prefix = _ELLIPSIS if start > 0 else ""
    suffix = _ELLIPSIS if end < len(sentence) else ""
    return prefix + piece + suffix


@lru_cache(maxsize=65_536)
def _term_of_word(word: str) -> str | None:
    """The content term of one word, if it has one (memoised: snippets scan the same corpus often)."""
    terms = content_terms(word)
    return terms[0] if terms else None


@lru_cache(maxsize=4096)
def _sentence_terms(text: str) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    """Each non-empty sentence of `text` (whitespace collapsed) with its content terms and their
    offsets, in order (memoised: the same corpus documents are snippeted for query after query)."""
    sentences = []
    for raw in _SENTENCE_END.split(text):
        sentence = collapse_whitespace(raw)
        if sentence:
            words = ((_term_of_word(m.group()), m.start()) for m in _WORD.finditer(sentence.lower()))
            sentences.append((sentence, tuple((t, at) for t, at in words if t is not None)))
    return tuple(sentences)


def _first_match(terms_at: Sequence[tuple[str, int]], wanted: Iterable[str]) -> tuple[frozenset[str], int]:
    """The query terms among a sentence's terms, and the offset of the first one (-1 if none)."""
    wanted_set = set(wanted)
    found = [(term, at) for term, at in terms_at if term in wanted_set]
    return frozenset(term for term, _ in found), (found[0][1] if found else -1)


def best_snippet(text: str, terms: Sequence[str], idf: Mapping[str, float], max_chars: int = SNIPPET_MAX_CHARS) -> str:
    """The sentence of `text` that best covers `terms` (by summed IDF), at most `max_chars` long."""
    best_score = 0.0
    best: tuple[str, int] | None = None
    for sentence, terms_at in _sentence_terms(text):
        found, anchor = _first_match(terms_at, terms)
        score = sum(idf.get(term, 0.0) for term in found)
        if found and score > best_score:
            best_score, best = score, (sentence, anchor)
    if best is None:
        return leading_excerpt(text, max_chars)
    return _window(best[0], best[1], max_chars)


class Bm25Index:
    """An immutable BM25 index; build it with `build_bm25_index`."""

    __slots__ = ("_avg_length", "_df", "_entries", "_postings")

    def __init__(self, entries: tuple[_Entry, ...]) -> None:
        seen: set[str] = set()
        for entry in entries:
            if entry.document.source in seen:
                raise ValueError(f"duplicate document source in index: {entry.document.source!r}")
            seen.add(entry.document.source)
        df: Counter[str] = Counter()
        postings: dict[str, list[int]] = {}
        for position, entry in enumerate(entries):
            df.update(entry.term_counts.keys())
            for term in entry.term_counts:
                postings.setdefault(term, []).append(position)
        self._entries = entries
        self._postings: Mapping[str, list[int]] = postings
        self._df: Mapping[str, int] = df
        total = sum(entry.length for entry in entries)
        self._avg_length = total / len(entries) if entries else 0.0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def documents(self) -> tuple[IndexedDocument, ...]:
        return tuple(entry.document for entry in self._entries)

    def with_documents(self, docs: Iterable[IndexedDocument]) -> Bm25Index:
        """A new index holding this index's documents followed by `docs` (statistics recomputed)."""
        return Bm25Index(self._entries + tuple(_tokenize(doc) for doc in docs))

    def idf(self, term: str) -> float:
        n = len(self._entries)
        df = self._df.get(term, 0)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def _score(self, entry_terms: Mapping[str, int], length: int, idf: Mapping[str, float]) -> float:
        """BM25 of one document for the query terms `idf` holds (their IDFs, computed once per query)."""
        if self._avg_length <= 0:
            return 0.0
        norm = K1 * (1.0 - B + B * length / self._avg_length)
        total = 0.0
        for term, weight in idf.items():
            tf = entry_terms.get(term, 0)
            if tf:
                total += weight * tf * (K1 + 1.0) / (tf + norm)
        return total

    def _scored(self, terms: Sequence[str], limit: int | None = None) -> list[tuple[float, str, int, _Entry]]:
        idf = {term: self.idf(term) for term in terms}
        entries = self._entries
        # Only documents holding a query term can score above 0 (the postings say which). Scores stay
        # plain floats until the best are chosen: a tuple per document of a common word (tens of
        # thousands in a large hypergraph) fed the cyclic collector full scans of the whole index.
        positions = sorted({p for term in terms for p in self._postings.get(term, ())})
        values = [self._score(entries[p].term_counts, entries[p].length, idf) for p in positions]

        def order(i: int) -> tuple[float, str, int]:
            return (-values[i], entries[positions[i]].document.source, positions[i])

        scoring = (i for i in range(len(positions)) if values[i] > 0.0)
        # the best few of many (a common word) need no full sort
        chosen = heapq.nsmallest(limit, scoring, key=order) if limit is not None else sorted(scoring, key=order)
        return [(values[i], entries[positions[i]].document.source, positions[i], entries[positions[i]]) for i in chosen]

    def scores(self, query: str, limit: int | None = None) -> dict[str, float]:
        """The BM25 score of every document sharing a query term (the best `limit` of them when given),
        by source, best first (no snippets)."""
        return {source: value for value, source, _, _ in self._scored(_query_terms(query), limit)}

    def snippet(self, source: str, query: str) -> str:
        """The snippet `search` would show for this document (its opening when no term matches)."""
        entry = next(e for e in self._entries if e.document.source == source)
        terms = _query_terms(query)
        return best_snippet(entry.document.text, terms, {term: self.idf(term) for term in terms})

    def search(self, query: str, limit: int = 5) -> list[ScoredDocument]:
        terms = _query_terms(query)
        if limit <= 0 or not terms or not self._entries:
            return []
        scored = self._scored(terms)
        idf = {term: self.idf(term) for term in terms}
        return [
            ScoredDocument(
                source=entry.document.source,
                title=entry.document.title,
                score=value,
                snippet=best_snippet(entry.document.text, terms, idf),
            )
            for value, _, _, entry in scored[:limit]
        ]


def build_bm25_index(docs: Iterable[IndexedDocument]) -> Bm25Index:
    """Index `docs` in the order given. Raises ValueError on a duplicate source."""
    return Bm25Index(tuple(_tokenize(doc) for doc in docs))

"""Content-term extraction used to decide whether a research query is *about* something.

Invariants:
    - Deterministic: the same text always yields the same ordered terms.
    - Terms are lowercase alphanumeric words of >= 3 characters that are not stopwords, with a
      light plural fold ("queues" -> "queue") so "queue" research covers "queues" claims.
"""

from __future__ import annotations

import re
from collections import Counter

_WORD = re.compile(r"[a-z0-9][a-z0-9\-]*[a-z0-9]|[a-z0-9]")

STOPWORDS = frozenset(
    [
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "am",
        "an",
        "and",
        "any",
        "are",
        "aren",
        "as",
        "at",
        "be",
        "because",
        "been",
        "before",
        "being",
        "below",
        "between",
        "both",
        "but",
        "by",
        "can",
        "cannot",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "down",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "he",
        "her",
        "here",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "let",
        "me",
        "more",
        "most",
        "my",
        "myself",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "ought",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "same",
        "she",
        "should",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "theirs",
        "them",
        "themselves",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "under",
        "until",
        "up",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "without",
        "within",
        "via",
        "per",
        "get",
        "gets",
        "got",
        "make",
        "makes",
        "made",
        "much",
        "many",
        "way",
        "ways",
        "one",
        "two",
        "new",
        "use",
        "used",
        "using",
        "need",
        "needs",
        "want",
        "wants",
        "like",
        "well",
        "even",
        "still",
        "yet",
        "thing",
        "things",
        "lot",
        "lots",
        "more",
        "less",
        "most",
        "least",
        "whether",
        "across",
        "among",
        "upon",
        "onto",
        "toward",
        "towards",
        "into",
        "every",
        "either",
        "neither",
        "rather",
        "quite",
        "really",
        "something",
        "anything",
        "it's",
        "we're",
        "they're",
        "don't",
        "can't",
        "won't",
        "isn't",
    ]
)


def fold(word: str) -> str:
    """Fold simple English plurals so that singular and plural forms compare equal (mostly)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _match_key(term: str) -> str:
    # "caches" folds to "cach" but "cache" stays: ignore a final 'e' when comparing (not when showing).
    return term[:-1] if len(term) > 4 and term.endswith("e") else term


def content_terms(text: str) -> list[str]:
    """All content terms of `text`, in order of appearance, duplicates kept."""
    words = _WORD.findall(text.lower())
    return [fold(w) for w in words if len(w) >= 3 and w not in STOPWORDS and not w.isdigit()]


def term_set(text: str) -> frozenset[str]:
    return frozenset(content_terms(text))


def shares_terms(a: str, b: str, minimum: int = 1) -> bool:
    """True when the two texts share at least `minimum` content terms."""
    keys_a = {_match_key(t) for t in term_set(a)}
    keys_b = {_match_key(t) for t in term_set(b)}
    return len(keys_a & keys_b) >= minimum


def salient_terms(text: str, limit: int = 8) -> list[str]:
    """Most frequent content terms, ties broken by first appearance (stable, deterministic)."""
    terms = content_terms(text)
    first_seen = {t: i for i, t in reversed(list(enumerate(terms)))}
    counts = Counter(terms)
    ranked = sorted(counts, key=lambda t: (-counts[t], first_seen[t]))
    return ranked[:limit]

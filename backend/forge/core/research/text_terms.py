"""Content-term extraction used to decide whether a research query is *about* something.

Invariants:
    - Deterministic: the same text always yields the same ordered terms.
    - Text is NFKC-normalised and lowercased first (full-width "ＡＩ" is "ai").
    - Words of alphabetic scripts (Latin, Greek, Cyrillic, Arabic, Hebrew, Indic, ...) are terms of
      >= 3 characters that are not stopwords, with a light English plural fold ("queues" -> "queue");
      a hyphenated word stays whole ("ant-colony").
    - Scripts written without spaces give character bigrams per run of one script: Han
      ("急诊等待" -> 急诊, 诊等, 等待), Katakana and Hangul; a run of one character is itself a term.
      Hiragana runs are dropped: in Japanese they are mostly particles and inflections.
    - `shares_terms` compares *match keys*: a hyphenated term also matches by its parts
      ("ant-colony" ~ "ant colony"), British and American spellings fold ("optimisation" ~
      "optimization"), and common suffixes are stripped ("optimizing" ~ "optimization").
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3007\U00020000-\U0002ffff"
_KATAKANA = "\u30a0-\u30ff\u31f0-\u31ff"
_HANGUL = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
_HIRAGANA = "\u3040-\u309f"
_SPACELESS = _HAN + _KATAKANA + _HANGUL + _HIRAGANA
# Character-class ranges other modules reuse (inside [...]): Han ideographs, and Japanese kana.
HAN_RANGES = _HAN
KANA_RANGES = _KATAKANA + _HIRAGANA
# Combining marks Python's \w leaves out (Indic vowel signs, Hebrew and Arabic points): without them
# "हिन्दी" would split into single letters. Danda (U+0964/5) is punctuation and stays out.
_MARKS = "\u0300-\u036f\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u0900-\u0963\u0966-\u0dff\u0e00-\u0eff"
_LETTER = f"(?:(?![{_SPACELESS}])[^\\W_]|[{_MARKS}])"
_TOKEN = re.compile(
    f"(?P<han>[{_HAN}]+)|(?P<katakana>[{_KATAKANA}]+)|(?P<hangul>[{_HANGUL}]+)|[{_HIRAGANA}]+"
    f"|(?P<word>{_LETTER}+(?:-{_LETTER}+)*)"
)
_ASCII_WORD = re.compile(r"[a-z0-9\-]+")

# Bigrams that say how or who, not what (Chinese question words, pronouns, connectives).
SPACELESS_STOP_BIGRAMS = frozenset(
    "如何 怎么 怎样 什么 为什 为何 可以 我们 他们 你们 一个 没有 不是 这个 那个 这些 以及 或者 因为 所以 如果 需要 "
    "是否 能否 进行 通过 情况 况下".split()
)
# Chinese particles: a bigram holding one straddles a word boundary ("手的", "何在").
SPACELESS_STOP_CHARACTERS = frozenset("的了在是和与及吗呢把被也都就而之")

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


def _bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    pairs = (run[i : i + 2] for i in range(len(run) - 1))
    return [p for p in pairs if p not in SPACELESS_STOP_BIGRAMS and not SPACELESS_STOP_CHARACTERS & set(p)]


@functools.lru_cache(maxsize=32768)  # pure: words recur across texts far more than texts do
def _word_term(word: str) -> str | None:
    if len(word) < 3 or word in STOPWORDS or word.isdigit():
        return None
    return fold(word) if _ASCII_WORD.fullmatch(word) else word


def content_terms(text: str) -> list[str]:
    """All content terms of `text`, in order of appearance, duplicates kept."""
    return list(_content_terms(text))


@functools.lru_cache(maxsize=8192)  # pure: the same texts (library, problem, claims) are read again and again
def _content_terms(text: str) -> tuple[str, ...]:
    if text.isascii():
        return _ascii_content_terms(text)
    # Typographic punctuation (dashes, quotes, arrows) separates words like any non-letter: with it
    # blanked, text that is ASCII otherwise takes the fast path too.
    plain = _NON_ASCII_SEPARATORS.sub(" ", unicodedata.normalize("NFKC", text))
    return _ascii_content_terms(plain) if plain.isascii() else _any_content_terms(text)


def _any_content_terms(text: str) -> tuple[str, ...]:
    terms: list[str] = []
    for match in _TOKEN.finditer(unicodedata.normalize("NFKC", text).lower()):
        if match["word"]:
            term = _word_term(match["word"])
            terms.extend([term] if term else [])
        else:
            run = match["han"] or match["katakana"] or match["hangul"]
            terms.extend(_bigrams(run) if run else [])
    return tuple(terms)


# ASCII text is most text, and most texts are met once (the cache above misses about half the time
# with twenty sessions running): for it NFKC is the identity and a letter is [a-z0-9] once
# lowercased, so a plain pattern finds the same words as _TOKEN without its per-character
# lookahead (~3x faster; tested equal on random text).
_ASCII_TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Characters outside ASCII that no pattern reads as part of a word: not \w, not a combining mark.
_NON_ASCII_SEPARATORS = re.compile(f"[^\\x00-\\x7f\\w{_MARKS}]")


def _ascii_content_terms(text: str) -> tuple[str, ...]:
    return tuple(term for word in _ASCII_TOKEN.findall(text.lower()) if (term := _word_term(word)))


@functools.lru_cache(maxsize=8192)  # pure and immutable: library texts are matched again and again
def term_set(text: str) -> frozenset[str]:
    return frozenset(_content_terms(text))


_BRITISH = re.compile(r"(?<=[a-z]{3})([iy])s(e|es|ed|ing|ation|ations|er|ers)$")
_SUFFIXES = ("ations", "ation", "ings", "ing", "ers", "er", "ed", "ly")


@functools.lru_cache(maxsize=16384)  # pure: a pool's terms recur in every comparison
def match_key(term: str) -> str:
    """The form two terms are compared in: American spelling, common suffixes off, no final 'e'."""
    key = _BRITISH.sub(r"\1z\2", term)
    for suffix in _SUFFIXES:
        if key.endswith(suffix) and len(key) - len(suffix) >= 4:
            return key[: -len(suffix)]
    # "caches" folds to "cach" but "cache" stays: ignore a final 'e' when comparing (not when showing).
    return key[:-1] if len(key) > 4 and key.endswith("e") else key


@functools.lru_cache(maxsize=8192)  # pure, immutable result: the curator and SAGA compare the same texts per step
def match_keys(text: str) -> frozenset[str]:
    """The match keys of every content term of `text`, a hyphenated term also by its parts."""
    keys: set[str] = set()
    for term in term_set(text):
        parts = [p for p in term.split("-") if len(p) >= 3] if "-" in term else []
        keys.update(match_key(t) for t in (term, *parts))
    return frozenset(keys)


def shares_terms(a: str, b: str, minimum: int = 1) -> bool:
    """True when the two texts share at least `minimum` content terms (compared by match key)."""
    return len(match_keys(a) & match_keys(b)) >= minimum


def salient_terms(text: str, limit: int = 8) -> list[str]:
    """Most frequent content terms, ties broken by first appearance (stable, deterministic)."""
    terms = content_terms(text)
    first_seen = {t: i for i, t in reversed(list(enumerate(terms)))}
    counts = Counter(terms)
    ranked = sorted(counts, key=lambda t: (-counts[t], first_seen[t]))
    return ranked[:limit]

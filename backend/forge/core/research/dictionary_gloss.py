"""English glosses of Chinese or Japanese text, word by word, from a bilingual dictionary: what
research searches the English corpus with when no model can render a query (issue #38).

Invariants:
    - Pure: the lexicon (headword -> its English gloss) is given; reading a dictionary is IO
      (`research.bilingual_dictionary`).
    - A segmenter's words (Chinese: jieba, its function words left out by the caller) are glossed
      whole where the dictionary knows them. Without a segmenter, and inside a word the dictionary
      does not know, the dictionary segments: a run of Han/kana characters is cut into the fewest
      pieces, a headword costing 1 (RARE_COST when the dictionary does not mark it common) and a
      character no headword covers costing UNKNOWN_COST (dynamic programming, ties to the longer
      last piece). A character no headword covers is dropped, never
      guessed; inside a segmenter's word the dictionary lacks (often a transliterated name, 香农),
      one-character pieces are dropped too: a lone character's gloss is out of context.
    - Latin words and numbers in the text are kept as written ("TRIZ", "PID").
    - Hiragana pieces of at most two characters (particles and okurigana: の, と, は, する) are
      not glossed: their glosses describe grammar, not the subject.
    - The gloss is the pieces' glosses in text order, each distinct gloss once, space-separated;
      "" when nothing was glossed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

UNKNOWN_COST = 3
RARE_COST = 1.25
MAX_HEADWORD_CHARS = 12

_RUN = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3007\u30fc\U00020000-\U0002ffff]+"
    r"|[A-Za-z0-9][A-Za-z0-9\-]*"
)
_HIRAGANA = re.compile(r"^[\u3040-\u309f]+$")


@dataclass(frozen=True, slots=True)
class Lexicon:
    """Headwords and their English glosses (a few plain words each; "" for a grammar word, which
    segments but is not glossed)."""

    glosses: Mapping[str, str]
    rare: frozenset[str] = frozenset()  # headwords the dictionary does not mark common: cost RARE_COST
    longest: int = MAX_HEADWORD_CHARS


def segmented(run: str, lexicon: Lexicon) -> list[str]:
    """`run` cut into the fewest dictionary headwords (unknown characters are one-character pieces)."""
    n = len(run)
    cost: list[float] = [0.0] + [float(n * UNKNOWN_COST + 1)] * n
    start = [0] * (n + 1)
    for end in range(1, n + 1):
        for size in range(min(end, lexicon.longest), 0, -1):
            piece = run[end - size : end]
            step = _cost(piece, lexicon) if piece in lexicon.glosses else UNKNOWN_COST if size == 1 else None
            if step is not None and cost[end - size] + step < cost[end]:
                cost[end], start[end] = cost[end - size] + step, end - size
    pieces: list[str] = []
    end = n
    while end > 0:
        pieces.append(run[start[end] : end])
        end = start[end]
    return pieces[::-1]


def _cost(piece: str, lexicon: Lexicon) -> float:
    return RARE_COST if piece in lexicon.rare else 1.0


def _glossable(piece: str) -> bool:
    return not (len(piece) <= 2 and _HIRAGANA.match(piece))


def _word_glosses(word: str, lexicon: Lexicon, *, a_word: bool) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for match in _RUN.finditer(word):
        run = match.group()
        if run.isascii():
            found.append((run, run))
            continue
        if run in lexicon.glosses:
            pieces = [run]
        else:  # inside a segmenter's word the dictionary lacks, one character alone is out of context
            pieces = [p for p in segmented(run, lexicon) if not (a_word and len(p) == 1)]
        found.extend((p, lexicon.glosses[p]) for p in pieces if lexicon.glosses.get(p) and _glossable(p))
    return found


def gloss_pieces(text: str, lexicon: Lexicon, words: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """Each piece of `text` (or of a segmenter's `words` of it) and its English gloss (a Latin word
    glosses as itself), in text order."""
    if words is None:
        return _word_glosses(text, lexicon, a_word=False)
    return [found for word in words for found in _word_glosses(word, lexicon, a_word=True)]


def english_gloss(text: str, lexicon: Lexicon, words: Sequence[str] | None = None) -> str:
    """The English glosses of `text`'s words, in order, each once ("" when none is known)."""
    return " ".join(dict.fromkeys(gloss for _, gloss in gloss_pieces(text, lexicon, words)))

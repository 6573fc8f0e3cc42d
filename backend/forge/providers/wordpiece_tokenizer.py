"""BERT's uncased WordPiece tokenizer in plain Python (no `tokenizers` wheel): lower-case, strip
accents, split on whitespace, punctuation and CJK characters, then greedy longest-match sub-words.

Invariants:
    - Same ids as BERT's `BertTokenizer(do_lower_case=True)` for ordinary text; control characters
      are dropped; a word longer than 100 characters or with no vocabulary cover is `[UNK]`.
    - No IO: the vocabulary is passed in (one token per line, the line number is the id).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

MAX_WORD_CHARS = 100
UNKNOWN = "[UNK]"


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0x20000 <= code <= 0x2A6DF
        or 0xF900 <= code <= 0xFAFF
        or 0x2F800 <= code <= 0x2FA1F
    )


def basic_words(text: str) -> list[str]:
    """Lower-cased, accent-free words and single punctuation / CJK characters."""
    normalized = unicodedata.normalize("NFD", text.lower())
    words: list[str] = []
    current: list[str] = []
    for char in normalized:
        category = unicodedata.category(char)
        if category == "Mn" or (category.startswith("C") and char not in "\t\n\r"):
            continue
        if char.isspace() or _is_punctuation(char) or _is_cjk(char):
            if current:
                words.append("".join(current))
                current = []
            if not char.isspace():
                words.append(char)
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words


def wordpiece_ids(word: str, vocab: Mapping[str, int]) -> list[int]:
    """Greedy longest-match-first sub-word ids of one word (continuations prefixed `##`)."""
    if len(word) > MAX_WORD_CHARS:
        return [vocab[UNKNOWN]]
    ids: list[int] = []
    start = 0
    while start < len(word):
        end = len(word)
        found: int | None = None
        while start < end:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                found = vocab[piece]
                break
            end -= 1
        if found is None:
            return [vocab[UNKNOWN]]
        ids.append(found)
        start = end
    return ids


def token_ids(text: str, vocab: Mapping[str, int]) -> list[int]:
    return [i for word in basic_words(text) for i in wordpiece_ids(word, vocab)]


def vocab_from_lines(lines: Sequence[str]) -> dict[str, int]:
    return {token: i for i, token in enumerate(lines)}

"""English word forms for the offline model's texts, from the lemminflect lexicon, and plain shaping.

Invariants: pure and deterministic; lemminflect reads the tables inside its own wheel on first use (no
download). No hand-written grammar: a form the lexicon does not know is left as written. The texts must
be valid and readable, not fluent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lemminflect import getAllLemmas, getInflection, getLemma  # type: ignore[import-untyped]  # ships no types

_ELLIPSIS = "…"
DETERMINERS = frozenset(
    "the a an our its their my your his her this that these those all some each every any no".split()
)


def is_plural(noun_phrase: str) -> bool:
    """Whether the phrase's head noun (the last word before " of " / " who ") is a plural form."""
    head = noun_phrase.split(" of ")[0].split(" who ")[0].split()
    word = head[-1].lower() if head else ""
    if not word.isascii() or not word.isalpha():
        return False
    lemma: str = getLemma(word, upos="NOUN")[0]
    return lemma != word


def verb_lemma(word: str) -> str | None:
    """The verb `word` is a form of ("cuts", "cutting" -> "cut"); None when it is no verb form."""
    lemmas = getAllLemmas(word.lower()).get("VERB")
    return lemmas[0] if lemmas else None


def is_noun_like(word: str) -> bool:
    """A word the lexicon knows as a noun and not only as an adjective, or a word it does not know at all
    ("p99", "heat-wave"): a verb form or an adjective ("losing", "small") is no lever."""
    lemmas = getAllLemmas(word.lower())
    if not lemmas:
        return True
    return "NOUN" in lemmas and ("VERB" in lemmas or "ADJ" not in lemmas)


_OPENER = r"(^|\b(?:[Ii]f|[Ww]hen|[Ww]here|[Uu]nless|that|while|as) )"


def agree(text: str, subject: str) -> str:
    """A plural `subject` opening a clause takes the plural verb form ("if times is" -> "if times are")."""
    if not is_plural(subject):
        return text

    def plural_verb(match: re.Match[str]) -> str:
        word = match.group(2)
        lemma = verb_lemma(word)
        plural = getInflection(lemma, tag="VBP") if lemma and word in getInflection(lemma, tag="VBZ") else ()
        return f"{match.group(1)}{subject} {plural[-1] if plural else word}"

    return re.sub(_OPENER + re.escape(subject) + r" ([a-z]+)\b", plural_verb, text)


def the_phrase(noun_phrase: str) -> str:
    """A bare English noun phrase with "the" ("database" -> "the database"); any other phrase as written."""
    words = noun_phrase.split()
    if not words or not words[0].isascii() or not words[0][0].isalpha() or words[0].lower() in DETERMINERS:
        return noun_phrase
    return noun_phrase if words[0].endswith("'s") or noun_phrase.startswith("«") else f"the {noun_phrase}"


def join_words(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def lower_first(text: str) -> str:
    return text[0].lower() + text[1:] if text and not text[:2].isupper() else text


def sentence(text: str) -> str:
    """Capitalised, with a closing stop."""
    text = " ".join(text.split())
    text = text[:1].upper() + text[1:]
    return text if not text or text.endswith((".", "!", "?", _ELLIPSIS)) else text + "."


def first_sentence(text: str, limit: int = 200) -> str:
    """The first sentence of `text`, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    for end in (". ", "! ", "? "):
        cut = flat.find(end)
        if 0 < cut < limit:
            return flat[: cut + 1]
    return shorten(flat, limit)


def shorten(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip(" ,;:") + _ELLIPSIS

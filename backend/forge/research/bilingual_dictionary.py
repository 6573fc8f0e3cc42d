"""English glosses of Chinese and Japanese text from open bilingual dictionaries shipped in a PyPI
package (`edictreader`'s data files, read as data — none of its code runs): CC-CEDICT for Chinese,
EDICT2 (JMdict's EDICT-format edition, EDRDG) for Japanese. Both are CC BY-SA (NOTICE).

Invariants:
    - Nothing is read at import time; each dictionary is read and parsed once per process, on the
      first gloss asked in its language (`functools.cache`), and never downloaded.
    - A headword keeps at most GLOSS_ITEMS of its first sense's English glosses, cleaned of
      parentheticals, grammar labels and non-English text. CC-CEDICT: an entry of a common word
      (lowercase pinyin) goes before a proper name's, cross-references ("variant of", "see ...",
      classifiers, surnames) are dropped. EDICT2: an entry marked common ("(P)") wins a shared
      headword or reading.
    - EDICT2 entries whose first part of speech is grammar (particles, conjunctions, auxiliaries,
      copulas; expressions such as における) gloss as "": they still cut a run into words, but
      gloss no subject.
    - `DictionaryGlossary.english_gloss` glosses text in its own language (`problem_language`):
      English text glosses as "" (it needs no rendering); Chinese is cut into words by jieba (MIT,
      its dictionary in its package; loaded on first use) and its function words (jieba's tags for
      particles, prepositions, conjunctions, pronouns, locality words, punctuation) are not
      glossed, then CC-CEDICT glosses the rest; Japanese is segmented and glossed by EDICT2.
    - When the dictionary package is missing the glossary glosses nothing ("") and logs why once
      (kept in `unavailable`), so research degrades to searching as written, with its warning.
"""

from __future__ import annotations

import functools
import logging
import re
import warnings
from collections.abc import Callable
from importlib import resources
from typing import Final

from forge.core.document.problem_language import DocumentLanguage, problem_language
from forge.core.research.dictionary_gloss import Lexicon, english_gloss

_LOG = logging.getLogger(__name__)

GLOSS_ITEMS = 2
DICTIONARY_LABEL: Final = "dictionary"
"""How a rendering made here is labelled (`rendered_by`): a word-by-word gloss, not a translation."""

_PACKAGE = "edictreader"
_CEDICT_FILE = "cedict_ts.u8"
_EDICT_FILE = "edict2"
_PARENTHETICAL = re.compile(r"\([^()]*\)|\{[^{}]*\}|\[[^\[\]]*\]")
_NOT_ENGLISH = re.compile(r"[^A-Za-z0-9' \-]+")
_CEDICT_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_SENSE_MARK = re.compile(r"^\((\d+)\)\s*")
_GRAMMAR_LABELS = frozenset({"prt", "conj", "aux", "aux-v", "aux-adj", "cop", "cop-da"})
_KANA_EXPRESSION = re.compile(r"(?:^|\[)[\u3040-\u309f]+(?:\]|$)")
_FUNCTION_WORD_TAGS = ("u", "p", "c", "r", "f", "y", "e", "o", "x", "w")
_CEDICT_SKIPPED = ("surname ", "variant of ", "old variant of ", "see ", "cl:", "also written", "used in ", "abbr. ")


def _clean(gloss: str) -> str:
    text = _PARENTHETICAL.sub(" ", _PARENTHETICAL.sub(" ", gloss))
    text = _NOT_ENGLISH.sub(" ", text)
    return " ".join(text.split()).removeprefix("to ").strip()


def _kept(glosses: list[str]) -> str:
    cleaned = [c for c in (_clean(g) for g in glosses) if len(c) > 1]
    return " ".join(dict.fromkeys(cleaned[:GLOSS_ITEMS]))


def parse_cedict(lines: list[str]) -> dict[str, str]:
    """Simplified and traditional headwords -> gloss (common words' entries first)."""
    entries: dict[str, list[tuple[bool, list[str]]]] = {}
    for line in lines:
        match = _CEDICT_LINE.match(line)
        if line.startswith("#") or match is None:
            continue
        traditional, simplified, pinyin, body = match.groups()
        items = [g for g in body.split("/") if g and not g.casefold().startswith(_CEDICT_SKIPPED)]
        if items:
            proper = pinyin[:1].isupper()
            for word in dict.fromkeys((simplified, traditional)):
                entries.setdefault(word, []).append((proper, items))
    glosses: dict[str, str] = {}
    for word, found in entries.items():
        items = [g for _, group in sorted(found, key=lambda e: e[0]) for g in group]
        kept = _kept(items)
        if kept:
            glosses[word] = kept
    return glosses


def _first_sense(parts: list[str]) -> list[str]:
    sense: list[str] = []
    for part in parts:
        text = part.strip()
        while text.startswith("(") and not _SENSE_MARK.match(text) and ")" in text:
            text = text[text.index(")") + 1 :].strip()  # grammar labels: (n,vs) (uk) (P)
        mark = _SENSE_MARK.match(text)
        if mark and mark.group(1) != "1":
            break
        sense.append(_SENSE_MARK.sub("", text))
    return [s for s in sense if s and not s.startswith("EntL")]


def _forms(field: str) -> list[str]:
    return [_PARENTHETICAL.sub("", f).strip() for f in field.split(";") if f.strip()]


def _grammar(head: str, body: str) -> bool:
    labels = set(body[1 : body.index(")")].split(",")) if body.startswith("(") and ")" in body else set()
    return bool(labels & _GRAMMAR_LABELS) or ("exp" in labels and _KANA_EXPRESSION.search(head) is not None)


def parse_edict(lines: list[str]) -> tuple[dict[str, str], frozenset[str]]:
    """Written forms and readings -> gloss (an entry marked common first; grammar: "", a headword
    that segments but glosses nothing), and the headwords no entry marks common."""
    glosses: dict[str, str] = {}
    common: set[str] = set()
    for line in lines:
        head, _, body = line.partition(" /")
        if not body or line.startswith("\u3000"):
            continue
        written, _, reading = head.partition(" [")
        kept = "" if _grammar(head, body) else _kept(_first_sense(body.rstrip("/\n").split("/")))
        is_common = "(P)" in line
        for form in _forms(written) + _forms(reading.rstrip("]")):
            if form and (form not in glosses or (is_common and form not in common)):
                glosses[form] = kept
                if is_common:
                    common.add(form)
    return glosses, frozenset(glosses.keys() - common)


def _lines(name: str, encoding: str) -> list[str]:
    path = resources.files(_PACKAGE).joinpath("database", name)
    return path.read_bytes().decode(encoding, errors="replace").splitlines()


@functools.cache
def lexicon_for(language: DocumentLanguage) -> Lexicon:
    """The language's dictionary, read and parsed on first use (raises ModuleNotFoundError/OSError
    when the package or its file is missing)."""
    if language is DocumentLanguage.JA:
        glosses, rare = parse_edict(_lines(_EDICT_FILE, "euc_jp"))
        return Lexicon(glosses, rare)
    return Lexicon(parse_cedict(_lines(_CEDICT_FILE, "utf-8")))


@functools.cache
def _chinese_segmenter() -> Callable[[str], list[tuple[str, str]]]:
    with warnings.catch_warnings():  # its regexes use escapes Python warns about when compiling its source
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", SyntaxWarning)
        import jieba
        import jieba.posseg

    jieba.setLogLevel(logging.WARNING)  # its dictionary-loading notes are debug chatter
    return lambda text: [(pair.word, pair.flag) for pair in jieba.posseg.lcut(text)]


def chinese_content_words(text: str) -> list[str]:
    """`text` cut into words by jieba, without its function words and punctuation."""
    return [
        word for word, tag in _chinese_segmenter()(text) if word.strip() and not tag.startswith(_FUNCTION_WORD_TAGS)
    ]


class DictionaryGlossary:
    """English word-by-word glosses of Chinese and Japanese text (a dictionary, not a model)."""

    label = DICTIONARY_LABEL

    def __init__(self) -> None:
        self.unavailable = ""

    def english_gloss(self, text: str) -> str:
        language = problem_language(text)
        if language not in (DocumentLanguage.ZH, DocumentLanguage.JA) or self.unavailable:
            return ""
        try:
            lexicon = lexicon_for(language)
        except (ModuleNotFoundError, OSError) as error:
            self.unavailable = f"the bilingual dictionary could not be read ({type(error).__name__}: {error})"
            _LOG.warning("Research glosses nothing: %s", self.unavailable)
            return ""
        if language is DocumentLanguage.ZH:
            return english_gloss(text, lexicon, chinese_content_words(text))
        return english_gloss(text, lexicon)

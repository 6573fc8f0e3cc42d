"""The language a problem is written in, for the fixed words of the documents rendered for it.

Invariants:
    - Pure: the same text always gives the same language; only en, zh and ja are told apart.
    - Decided by the majority of the text's letters by script: each Han or kana character counts
      as one (about a syllable), each run of Latin letters as one (a word). English with a Chinese
      term stays English; Chinese with an English name stays Chinese; a tie stays English.
    - Among CJK texts, any kana means Japanese (Chinese never writes kana); Han alone is Chinese.
"""

from __future__ import annotations

import re
from enum import StrEnum

from forge.core.research.text_terms import HAN_RANGES, KANA_RANGES

_HAN = re.compile(f"[{HAN_RANGES}]")
_KANA = re.compile(f"[{KANA_RANGES}]")
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+")


class DocumentLanguage(StrEnum):
    EN = "en"
    ZH = "zh"
    JA = "ja"


def problem_language(text: str) -> DocumentLanguage:
    """en, zh or ja by the majority script of `text` (see the module invariants)."""
    han, kana = len(_HAN.findall(text)), len(_KANA.findall(text))
    words = len(_LATIN_WORD.findall(text))
    if han + kana <= words:
        return DocumentLanguage.EN
    return DocumentLanguage.JA if kana else DocumentLanguage.ZH

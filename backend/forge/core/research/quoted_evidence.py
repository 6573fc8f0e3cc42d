"""What a recording tool's text quotes from the research hits it cites: the evidence's own words.

Invariants:
    - A quote is a span inside quotation marks (“…”, "…", «…», „…“, 「…」, 『…』) of at least
      MIN_QUOTE_CHARS characters in the text the model recorded.
    - A quote goes to every cited hit whose visible text (its snippet: a corpus excerpt, a fetched
      page, or what the model cited from a web search result) contains it, compared without case,
      spacing or edge punctuation: that quote is checked.
    - A quote found in no hit's visible text goes to the one cited hit whose page text the provider
      returned only encrypted (a web search result the model read but we cannot) and that no other
      quote was checked against; it is marked as not checked. With several such hits it goes to
      none: it cannot be told which page it came from. Nothing is attached to a corpus hit it is not in.
    - A hit with no quote keeps its snippet as the evidence text (`evidence_text` returns None).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from forge.core.session.records import ResearchHit

MIN_QUOTE_CHARS = 12
_QUOTED = re.compile(r"“([^”]+)”|\"([^\"]+)\"|«([^»]+)»|„([^“”]+)[“”]|「([^」]+)」|『([^』]+)』")
_EDGES = " \t\n.,;:!?…'\"“”‘’«»„「」『』()[]"
UNCHECKED_NOTE = "not checked: the search returned the page text encrypted"


def quotes_in(text: str) -> tuple[str, ...]:
    """The quoted spans of `text` long enough to be a sentence of evidence, without repeats, in order."""
    found = (next(g for g in m.groups() if g is not None).strip() for m in _QUOTED.finditer(text))
    return tuple(dict.fromkeys(q for q in found if len(q) >= MIN_QUOTE_CHARS))


def _normal(text: str) -> str:
    return " ".join(text.casefold().split()).strip(_EDGES)


@dataclass(frozen=True, slots=True)
class HitQuotes:
    checked: tuple[str, ...] = ()
    unchecked: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        shown = [f"“{q}”" for q in self.checked] + [f"“{q}” ({UNCHECKED_NOTE})" for q in self.unchecked]
        return " … ".join(shown)


def quotes_by_source(text: str, hits: Sequence[ResearchHit]) -> dict[str, HitQuotes]:
    """For each cited hit (by source) the quotes of `text` that came from it, checked or not."""
    checked: dict[str, list[str]] = {}
    unchecked: dict[str, list[str]] = {}
    loose: list[str] = []
    for quote in quotes_in(text):
        wanted = _normal(quote)
        holders = [h.source for h in hits if wanted and wanted in _normal(h.snippet)]
        for source in holders:
            checked.setdefault(source, []).append(quote)
        if not holders:
            loose.append(quote)
    hidden = list(dict.fromkeys(h.source for h in hits if h.page_text_hidden and h.source not in checked))
    if loose and len(hidden) == 1:
        unchecked[hidden[0]] = loose
    sources = dict.fromkeys([*checked, *unchecked])
    return {s: HitQuotes(tuple(checked.get(s, ())), tuple(unchecked.get(s, ()))) for s in sources}

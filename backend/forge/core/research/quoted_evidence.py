"""What a recording tool's text quotes from the research hits it cites: the evidence's own words.

Invariants:
    - A quote is a span inside quotation marks (“…”, "…", «…», „…“, 「…」, 『…』) of at least
      MIN_QUOTE_CHARS characters in the text the model recorded.
    - A quote goes to every cited hit whose visible text (its snippet: a corpus excerpt, a fetched
      page, or what the model cited from a web search result) contains it, compared without case,
      spacing or edge punctuation: that quote is checked.
    - A quote found in no hit's visible text goes to the one cited hit whose page text the provider
      returned only encrypted (a web search result the model read but we cannot) and that no other
      quote was checked against, or with several such hits to the one whose site (a url host label
      such as "ahrq") the LEAD_CHARS before the quote name; it is marked as not checked. Otherwise it
      goes to none: it cannot be told which page it came from. Nothing is attached to a corpus hit
      it is not in.
    - A quote the model's reply cited from a web search result (`CitedQuote`, any later turn) joins
      the snippet of every hit of that url whose page text is hidden (`with_cited_quotes`): it
      replaces the title-and-page-age stand-in, or is appended once.
    - A hit with no quote keeps its snippet as the evidence text (`evidence_text` returns None).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from forge.core.llm.messages import CitedQuote
from forge.core.session.records import ResearchHit, ResearchRecord

MIN_QUOTE_CHARS = 12
LEAD_CHARS = 80  # the text before a loose quote read for the site it names
_QUOTED = re.compile(r"“([^”]+)”|\"([^\"]+)\"|«([^»]+)»|„([^“”]+)[“”]|「([^」]+)」|『([^』]+)』")
_EDGES = " \t\n.,;:!?…'\"“”‘’«»„「」『』()[]"
UNCHECKED_NOTE = "not checked: the search returned the page text encrypted"


def _spans(text: str) -> dict[str, int]:
    """Each quote long enough to be a sentence of evidence, with where it starts, first occurrence only."""
    found: dict[str, int] = {}
    for m in _QUOTED.finditer(text):
        quote = next(g for g in m.groups() if g is not None).strip()
        if len(quote) >= MIN_QUOTE_CHARS:
            found.setdefault(quote, m.start())
    return found


def quotes_in(text: str) -> tuple[str, ...]:
    """The quoted spans of `text` long enough to be a sentence of evidence, without repeats, in order."""
    return tuple(_spans(text))


_GENERIC_LABELS = frozenset("www com org net gov edu int info html htm php".split())


def _site_names(source: str) -> set[str]:
    """The distinctive labels of a url's host (`www.ahrq.gov` -> {"ahrq"})."""
    host = source.split("://", 1)[-1].split("/", 1)[0].casefold()
    return {label for label in host.split(".") if len(label) >= 3 and label not in _GENERIC_LABELS}


def _attributed(lead: str, hidden: list[str]) -> str | None:
    """The one encrypted page a loose quote came from: the only one, else the only one whose site the
    words just before the quote name ("AHRQ reports that “…”")."""
    if len(hidden) == 1:
        return hidden[0]
    words = set(re.findall(r"\w+", lead.casefold()))
    named = [source for source in hidden if _site_names(source) & words]
    return named[0] if len(named) == 1 else None


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
    loose: list[tuple[str, int]] = []
    for quote, start in _spans(text).items():
        wanted = _normal(quote)
        holders = [h.source for h in hits if wanted and wanted in _normal(h.snippet)]
        for source in holders:
            checked.setdefault(source, []).append(quote)
        if not holders:
            loose.append((quote, start))
    hidden = list(dict.fromkeys(h.source for h in hits if h.page_text_hidden and h.source not in checked))
    for quote, start in loose:
        page = _attributed(text[max(0, start - LEAD_CHARS) : start], hidden)
        if page is not None:
            unchecked.setdefault(page, []).append(quote)
    sources = dict.fromkeys([*checked, *unchecked])
    return {s: HitQuotes(tuple(checked.get(s, ())), tuple(unchecked.get(s, ()))) for s in sources}


def _is_stand_in(hit: ResearchHit) -> bool:
    """The snippet is the title (and page age) a search result gives when nothing was cited from it."""
    return not hit.snippet.strip() or hit.snippet == hit.title or hit.snippet.startswith(f"{hit.title} (page age:")


def _cited(hit: ResearchHit, texts: Sequence[str]) -> ResearchHit:
    snippet = "" if _is_stand_in(hit) else hit.snippet
    new = [t for t in texts if _normal(t) and _normal(t) not in _normal(snippet)]
    if not new:
        return hit
    return replace(hit, snippet=" … ".join([snippet, *new] if snippet else new))


def with_cited_quotes(log: Sequence[ResearchRecord], quotes: Sequence[CitedQuote]) -> list[ResearchRecord]:
    """The research log with each cited quote added to the hidden-text hits of its url."""
    by_url: dict[str, list[str]] = {}
    for quote in quotes:
        by_url.setdefault(quote.url, []).append(quote.text)
    updated = []
    for record in log:
        hits = tuple(
            _cited(h, by_url[h.source]) if h.page_text_hidden and h.source in by_url else h for h in record.hits
        )
        updated.append(record if hits == record.hits else replace(record, hits=hits))
    return updated

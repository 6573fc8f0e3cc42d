"""What a research call returns when it has more to say than its hits: which provider answered and
a warning when research did not go as configured (a web API failed and the local corpus answered).

Invariants:
    - A ResearchResults is a read-only Sequence of ResearchHit, so every caller of
      `ResearchProvider.search` keeps working; callers that care read `answered_by` and `warning`.
    - `warning` is empty when the configured provider answered.
    - `renderings` are the other queries searched for it (a query in another language than the
      corpus's, rendered by the model: `core.research.query_renderings`); `found_by` maps a hit's
      source to the query that found it. Both are empty when the query was searched as written only.
      `rendered_by` says what made the renderings: "model" (a translation by the model) or
      "dictionary" (a word-by-word bilingual-dictionary gloss, when no model could render); "" when
      there are none.
    - `usage` is what model calls made to answer cost (a query's rendering), priced as the model
      `priced_as` names; zero when no model was asked (the research tool bills it to the session).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import overload

from forge.core.llm.messages import Usage
from forge.core.session.records import ResearchHit

LOCAL_CORPUS = "local corpus"
"""The name of the local corpus provider (shipped primers and the session's documents)."""


class ResearchResults(Sequence[ResearchHit]):
    __slots__ = ("_hits", "answered_by", "found_by", "priced_as", "rendered_by", "renderings", "usage", "warning")

    def __init__(
        self,
        hits: Iterable[ResearchHit],
        answered_by: str,
        warning: str = "",
        *,
        renderings: tuple[str, ...] = (),
        found_by: Mapping[str, str] | None = None,
        usage: Usage | None = None,
        priced_as: str = "",
        rendered_by: str = "",
    ) -> None:
        self._hits = tuple(hits)
        self.answered_by = answered_by
        self.warning = warning
        self.renderings = renderings
        self.found_by: Mapping[str, str] = found_by or {}
        self.usage = usage or Usage()
        self.priced_as = priced_as
        self.rendered_by = rendered_by

    @overload
    def __getitem__(self, index: int) -> ResearchHit: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[ResearchHit]: ...

    def __getitem__(self, index: int | slice) -> ResearchHit | Sequence[ResearchHit]:
        return self._hits[index]

    def __len__(self) -> int:
        return len(self._hits)

    def __iter__(self) -> Iterator[ResearchHit]:
        return iter(self._hits)

    def __repr__(self) -> str:
        return f"ResearchResults({self._hits!r}, answered_by={self.answered_by!r}, warning={self.warning!r})"


def research_warning_of(hits: Sequence[ResearchHit]) -> str:
    return hits.warning if isinstance(hits, ResearchResults) else ""


def answered_by(hits: Sequence[ResearchHit], default: str) -> str:
    return hits.answered_by if isinstance(hits, ResearchResults) else default


def renderings_of(hits: Sequence[ResearchHit]) -> tuple[str, ...]:
    return hits.renderings if isinstance(hits, ResearchResults) else ()


def rendered_by_of(hits: Sequence[ResearchHit]) -> str:
    return hits.rendered_by if isinstance(hits, ResearchResults) else ""


def found_by_of(hits: Sequence[ResearchHit]) -> Mapping[str, str]:
    return hits.found_by if isinstance(hits, ResearchResults) else {}


def model_usage_of(hits: Sequence[ResearchHit]) -> tuple[Usage, str]:
    """What model calls made to answer cost, and the model to price them as (none: zero, "")."""
    return (hits.usage, hits.priced_as) if isinstance(hits, ResearchResults) else (Usage(), "")


def with_warning_first(hits: Sequence[ResearchHit], answered: str, warning: str) -> ResearchResults:
    """`hits` as `answered` gave them, `warning` before their own; what they carry (renderings,
    found_by, the model usage behind them) kept."""
    if not isinstance(hits, ResearchResults):
        return ResearchResults(hits, answered, warning)
    return ResearchResults(
        hits,
        answered,
        " ".join(w for w in (warning, hits.warning) if w),
        renderings=hits.renderings,
        found_by=hits.found_by,
        usage=hits.usage,
        priced_as=hits.priced_as,
        rendered_by=hits.rendered_by,
    )

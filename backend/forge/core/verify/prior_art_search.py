"""What VERIFY searched for a claim's prior art, as its verdict says it: each query, the provider that
answered it, where that provider looks (the web, or the local corpus of shipped English primers and the
session's documents) and how many results came back.

Invariants:
    - Pure records. A query answered by the local corpus — configured so, or standing in for a web
      search API that failed — is LOCAL_CORPUS; any other provider is a web search.
    - `searched_summary` is one plain sentence for the verdict's note; the typed records are what the
      API and the SPA show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.research.results import LOCAL_CORPUS
from forge.core.verify.verdicts import QueryKind


class SearchScope(str, Enum):
    WEB = "web"
    LOCAL_CORPUS = "local_corpus"


@dataclass(frozen=True, slots=True)
class PriorArtSearch:
    kind: QueryKind
    query: str
    provider: str  # the provider that answered (e.g. "anthropic web search", "searxng", "local corpus")
    scope: SearchScope
    results: int


def scope_of(provider: str) -> SearchScope:
    return SearchScope.LOCAL_CORPUS if provider == LOCAL_CORPUS else SearchScope.WEB


def searched_summary(searches: Sequence[PriorArtSearch]) -> str:
    if not searches:
        return ""
    places = sorted({f"the web ({s.provider})" if s.scope is SearchScope.WEB else "the local corpus" for s in searches})
    found = sum(s.results for s in searches)
    return f"Prior art searched in {' and '.join(places)}: {len(searches)} queries, {found} result(s)."

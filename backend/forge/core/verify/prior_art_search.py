"""What VERIFY searched for a claim's prior art, as its verdict says it: each query, the provider that
answered it, where that provider looks (the web, or the local corpus of shipped English primers and the
session's documents) and how many results came back.

Invariants:
    - Pure records. A query answered by the local corpus — configured so, or standing in for a web
      search API that failed — is LOCAL_CORPUS; any other provider is a web search.
    - The typed records are what the API and the SPA show; the VERIFY stage's summary names the places.
"""

from __future__ import annotations

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

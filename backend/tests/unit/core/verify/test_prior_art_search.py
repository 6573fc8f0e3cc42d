"""Where VERIFY's prior-art search looked: the local corpus by name, any other provider is the web."""

from __future__ import annotations

from forge.core.verify.prior_art_search import PriorArtSearch, SearchScope, scope_of, searched_summary
from forge.core.verify.verdicts import QueryKind


def test_the_local_corpus_is_local_and_every_other_provider_is_a_web_search() -> None:
    assert scope_of("local corpus") is SearchScope.LOCAL_CORPUS
    assert {scope_of(p) for p in ("anthropic web search", "searxng", "brave", "tavily")} == {SearchScope.WEB}


def test_the_summary_names_the_places_searched_and_what_came_back() -> None:
    searches = [
        PriorArtSearch(QueryKind.CONCEPT, "q1", "searxng", SearchScope.WEB, 3),
        PriorArtSearch(QueryKind.IMPLEMENTATION, "q2", "local corpus", SearchScope.LOCAL_CORPUS, 0),
    ]
    assert searched_summary(searches) == (
        "Prior art searched in the local corpus and the web (searxng): 2 queries, 3 result(s)."
    )
    assert searched_summary([]) == ""

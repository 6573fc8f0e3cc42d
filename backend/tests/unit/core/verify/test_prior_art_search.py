"""Where VERIFY's prior-art search looked: the local corpus by name, any other provider is the web."""

from __future__ import annotations

from forge.core.verify.prior_art_search import SearchScope, scope_of


def test_the_local_corpus_is_local_and_every_other_provider_is_a_web_search() -> None:
    assert scope_of("local corpus") is SearchScope.LOCAL_CORPUS
    assert {scope_of(p) for p in ("anthropic web search", "searxng", "brave", "tavily")} == {SearchScope.WEB}

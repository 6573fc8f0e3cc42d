"""Quotes in a recording tool's text become the evidence text of the cited hit they came from."""

from __future__ import annotations

from datetime import UTC, datetime

from forge.core.domain_types import Phase
from forge.core.llm.messages import CitedQuote
from forge.core.research.quoted_evidence import HitQuotes, quotes_by_source, quotes_in, with_cited_quotes
from forge.core.session.records import ResearchHit, ResearchRecord

PAGE = "https://journal.example/boarding"
OTHER = "https://news.example/triage"
CORPUS = ResearchHit("corpus://queueing/erlang", "Erlang C", "Pooled servers idle less than separate queues do.")


def web(url: str, snippet: str) -> ResearchHit:
    return ResearchHit(url, "A page", snippet, page_text_hidden=True)


def test_quoted_spans_of_every_quotation_style_are_found_once_in_order() -> None:
    text = 'As “Boarding of admitted patients drives crowding.” and "Boarding of admitted patients drives crowding." and 「入院患者滞留导致急诊拥堵。」 say; “short” is not evidence.'
    assert quotes_in(text) == ("Boarding of admitted patients drives crowding.", "入院患者滞留导致急诊拥堵。")


def test_a_quote_in_a_hits_visible_text_is_checked_whatever_its_case_and_spacing() -> None:
    hits = [CORPUS, web(PAGE, "Boarding title (page age: 2024)")]
    found = quotes_by_source("Counter: “pooled servers  idle LESS than separate queues” (Erlang).", hits)
    assert found == {CORPUS.source: HitQuotes(checked=("pooled servers  idle LESS than separate queues",))}


def test_a_quote_from_the_one_cited_encrypted_page_goes_to_it_marked_unchecked() -> None:
    hits = [CORPUS, web(PAGE, "A page (page age: 2024)")]
    found = quotes_by_source("The review says “the boarding of admitted patients is the main cause”.", hits)
    assert found == {PAGE: HitQuotes(unchecked=("the boarding of admitted patients is the main cause",))}
    assert found[PAGE].text == (
        "“the boarding of admitted patients is the main cause” "
        "(not checked: the search returned the page text encrypted)"
    )


def test_a_quote_found_nowhere_with_two_encrypted_pages_cited_goes_to_neither() -> None:
    hits = [web(PAGE, "A page"), web(OTHER, "Another page")]
    assert quotes_by_source("It says “the boarding of admitted patients is the main cause”.", hits) == {}


def test_a_quote_matching_a_pages_cited_text_is_checked_and_never_given_to_a_corpus_hit() -> None:
    hits = [CORPUS, web(PAGE, "The most commonly cited cause of crowding is the boarding of admitted patients.")]
    text = "“the most commonly cited cause of crowding is the boarding of admitted patients” and “fast track lanes cut waits”"
    found = quotes_by_source(text, [*hits, web(OTHER, "Another page")])
    assert found == {
        PAGE: HitQuotes(checked=("the most commonly cited cause of crowding is the boarding of admitted patients",)),
        OTHER: HitQuotes(unchecked=("fast track lanes cut waits",)),  # the one encrypted page no quote matched
    }
    assert quotes_by_source("“fast track lanes cut waits”", [CORPUS]) == {}


def test_a_loose_quote_goes_to_the_encrypted_page_whose_site_the_words_before_it_name() -> None:
    hits = [web("https://www.ahrq.gov/flow", "A page"), web("https://www.acep.org/boarding", "Another page")]
    found = quotes_by_source("Per AHRQ, “smoothing elective admissions reduced boarding”.", hits)
    assert found == {
        "https://www.ahrq.gov/flow": HitQuotes(unchecked=("smoothing elective admissions reduced boarding",))
    }


def test_a_quote_cited_in_a_later_reply_replaces_the_title_stand_in_of_that_pages_hidden_hit_once() -> None:
    stand_in = ResearchHit(PAGE, "Crowding", "Crowding (page age: April 30, 2013)", page_text_hidden=True)
    record = ResearchRecord(
        "ed crowding", (stand_in, CORPUS), Phase.SYNTHESIZE, 0, datetime(2026, 1, 1, tzinfo=UTC), "web"
    )
    cited = [CitedQuote(PAGE, "Boarding is the main cause."), CitedQuote(CORPUS.source, "Pooled servers idle less.")]
    (updated,) = with_cited_quotes([record], cited)
    assert updated.hits == (ResearchHit(PAGE, "Crowding", "Boarding is the main cause.", page_text_hidden=True), CORPUS)
    again = with_cited_quotes([updated], [*cited, CitedQuote(PAGE, "Fast track helps minor cases.")])
    assert again[0].hits[0].snippet == "Boarding is the main cause. … Fast track helps minor cases."

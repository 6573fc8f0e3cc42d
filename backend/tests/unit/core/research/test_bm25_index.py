from __future__ import annotations

import pytest

from forge.core.research.bm25_index import SNIPPET_MAX_CHARS, IndexedDocument, build_bm25_index
from forge.core.research.text_terms import content_terms

QUEUEING = IndexedDocument(
    "doc://queueing",
    "Queueing theory",
    "Little's law relates the average number of items in a queue to arrival rate and waiting time. "
    "Queues form whenever arrivals outpace service. Systems are studied with queue models.",
)
BIRDS = IndexedDocument(
    "doc://birds",
    "Bird migration",
    "Many birds migrate thousands of kilometres each year. Systems of magnetic sensing guide them.",
)
GARDEN = IndexedDocument(
    "doc://garden",
    "Soil health",
    "Compost improves soil structure. Healthy systems of roots retain water through dry seasons.",
)


def test_obviously_relevant_document_ranks_first() -> None:
    index = build_bm25_index([BIRDS, GARDEN, QUEUEING])

    hits = index.search("waiting time in queues", limit=5)

    assert hits[0].source == "doc://queueing"
    assert hits[0].title == "Queueing theory"
    assert hits[0].score > 0


def test_idf_downweights_terms_found_in_every_document() -> None:
    index = build_bm25_index([BIRDS, GARDEN, QUEUEING])

    assert index.idf("system") < index.idf("compost")
    common = index.search("systems", limit=5)
    rare = index.search("compost", limit=5)
    assert len(common) == 3
    assert rare[0].source == "doc://garden"
    assert rare[0].score > max(hit.score for hit in common)


def test_rare_term_outweighs_common_term() -> None:
    index = build_bm25_index([BIRDS, GARDEN, QUEUEING])

    hits = index.search("systems compost", limit=5)

    assert hits[0].source == "doc://garden"


def test_title_matches_count() -> None:
    titled = IndexedDocument("doc://a", "Mycelium networks", "Fungi connect trees underground.")
    body_only = IndexedDocument("doc://b", "Forest notes", "Fungi grow on logs.")
    index = build_bm25_index([titled, body_only, BIRDS])

    hits = index.search("mycelium", limit=5)

    assert [hit.source for hit in hits] == ["doc://a"]
    assert hits[0].snippet  # falls back to the opening of the text when only the title matched


def test_title_match_outranks_equal_body_match() -> None:
    in_title = IndexedDocument("doc://z-title", "Entropy", "A measure discussed in physics texts.")
    in_body = IndexedDocument("doc://a-body", "Physics notes", "Entropy is a measure in texts.")
    index = build_bm25_index([in_body, in_title])

    hits = index.search("entropy", limit=5)

    assert hits[0].source == "doc://z-title"


def test_query_with_no_matching_terms_returns_nothing() -> None:
    index = build_bm25_index([BIRDS, GARDEN, QUEUEING])

    assert index.search("cryptocurrency blockchain", limit=5) == []
    assert index.search("the and of", limit=5) == []  # stopwords only
    assert index.search("", limit=5) == []


def test_empty_index_and_non_positive_limit_return_nothing() -> None:
    assert build_bm25_index([]).search("queue", limit=5) == []
    assert build_bm25_index([QUEUEING]).search("queue", limit=0) == []


def test_ties_are_broken_by_source_deterministically() -> None:
    text = "Identical text about glaciers."
    docs = [IndexedDocument(f"doc://{name}", "Same", text) for name in ("c", "a", "b")]

    first = build_bm25_index(docs).search("glaciers", limit=5)
    again = build_bm25_index(list(reversed(docs))).search("glaciers", limit=5)

    assert [hit.source for hit in first] == ["doc://a", "doc://b", "doc://c"]
    assert first == again
    assert len({hit.score for hit in first}) == 1


def test_limit_is_honoured() -> None:
    docs = [IndexedDocument(f"doc://{i:02d}", f"Glacier {i}", "Glaciers carve valleys.") for i in range(8)]

    assert len(build_bm25_index(docs).search("glacier", limit=3)) == 3


def test_snippet_is_the_matching_sentence_and_contains_a_query_term() -> None:
    index = build_bm25_index([BIRDS, GARDEN, QUEUEING])

    hit = index.search("arrival rate", limit=1)[0]

    assert "arrival rate" in hit.snippet
    assert hit.snippet.startswith("Little's law")
    assert len(hit.snippet) <= SNIPPET_MAX_CHARS


def test_snippet_of_a_long_sentence_is_a_window_around_the_match() -> None:
    filler = " ".join(f"word{i}" for i in range(200))
    doc = IndexedDocument("doc://long", "Long", f"{filler} the albatross glides {filler}.")
    index = build_bm25_index([doc])

    hit = index.search("albatross", limit=1)[0]

    assert "albatross" in hit.snippet
    assert len(hit.snippet) <= SNIPPET_MAX_CHARS
    assert hit.snippet.startswith("…") and hit.snippet.endswith("…")


def test_snippet_matches_plural_folded_terms() -> None:
    index = build_bm25_index([QUEUEING])

    hit = index.search("queue", limit=1)[0]

    assert set(content_terms(hit.snippet)) & {"queue"}


def test_duplicate_sources_are_refused() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        build_bm25_index([BIRDS, BIRDS])
    with pytest.raises(ValueError, match="duplicate"):
        build_bm25_index([BIRDS]).with_documents([BIRDS])


def test_with_documents_returns_a_new_index() -> None:
    base = build_bm25_index([BIRDS])
    extended = base.with_documents([GARDEN])

    assert len(base) == 1
    assert len(extended) == 2
    assert base.search("compost", limit=5) == []
    assert extended.search("compost", limit=5)[0].source == "doc://garden"


def test_topics_are_indexed_but_not_quoted_in_snippets() -> None:
    doc = IndexedDocument("doc://t", "Notes", "Plain body text.", topics=("thermodynamics",))
    hit = build_bm25_index([doc, BIRDS]).search("thermodynamics", limit=5)

    assert [h.source for h in hit] == ["doc://t"]
    assert hit[0].snippet == "Plain body text."


def test_search_scores_every_document_sharing_a_term_as_a_full_scan_would() -> None:
    docs = [
        IndexedDocument(f"s{i}", f"Doc {i}", text)
        for i, text in enumerate(
            ["queue triage nurses. Waiting rooms.", "triage only", "nothing relevant here", "nurses and queues"]
        )
    ]
    index = build_bm25_index(docs)
    found = index.search("queue triage nurses", limit=10)
    assert [d.source for d in found] == ["s0", "s3", "s1"]
    assert found[0].snippet == "queue triage nurses."


def test_scores_are_the_search_scores_of_every_matching_document_best_first() -> None:
    index = build_bm25_index(
        [
            IndexedDocument("a", "Queues", "Waiting lines form when arrivals outpace service."),
            IndexedDocument("b", "Bees", "Swarms choose a nest site by quorum."),
            IndexedDocument("c", "Service", "Service capacity and waiting time trade off."),
        ]
    )
    scores = index.scores("waiting time in service queues")
    assert scores == {hit.source: hit.score for hit in index.search("waiting time in service queues", limit=10)}
    assert list(scores) == [hit.source for hit in index.search("waiting time in service queues", limit=10)]
    assert "b" not in scores and index.scores("") == {}


def test_the_snippet_of_a_document_sharing_no_term_is_its_opening() -> None:
    index = build_bm25_index([IndexedDocument("b", "Bees", "Swarms choose a nest site by quorum. Scouts dance.")])
    assert index.snippet("b", "hospital waits") == "Swarms choose a nest site by quorum. Scouts dance."
    assert index.snippet("b", "scouts") == "Scouts dance."

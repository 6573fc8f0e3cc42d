"""NodeMatcher: exact > alias > lexical/embedding, deterministic order, thresholds."""

from __future__ import annotations

import numpy as np
import pytest

from forge.core.hkg.hashed_text_vector import hashed_text_vector
from forge.core.hkg.hypergraph_records import Hyperedge, HyperedgeId, HypergraphContents, HypergraphNode, NodeId
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.node_matching import (
    ALIAS_CONFIDENCE,
    DEFAULT_MIN_CONFIDENCE,
    EXACT_CONFIDENCE,
    RERANK_CEILING,
    MatchMethod,
    NodeMatcher,
    normalize_phrase,
    word_coverage,
)
from forge.core.research.bm25_index import IndexedDocument, build_bm25_index
from forge.core.research.text_terms import content_terms


@pytest.fixture
def store() -> HypergraphStore:
    nodes = (
        HypergraphNode(NodeId("v:temp"), "temperature (T)", ("temperature",)),
        HypergraphNode(NodeId("v:heat-flux"), "heat flux", ("thermal flow",)),
        HypergraphNode(NodeId("t:queue"), "queue"),
        HypergraphNode(NodeId("t:queueing"), "queueing theory"),
        HypergraphNode(NodeId("t:entropy"), "entropy"),
    )
    edges = (Hyperedge(HyperedgeId("e"), "rel", tuple(n.id for n in nodes)),)
    built = build_hypergraph_store(HypergraphContents(nodes, edges))
    assert isinstance(built, HypergraphStore)
    return built


def _vectors(store: HypergraphStore) -> np.ndarray:
    return np.array([hashed_text_vector(n.label) for n in store.nodes], dtype=np.float32)


def test_normalisation_lowercases_strips_punctuation_and_folds_plurals() -> None:
    assert normalize_phrase("Temperature (T)") == "temperature t"
    assert normalize_phrase("  Queues!! ") == "queue"


def test_an_exact_label_match_comes_first_with_full_confidence(store: HypergraphStore) -> None:
    best = NodeMatcher(store).match("Queues").best
    assert best is not None
    assert (best.node_id, best.method, best.confidence) == ("t:queue", MatchMethod.EXACT, EXACT_CONFIDENCE)


def test_an_alias_match_ranks_below_exact_but_above_any_reranked_candidate(store: HypergraphStore) -> None:
    match = NodeMatcher(store).match("thermal flow")
    assert match.best is not None
    assert (match.best.node_id, match.best.method, match.best.confidence) == (
        "v:heat-flux",
        MatchMethod.ALIAS,
        ALIAS_CONFIDENCE,
    )
    assert all(c.confidence <= RERANK_CEILING for c in match.candidates[1:])


def test_a_shared_word_is_a_lexical_match_below_the_rerank_ceiling(store: HypergraphStore) -> None:
    match = NodeMatcher(store).match("heat transfer")
    assert match.best is not None
    assert match.best.node_id == "v:heat-flux"
    assert match.best.method is MatchMethod.LEXICAL
    assert 0 < match.best.confidence <= RERANK_CEILING


def test_embedding_recall_finds_a_node_that_shares_no_word(store: HypergraphStore) -> None:
    without_vectors = NodeMatcher(store).match("queueing", limit=5, min_confidence=0.2)
    assert "t:queue" not in {c.node_id for c in without_vectors.candidates}
    with_vectors = NodeMatcher(store, _vectors(store)).match(
        "queueing", hashed_text_vector("queueing"), limit=5, min_confidence=0.2
    )
    by_id = {c.node_id: c for c in with_vectors.candidates}
    assert by_id["t:queue"].method is MatchMethod.EMBEDDING
    assert by_id["t:queue"].cosine is not None and by_id["t:queue"].cosine > 0.3
    assert by_id["t:queueing"].confidence > by_id["t:queue"].confidence  # word and vector beat vector alone


def test_candidates_are_ordered_by_confidence_then_node_id_and_cut_at_the_limit(store: HypergraphStore) -> None:
    matcher = NodeMatcher(store, _vectors(store))
    match = matcher.match("temperature of heat", hashed_text_vector("temperature of heat"), limit=2, min_confidence=0.0)
    keys = [(-c.confidence, c.node_id) for c in match.candidates]
    assert keys == sorted(keys)
    assert len(match.candidates) == 2


def test_nothing_above_the_threshold_means_no_candidate(store: HypergraphStore) -> None:
    assert NodeMatcher(store).match("banana bread").candidates == ()
    assert NodeMatcher(store).match("!!!").best is None


def test_node_vectors_must_have_one_row_per_node(store: HypergraphStore) -> None:
    with pytest.raises(ValueError):
        NodeMatcher(store, np.zeros((2, 8), dtype=np.float32))


def _pump_store() -> HypergraphStore:
    """'pump' is in five names, 'plasma' and 'arc' in one each; ids put a pump first on a tie."""
    labels = {
        "a:pump-housing": "pump housing",
        "b:plasma-torch": "plasma torch",
        "c:arc-lamp": "arc lamp",
        "c:pump-seal": "pump seal",
        "c:pump-curve": "pump curve",
        "c:heat-pump": "heat pump",
        "c:pump-motor": "pump motor",
    }
    nodes = tuple(HypergraphNode(NodeId(i), label) for i, label in labels.items())
    built = build_hypergraph_store(
        HypergraphContents(nodes, (Hyperedge(HyperedgeId("e"), "rel", (nodes[0].id, nodes[1].id)),))
    )
    assert isinstance(built, HypergraphStore)
    return built


def test_a_node_sharing_a_rare_word_outranks_one_sharing_a_common_word_at_equal_cosine() -> None:
    store = _pump_store()
    same_meaning = np.ones((len(store.nodes), 4), dtype=np.float32)
    with_vectors = NodeMatcher(store, same_meaning).match(
        "plasma pump", [1.0, 1.0, 1.0, 1.0], limit=7, min_confidence=0.0
    )
    words_only = NodeMatcher(store).match("plasma pump", limit=7, min_confidence=0.0)
    for match in (with_vectors, words_only):
        assert match.best is not None and match.best.node_id == "b:plasma-torch"
        assert match.candidates[0].confidence > match.candidates[1].confidence
        assert {c.method for c in match.candidates if c.node_id != "c:arc-lamp"} == {MatchMethod.LEXICAL}


def test_a_name_covering_part_of_the_term_gets_part_of_the_confidence_though_nothing_covers_more() -> None:
    match = NodeMatcher(_pump_store()).match("plasma arc pump", limit=7, min_confidence=0.0)
    assert match.best is not None and match.best.node_id == "b:plasma-torch"
    # one of the term's two rare words: about half of the term, not the whole of it
    assert 0.3 * RERANK_CEILING < match.best.confidence < 0.7 * RERANK_CEILING


def test_a_fused_match_stays_below_an_alias_match_and_the_same_input_gives_the_same_list() -> None:
    store = _pump_store()
    vectors = np.array([hashed_text_vector(n.label) for n in store.nodes], dtype=np.float32)
    first = NodeMatcher(store, vectors).match("pump", hashed_text_vector("pump"), limit=7, min_confidence=0.0)
    again = NodeMatcher(store, vectors).match("pump", hashed_text_vector("pump"), limit=7, min_confidence=0.0)
    assert first == again
    assert all(0 < c.confidence <= RERANK_CEILING < ALIAS_CONFIDENCE for c in first.candidates)
    assert [(-c.confidence, c.node_id) for c in first.candidates] == sorted(
        (-c.confidence, c.node_id) for c in first.candidates
    )


SENTENCE = (
    "emergency wait times: a baseline measured before any change, and the change against it after a fixed trial period"
)


def _hub_store() -> HypergraphStore:
    """One-word nodes that each name one word of SENTENCE (hubs of a real hypergraph), two-word heat
    nodes, and a queue the paraphrase test reaches by meaning alone."""
    labels = (
        "baseline",
        "emergency",
        "trial",
        "change",
        "heat transfer",
        "heat exchange",
        "heat",
        "convection",
        "queue",
        "thermal conductivity",
        "pressure drop",
        "service rate",
    )
    nodes = tuple(HypergraphNode(NodeId(f"n:{label}"), label) for label in labels)
    built = build_hypergraph_store(HypergraphContents(nodes, (Hyperedge(HyperedgeId("e"), "rel", (nodes[0].id,)),)))
    assert isinstance(built, HypergraphStore)
    return built


def _hashed(store: HypergraphStore) -> np.ndarray:
    return np.array([hashed_text_vector(n.label) for n in store.nodes], dtype=np.float32)


def test_word_coverage_is_symmetric_and_weighs_how_much_of_each_side_is_shared() -> None:
    index = build_bm25_index(IndexedDocument(n.id, "", n.label) for n in _hub_store().nodes)
    term, name = frozenset({"heat", "transfer"}), frozenset({"heat"})
    assert word_coverage(term, name, index) == word_coverage(name, term, index)
    assert word_coverage(term, term, index) == 1.0
    assert word_coverage(term, frozenset({"queue"}), index) == 0.0
    long_term = frozenset(content_terms(SENTENCE))
    assert word_coverage(long_term, frozenset({"baseline"}), index) < word_coverage(term, name, index) / 2


def test_a_sentence_long_term_matches_no_one_word_node_above_the_minimum_confidence() -> None:
    store = _hub_store()
    hubs = {NodeId(f"n:{label}") for label in ("baseline", "emergency", "trial", "change")}
    words_only = NodeMatcher(store).match(SENTENCE, limit=12, min_confidence=0.0)
    with_vectors = NodeMatcher(store, _hashed(store)).match(
        SENTENCE, hashed_text_vector(SENTENCE), limit=12, min_confidence=0.0
    )
    for match in (words_only, with_vectors):
        by_id = {c.node_id: c for c in match.candidates}
        assert hubs <= set(by_id)  # recalled by their shared word ...
        assert all(by_id[hub].confidence < DEFAULT_MIN_CONFIDENCE for hub in hubs)  # ... but weak


def test_a_short_term_still_matches_the_nodes_naming_it_or_part_of_it() -> None:
    store = _hub_store()
    matcher = NodeMatcher(store, _hashed(store))
    match = matcher.match("heat transfer", hashed_text_vector("heat transfer"), limit=5)
    by_id = {c.node_id: c for c in match.candidates}
    assert by_id[NodeId("n:heat transfer")].method is MatchMethod.EXACT
    assert by_id[NodeId("n:heat exchange")].method is MatchMethod.LEXICAL  # above DEFAULT_MIN_CONFIDENCE
    words_only = NodeMatcher(store).match("heat transfer rate").best
    assert words_only is not None and words_only.node_id == "n:heat transfer"
    assert words_only.confidence >= DEFAULT_MIN_CONFIDENCE


def test_a_paraphrase_sharing_no_word_matches_by_its_cosine() -> None:
    store = _hub_store()
    vectors = np.zeros((len(store.nodes), 4), dtype=np.float32)
    vectors[:, 1] = 1.0
    vectors[[n.label for n in store.nodes].index("queue")] = (1.0, 0.0, 0.0, 0.0)
    match = NodeMatcher(store, vectors).match("waiting line", [0.95, 0.1, 0.0, 0.0])
    assert NodeMatcher(store).match("waiting line").best is None  # no shared word
    assert match.best is not None and match.best.node_id == "n:queue"
    assert match.best.method is MatchMethod.EMBEDDING and match.best.confidence >= DEFAULT_MIN_CONFIDENCE

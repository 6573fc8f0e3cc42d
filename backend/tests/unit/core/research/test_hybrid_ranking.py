"""The hybrid ranking research and memory share: BM25 and cosines fused, passages for long texts."""

from __future__ import annotations

import pytest

from forge.core.research.hybrid_ranking import (
    Fusion,
    FusionMethod,
    best_passage_cosine,
    fuse,
    fused_relevance,
    passages,
)

LEXICAL = {"a": 9.0, "b": 3.0}
SEMANTIC = {"a": 0.2, "b": 0.6, "c": 0.9}


class TestFuse:
    def test_score_fusion_weighs_the_normalised_sides(self) -> None:
        fused = fuse(LEXICAL, SEMANTIC, Fusion(FusionMethod.SCORES, lexical_weight=0.3))
        by_key = {f.key: f.score for f in fused}
        assert by_key["a"] == pytest.approx(0.3 * 1.0 + 0.7 * 0.0)
        assert by_key["b"] == pytest.approx(0.3 * 0.0 + 0.7 * (0.4 / 0.7))
        assert by_key["c"] == pytest.approx(0.7 * 1.0)  # no shared word: nothing from BM25
        assert [f.key for f in fused] == ["c", "b", "a"]

    def test_a_heavier_lexical_weight_puts_the_word_match_first(self) -> None:
        fused = fuse(LEXICAL, SEMANTIC, Fusion(FusionMethod.SCORES, lexical_weight=0.8))
        assert fused[0].key == "a" and (fused[0].lexical, fused[0].semantic) == (9.0, 0.2)

    def test_reciprocal_rank_fusion_adds_one_over_k_plus_rank(self) -> None:
        fused = fuse(LEXICAL, SEMANTIC, Fusion(FusionMethod.RECIPROCAL_RANK, rrf_k=10, lexical_weight=0.5))
        by_key = {f.key: f.score for f in fused}
        assert by_key["b"] == pytest.approx(0.5 * 11 / 12 + 0.5 * 11 / 12)
        assert by_key["a"] == pytest.approx(0.5 * 11 / 11 + 0.5 * 11 / 13)
        assert by_key["c"] == pytest.approx(0.5 * 11 / 11)
        assert [f.key for f in fused] == ["a", "b", "c"]

    def test_cosine_plus_scaled_bm25_divides_bm25_by_the_best_and_keeps_the_cosine(self) -> None:
        fused = fuse(LEXICAL, SEMANTIC, Fusion(FusionMethod.COSINE_PLUS_SCALED_BM25, lexical_weight=0.3))
        by_key = {f.key: f.score for f in fused}
        assert by_key["a"] == pytest.approx(0.3 * 1.0 + 0.7 * 0.2)
        assert by_key["b"] == pytest.approx(0.3 * (3.0 / 9.0) + 0.7 * 0.6)
        assert by_key["c"] == pytest.approx(0.7 * 0.9)  # no shared word: its cosine's share, unscaled
        assert [f.key for f in fused] == ["c", "b", "a"]

    def test_cosine_plus_scaled_bm25_keeps_the_scale_of_a_lone_or_weak_match(self) -> None:
        """Min–max would give the less related of two 0 and a lone one 1; this keeps the cosines."""
        method = Fusion(FusionMethod.COSINE_PLUS_SCALED_BM25, lexical_weight=0.3)
        assert [f.score for f in fuse({}, {"x": 0.4}, method)] == [pytest.approx(0.7 * 0.4)]
        pair = {f.key: f.score for f in fuse({}, {"x": 1.0, "y": 0.8}, method)}
        assert pair == {"x": pytest.approx(0.7), "y": pytest.approx(0.7 * 0.8)}
        minmax = {
            f.key: f.score for f in fuse({}, {"x": 1.0, "y": 0.8}, Fusion(FusionMethod.SCORES, lexical_weight=0.3))
        }
        assert minmax["y"] == 0.0

    def test_a_negative_cosine_counts_nothing(self) -> None:
        fused = fuse(
            {"a": 2.0}, {"a": -0.4, "b": -0.1}, Fusion(FusionMethod.COSINE_PLUS_SCALED_BM25, lexical_weight=0.5)
        )
        assert {f.key: f.score for f in fused} == {"a": pytest.approx(0.5), "b": 0.0}

    def test_ties_keep_the_order_of_first_appearance(self) -> None:
        fused = fuse({"x": 1.0, "y": 1.0}, {"x": 0.5, "y": 0.5})
        assert [f.key for f in fused] == ["x", "y"]

    def test_nothing_in_nothing_out(self) -> None:
        assert fuse({}, {}) == []


class TestFusedRelevance:
    def test_every_text_gets_a_relevance_in_zero_one_from_its_words_and_cosine(self) -> None:
        texts = {"q": "hospital queues shrink with triage", "s": "staff rotas follow arrivals", "x": "unrelated"}
        cosines = {"q": 0.6, "s": 0.6}
        fusion = Fusion(FusionMethod.COSINE_PLUS_SCALED_BM25, lexical_weight=0.3)
        relevance = fused_relevance("Why are hospital queues long?", texts, cosines, fusion)
        assert relevance == {"q": pytest.approx(0.3 + 0.7 * 0.6), "s": pytest.approx(0.7 * 0.6), "x": 0.0}

    def test_idf_comes_from_the_texts_ranked_so_a_rarer_shared_word_weighs_more(self) -> None:
        texts = {"common": "queues queues", "rare": "triage", "other": "queues and beds"}
        fusion = Fusion(FusionMethod.COSINE_PLUS_SCALED_BM25, lexical_weight=1.0)
        relevance = fused_relevance("queues triage", texts, {}, fusion)
        assert relevance["rare"] == 1.0 and 0.0 < relevance["common"] < 1.0

    def test_no_texts_no_relevance(self) -> None:
        assert fused_relevance("anything", {}, {}) == {}


class TestPassages:
    def test_a_long_text_becomes_title_prefixed_windows_of_whole_sentences(self) -> None:
        text = "One two three. Four five six seven. Eight nine."
        assert passages("Title", text, max_words=5) == (
            "Title. One two three.",
            "Title. Four five six seven.",
            "Title. Eight nine.",
        )
        assert passages("Title", text, max_words=7) == (
            "Title. One two three. Four five six seven.",
            "Title. Eight nine.",
        )

    def test_a_sentence_longer_than_the_window_is_cut(self) -> None:
        assert passages("", "a b c d e", max_words=2) == ("a b", "c d", "e")

    def test_an_empty_text_is_its_title(self) -> None:
        assert passages("Only a title", "  ") == ("Only a title",)

    def test_the_best_passage_gives_the_documents_cosine(self) -> None:
        assert best_passage_cosine((1.0, 0.0), [(0.0, 1.0), (1.0, 1.0)]) == pytest.approx(2**-0.5)
        assert best_passage_cosine((1.0, 0.0), [(1.0, 0.0, 0.0)]) == 0.0  # another embedder's vector
        assert best_passage_cosine((1.0, 0.0), []) == 0.0

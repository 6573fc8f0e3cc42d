"""The hybrid ranking research and memory share: BM25 and cosines fused, passages for long texts."""

from __future__ import annotations

import pytest

from forge.core.research.hybrid_ranking import (
    Fusion,
    FusionMethod,
    best_passage_cosine,
    fuse,
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

    def test_ties_keep_the_order_of_first_appearance(self) -> None:
        fused = fuse({"x": 1.0, "y": 1.0}, {"x": 0.5, "y": 0.5})
        assert [f.key for f in fused] == ["x", "y"]

    def test_nothing_in_nothing_out(self) -> None:
        assert fuse({}, {}) == []


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

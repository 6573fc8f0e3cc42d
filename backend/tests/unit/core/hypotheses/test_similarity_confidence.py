"""Seed 004 §10: similarity bands and the C rules by band, one test per formula."""

from __future__ import annotations

import pytest

from forge.core.hypotheses.similarity_confidence import (
    SimilarityBand,
    band_of,
    conflicted,
    initial_c,
    mutually_supported,
    query_matched,
)


def test_bands_follow_the_seeds_thresholds() -> None:
    bands = [band_of(s) for s in (1.0, 0.98, 0.97, 0.7, 0.69, 0.5, 0.49, 0.3, 0.29, -0.2)]
    assert bands == [
        SimilarityBand.IDENTICAL, SimilarityBand.IDENTICAL, SimilarityBand.PARAPHRASE, SimilarityBand.PARAPHRASE,
        SimilarityBand.RELATED, SimilarityBand.RELATED, SimilarityBand.WEAK, SimilarityBand.WEAK,
        SimilarityBand.UNRELATED, SimilarityBand.UNRELATED,
    ]  # fmt: skip


def test_query_match_raises_c_by_0_15_0_10_0_05_or_0_02_of_the_gap_up_to_0_95() -> None:
    assert [query_matched(0.5, s) for s in (0.95, 0.8, 0.6, 0.2)] == pytest.approx([0.575, 0.55, 0.525, 0.51])
    assert query_matched(0.95, 0.95) == 0.95 and query_matched(0.94, 0.99) == pytest.approx(0.949)


def test_conflict_lowers_c_by_30_15_or_5_percent_down_to_0_05() -> None:
    assert [conflicted(0.5, s) for s in (0.85, 0.7, 0.55)] == pytest.approx([0.35, 0.425, 0.475])
    assert conflicted(0.06, 0.9) == 0.05


def test_mutual_support_raises_c_by_0_08_or_0_03_of_the_gap_up_to_0_95() -> None:
    assert [mutually_supported(0.5, s) for s in (0.75, 0.6)] == pytest.approx([0.54, 0.515])
    assert mutually_supported(0.95, 0.9) == 0.95


def test_initial_c_is_0_15_beside_a_conflict_else_0_4_0_35_or_0_3_by_the_nearest_similarity() -> None:
    assert initial_c(0.9, conflicts_with_nearest=True) == 0.15
    assert [initial_c(s, conflicts_with_nearest=False) for s in (0.85, 0.8, 0.6, 0.5, 0.1)] == [
        0.4,
        0.35,
        0.35,
        0.3,
        0.3,
    ]

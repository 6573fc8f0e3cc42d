from __future__ import annotations

from forge.core.document.problem_language import DocumentLanguage, problem_language


def test_english_text_is_english() -> None:
    assert problem_language("How can hospitals reduce emergency room queues?") is DocumentLanguage.EN


def test_chinese_text_is_chinese() -> None:
    assert problem_language("医院如何缩短急诊室的排队时间？") is DocumentLanguage.ZH


def test_japanese_text_with_kana_is_japanese() -> None:
    assert problem_language("病院は救急外来の待ち時間をどう減らせるか？") is DocumentLanguage.JA


def test_japanese_written_in_katakana_and_kanji_only_is_still_japanese() -> None:
    assert problem_language("サプライチェーン最適化") is DocumentLanguage.JA


def test_english_with_one_chinese_word_stays_english() -> None:
    assert problem_language("How should a tea shop price its 乌龙 blends for tourists?") is DocumentLanguage.EN


def test_chinese_with_an_english_product_name_stays_chinese() -> None:
    assert problem_language("如何用 Python 实现分布式缓存？") is DocumentLanguage.ZH


def test_japanese_with_an_english_term_stays_japanese() -> None:
    assert problem_language("Kubernetes のコストをどう下げるか") is DocumentLanguage.JA


def test_english_quoting_one_japanese_word_stays_english() -> None:
    assert problem_language("What does the word すし tell us about food naming across cultures?") is DocumentLanguage.EN


def test_empty_or_symbol_only_text_is_english() -> None:
    assert problem_language("") is DocumentLanguage.EN
    assert problem_language("?? 123 !!") is DocumentLanguage.EN

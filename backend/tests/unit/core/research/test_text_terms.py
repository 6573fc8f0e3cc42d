"""Content-term extraction that decides whether research is *about* a subject."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from forge.core.research.text_terms import (
    STOPWORDS,
    _any_content_terms,
    _ascii_content_terms,
    content_terms,
    fold,
    salient_terms,
    shares_terms,
    term_set,
)


def test_fold_removes_a_simple_plural_s() -> None:
    assert fold("queues") == "queue"
    assert fold("hospitals") == "hospital"


def test_fold_turns_ies_into_y() -> None:
    assert fold("policies") == "policy"
    assert fold("colonies") == "colony"


def test_fold_removes_es_after_sibilants() -> None:
    assert fold("boxes") == "box"
    assert fold("classes") == "class"
    assert fold("matches") == "match"
    assert fold("crashes") == "crash"


def test_fold_keeps_words_that_only_look_plural() -> None:
    for word in ("class", "status", "analysis", "bus", "gas"):
        assert fold(word) == word


def test_fold_keeps_singulars() -> None:
    assert fold("queue") == "queue"
    assert fold("triage") == "triage"


def test_content_terms_are_lowercase_and_ordered_with_duplicates() -> None:
    assert content_terms("Queue theory, QUEUE length") == ["queue", "theory", "queue", "length"]


def test_content_terms_drop_stopwords_short_words_and_numbers() -> None:
    assert content_terms("How do we cut ER waits in 2024 by 30%?") == ["cut", "wait"]


def test_content_terms_keep_hyphenated_words_whole() -> None:
    assert content_terms("cross-domain search") == ["cross-domain", "search"]


def test_content_terms_of_empty_or_stopword_text_are_empty() -> None:
    assert content_terms("") == []
    assert content_terms("what is the way to do it") == []


def test_stopwords_are_lowercase() -> None:
    assert all(w == w.lower() for w in STOPWORDS)


def test_term_set_folds_plurals() -> None:
    assert term_set("Emergency queues") == frozenset({"emergency", "queue"})


def test_shares_terms_matches_on_a_common_content_word() -> None:
    assert shares_terms("emergency room queue research", "How to shorten ER queues?")


def test_shares_terms_ignores_stopword_overlap() -> None:
    assert not shares_terms("what about the", "what is the problem about")


def test_shares_terms_is_case_insensitive() -> None:
    assert shares_terms("TRIAGE", "triage")


def test_shares_terms_is_false_for_unrelated_texts() -> None:
    assert not shares_terms("chocolate cake recipe", "emergency room queues")


def test_shares_terms_honours_a_minimum() -> None:
    assert shares_terms("queue theory", "queue theory basics", minimum=2)
    assert not shares_terms("queue theory", "queue length", minimum=2)


def test_shares_terms_is_symmetric() -> None:
    a, b = "ant colony routing", "colonies of ants"
    assert shares_terms(a, b) == shares_terms(b, a) is True


def test_salient_terms_rank_by_frequency_then_first_appearance() -> None:
    text = "triage queue staff queue triage queue beds"
    assert salient_terms(text) == ["queue", "triage", "staff", "bed"]


def test_salient_terms_respect_the_limit() -> None:
    assert salient_terms("alpha beta gamma delta", limit=2) == ["alpha", "beta"]


def test_salient_terms_are_deterministic() -> None:
    text = "zeta alpha omega zeta alpha omega"
    assert salient_terms(text) == salient_terms(text) == ["zeta", "alpha", "omega"]


def test_shares_terms_matches_plurals_whose_singular_ends_in_e() -> None:
    assert shares_terms("cache eviction", "CPU caches")
    assert shares_terms("viruses spread", "a virus")
    assert not shares_terms("cache eviction", "queue length")


def test_chinese_text_gives_character_bigrams_without_particles_or_question_words() -> None:
    terms = content_terms("如何在不增加人手的情况下缩短急诊等待时间？")
    assert {"急诊", "等待", "时间", "缩短", "人手"} <= set(terms)
    assert not {"如何", "何在", "手的", "情况"} & set(terms)


def test_japanese_text_gives_kanji_and_katakana_bigrams_and_drops_hiragana() -> None:
    terms = content_terms("救急外来の待ち時間をアリコロニーで短縮する")
    assert {"救急", "時間", "短縮", "アリ", "コロ"} <= set(terms)
    assert "待" in terms  # a kanji between kana is a term of its own
    assert not [t for t in terms if any("\u3040" <= ch <= "\u309f" for ch in t)]


def test_korean_text_gives_hangul_bigrams() -> None:
    assert {"응급", "대기", "시간"} <= set(content_terms("응급실 대기 시간"))


def test_words_of_other_alphabets_are_kept_whole_with_their_marks() -> None:
    assert content_terms("Очереди в больнице; हिन्दी भाषा; café") == ["очереди", "больнице", "हिन्दी", "भाषा", "café"]


def test_full_width_letters_are_normalised() -> None:
    assert content_terms("ＡＩ triage ＱＵＥＵＥＳ") == ["triage", "queue"]


def test_shares_terms_matches_hyphenated_terms_by_their_parts() -> None:
    assert shares_terms("Ant-colony optimisation", "ant colony foraging")
    assert shares_terms("heat wave deaths", "heat-wave")


def test_shares_terms_folds_british_spelling_and_inflection() -> None:
    assert shares_terms("route optimisation", "optimizing schedules")
    assert shares_terms("analysing queues", "queue analyzer")
    assert not shares_terms("route optimisation", "bee foraging")


def test_shares_terms_matches_chinese_and_japanese_on_shared_bigrams() -> None:
    assert shares_terms("急诊 等待时间 排队论", "如何在不增加人手的情况下缩短急诊等待时间？")
    assert shares_terms("救急外来 待ち時間", "人手を増やさずに救急外来の待ち時間を短縮するには？")
    assert not shares_terms("蜜蜂 觅食", "如何缩短急诊等待时间")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=200))
def test_ascii_text_gets_the_same_terms_as_through_the_general_pattern(text: str) -> None:
    assert _ascii_content_terms(text) == _any_content_terms(text)


TYPOGRAPHIC = "—–‘’“”…→×•·«»™½ﬁé\u0301\u00a0\u2009"  # punctuation, symbols, ligatures, accents, spaces


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("abcXYZ09 -_.,'" + TYPOGRAPHIC), max_size=120))
def test_text_with_typographic_marks_gets_the_same_terms_as_through_the_general_pattern(text: str) -> None:
    assert content_terms(text) == list(_any_content_terms(text))


def test_ascii_text_with_hyphens_digits_underscores_and_case_gets_the_general_terms() -> None:
    text = "Ant-colony ROUTING for 3PL fleets_2024 -- queues, re-ordering & A-B tests (2025) x-ray"
    assert _ascii_content_terms(text) == _any_content_terms(text)
    expected = ["ant-colony", "routing", "3pl", "fleet", "queue", "re-ordering", "a-b", "test", "x-ray"]
    assert content_terms(text) == expected  # a number alone is not a term; "_" splits words

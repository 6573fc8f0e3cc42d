"""Content-term extraction that decides whether research is *about* a subject."""

from __future__ import annotations

from forge.core.text_terms import STOPWORDS, content_terms, fold, salient_terms, shares_terms, term_set


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

"""Word-by-word English glosses from a bilingual dictionary: the dictionary segments a run into the
fewest headwords (common ones preferred), unknown characters are dropped rather than guessed, Latin
words stay, grammar words and short hiragana particles gloss nothing, and a segmenter's words are
glossed whole."""

from __future__ import annotations

from forge.core.research.dictionary_gloss import Lexicon, english_gloss, gloss_pieces, segmented

ZH = Lexicon({"急诊": "emergency treatment", "急": "urgent", "诊": "examine", "等待": "wait", "时间": "time"})
JA = Lexicon(
    {"動物": "animal", "動": "motion", "物の": "only", "の": "", "個体数": "population", "限界": "limit"},
    rare=frozenset({"物の"}),
)


def test_a_run_is_cut_into_the_fewest_headwords() -> None:
    assert segmented("急诊等待时间", ZH) == ["急诊", "等待", "时间"]


def test_an_unknown_character_is_dropped_not_guessed() -> None:
    assert english_gloss("急诊室等待", ZH) == "emergency treatment wait"


def test_a_common_headword_wins_a_tie_with_a_rare_one() -> None:
    assert segmented("動物の個体数", JA) == ["動物", "の", "個体数"]
    assert english_gloss("動物の個体数の限界", JA) == "animal population limit"


def test_latin_words_are_kept_and_repeated_glosses_said_once() -> None:
    assert english_gloss("PID 等待 等待时间", ZH) == "PID wait time"


def test_a_short_hiragana_piece_is_not_glossed_even_when_the_dictionary_knows_it() -> None:
    lexicon = Lexicon({"待ち": "waiting", "と": "and with", "病院": "hospital"})
    assert [p for p, _ in gloss_pieces("待ちと病院", lexicon)] == ["待ち", "病院"]


def test_a_segmenter_s_words_are_glossed_whole_and_unknown_words_split_by_the_dictionary() -> None:
    assert english_gloss("急诊等待时间", ZH, words=["急诊", "等待时间"]) == "emergency treatment wait time"


def test_text_with_no_known_word_glosses_as_nothing() -> None:
    assert english_gloss("未知", ZH) == ""


def test_inside_a_segmenter_s_word_the_dictionary_lacks_lone_characters_are_not_glossed() -> None:
    lexicon = Lexicon({"香": "fragrant", "农": "farmer", "信息": "information", "熵": "entropy"})
    assert english_gloss("香农 信息 熵", lexicon, words=["香农", "信息", "熵"]) == "information entropy"
    assert english_gloss("香农", lexicon) == "fragrant farmer"  # without a segmenter: the dictionary's pieces

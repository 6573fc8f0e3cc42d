"""The Knowledge Document's fixed words follow the problem's language; English stays byte-identical."""

from __future__ import annotations

import re
from dataclasses import fields, replace

import pytest
from unit.core.answer.test_pack import pack
from unit.core.document.test_render import GENERATED, rich_state

from forge.core.document.problem_language import DocumentLanguage
from forge.core.document.render import DOCUMENT_SECTIONS, DocumentInput, render_knowledge_document
from forge.core.document.words import (
    CHINESE_DOCUMENT_WORDS,
    ENGLISH_DOCUMENT_WORDS,
    JAPANESE_DOCUMENT_WORDS,
    DocumentWords,
    document_words,
    document_words_for,
)
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import DocumentNarrative, TrizCell
from forge.core.session.state_codec import encode_value
from forge.core.solve.compliance_audit import ComplianceVerdict

TRANSLATED = [CHINESE_DOCUMENT_WORDS, JAPANESE_DOCUMENT_WORDS]
# Latin words a translated document may carry that no state field holds: method and product names
# kept untranslated, and the Mermaid block's keywords.
KEPT_NAMES = {"TRIZ", "AnswerPack", "mermaid", "graph", "LR"}
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def complete_state() -> ForgeState:
    """Every optional part present: narrative, AnswerPack, TRIZ cells (with and without principles)."""
    s = rich_state()
    c = s.contradictions[0]
    s.contradictions = [
        replace(c, matrix_cell=TrizCell(9, 27, (3, 11), "Speed", "Reliability")),
        replace(c, principles=(), matrix_cell=TrizCell(1, 2, (), "Weight", "Weight of stationary")),
    ]
    s.document_narrative = DocumentNarrative("Pooling helps.", ("Pilot pooling.",), ("Who waits?",), "m-1")
    s.answer_pack = pack(ComplianceVerdict.VIOLATION)
    return s


def strings_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *strings_in(v)]]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings_in(v)]
    return []


def render(state: ForgeState, words: DocumentWords) -> str:
    return render_knowledge_document(DocumentInput("session-123", state, "claude-test (fake)", GENERATED, words))


def data_words(state: ForgeState) -> set[str]:
    text = " ".join([*strings_in(encode_value(state)), "session-123", "claude-test (fake)"])
    return set(LATIN_WORD.findall(text))


def test_the_problem_language_chooses_the_words() -> None:
    assert document_words_for("How can hospitals reduce queues?") is ENGLISH_DOCUMENT_WORDS
    assert document_words_for("医院如何缩短急诊排队？") is CHINESE_DOCUMENT_WORDS
    assert document_words_for("救急外来の待ち時間をどう減らすか") is JAPANESE_DOCUMENT_WORDS
    assert document_words(DocumentLanguage.EN).sections == DOCUMENT_SECTIONS


def test_english_words_render_the_default_bytes() -> None:
    s = complete_state()
    default = render_knowledge_document(DocumentInput("session-123", s, "claude-test (fake)", GENERATED))
    assert render(s, ENGLISH_DOCUMENT_WORDS) == default
    assert default.startswith("# Knowledge Document: How can hospitals reduce emergency room queues?\n")


@pytest.mark.parametrize("words", TRANSLATED, ids=["zh", "ja"])
def test_a_translated_document_has_every_heading_in_its_language(words: DocumentWords) -> None:
    s = complete_state()
    document = render(s, words)
    headings = [line[3:] for line in document.splitlines() if line.startswith("## ")]
    assert headings == [words.direct_answer_heading, words.summary_heading, *words.sections]
    assert document.startswith("# " + words.title_with_subject.format(subject="How can hospitals"))


@pytest.mark.parametrize("words", TRANSLATED, ids=["zh", "ja"])
def test_a_translated_document_keeps_no_english_fixed_word(words: DocumentWords) -> None:
    s = complete_state()
    document = render(s, words)
    leftover = set(LATIN_WORD.findall(document)) - data_words(s) - KEPT_NAMES
    assert leftover == set()
    assert "Knowledge Document" not in document and "```mermaid\ngraph LR" in document


@pytest.mark.parametrize("words", TRANSLATED, ids=["zh", "ja"])
def test_translated_empty_sections_say_so_in_their_language(words: DocumentWords) -> None:
    s = ForgeState(problem="")
    document = render(s, words)
    assert document.startswith(f"# {words.title_alone}\n")
    for note in (words.none_selected, words.not_mapped, words.no_analogies, words.graph_empty, words.no_gaps):
        assert f"_{note}_" in document
    assert set(LATIN_WORD.findall(document)) - data_words(s) == set()


def test_every_translation_fills_the_same_placeholders_as_english() -> None:
    placeholder = re.compile(r"\{(\w+)")
    for f in fields(DocumentWords):
        english = getattr(ENGLISH_DOCUMENT_WORDS, f.name)
        for words in TRANSLATED:
            translated = getattr(words, f.name)
            if isinstance(english, str):
                assert sorted(placeholder.findall(translated)) == sorted(placeholder.findall(english)), f.name
            elif f.name == "sections":
                assert len(translated) == len(english) == 10


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (CHINESE_DOCUMENT_WORDS, ["状态：已验证", "置信度：有依据", "(支持)", "_(改变变量)_", "_(中等距离)_"]),
        (
            JAPANESE_DOCUMENT_WORDS,
            ["状態：検証済み", "確信度：根拠あり", "(支持)", "_(変数の変更)_", "_(中程度の距離)_"],
        ),
    ],
    ids=["zh", "ja"],
)
def test_a_translated_document_names_statuses_and_types_as_the_spa_does(
    words: DocumentWords, expected: list[str]
) -> None:
    document = render(complete_state(), words)
    for text in expected:
        assert text in document
    for english in ("(supporting)", "_(variable_change)_", "(medium domain)", "Status: validated"):
        assert english not in document
    assert "-->|supports|" in document  # the Mermaid edges keep their machine labels


def test_every_translation_labels_the_same_enum_values() -> None:
    assert ENGLISH_DOCUMENT_WORDS.label("validated") == "validated"
    assert set(CHINESE_DOCUMENT_WORDS.value_labels) == set(JAPANESE_DOCUMENT_WORDS.value_labels)

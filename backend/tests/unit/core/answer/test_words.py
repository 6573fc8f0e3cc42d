"""The AnswerPack Markdown's fixed words follow the question's language; English stays byte-identical."""

from __future__ import annotations

import re
from dataclasses import fields, replace

import pytest
from unit.core.answer.test_pack import pack

from forge.core.answer.pack import AnswerPack, SolveSummary
from forge.core.answer.ranking import UNVERIFIED
from forge.core.answer.render import ANSWER_SECTIONS, render_answer_markdown
from forge.core.answer.words import (
    CHINESE_ANSWER_WORDS,
    ENGLISH_ANSWER_WORDS,
    JAPANESE_ANSWER_WORDS,
    AnswerWords,
    answer_words,
    answer_words_for,
)
from forge.core.document.problem_language import DocumentLanguage
from forge.core.domain_types import EvidenceType
from forge.core.hypotheses.pool import GateStatus
from forge.core.session.state_codec import encode_value
from forge.core.solve.compliance_audit import ComplianceVerdict
from forge.core.solve.constraints import ConstraintOrigin
from forge.core.solve.loop import Convergence, LoopNote, NoteKind, RiskSeverity
from forge.core.verify.verdicts import VerifyStatus

TRANSLATED = [CHINESE_ANSWER_WORDS, JAPANESE_ANSWER_WORDS]
# Every enum value an AnswerPack shows in its Markdown or its JSON phrases.
SHOWN_VALUES = {
    *(v.value for v in EvidenceType),
    *(v.value for v in RiskSeverity),
    *(v.value for v in GateStatus),
    *(v.value for v in VerifyStatus),
    *(v.value for v in ConstraintOrigin),
    *(v.value for v in NoteKind),
    "validated_claim",
    UNVERIFIED,
}
KEPT_NAMES = {"AnswerPack"}
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
HTML_ENTITY = re.compile(r"&\w+;")  # the escaping of a model's "<b>" is not a fixed word


def fixed_latin_words(markdown: str, p: AnswerPack) -> set[str]:
    return set(LATIN_WORD.findall(HTML_ENTITY.sub(" ", markdown))) - data_words(p) - KEPT_NAMES


def strings_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *strings_in(v)]]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings_in(v)]
    return []


def data_words(p: AnswerPack) -> set[str]:
    return set(LATIN_WORD.findall(" ".join(strings_in(encode_value(p)))))


def full_pack(verdict: ComplianceVerdict) -> AnswerPack:
    """A pack with a failed solve, loop notes and an added constraint: every methodology line."""
    p = pack(verdict)
    note = LoopNote(NoteKind.ADDED, 1, 0, "labs start at 6")
    solve = SolveSummary(Convergence.FAILED, 1, 2, 3, ("start labs earlier",), (note,), "timeout")
    return replace(p, solve=solve)


def empty_pack() -> AnswerPack:
    p = pack()
    return replace(
        p,
        direct_answer="",
        solution_markdown="",
        key_evidence=(),
        risks=(),
        ranking=(),
        unranked=(),
        boundaries=(),
        compliance=replace(p.compliance, checks=()),
    )


def test_the_question_language_chooses_the_words() -> None:
    assert answer_words_for("How can hospitals reduce queues?") is ENGLISH_ANSWER_WORDS
    assert answer_words_for("医院如何缩短急诊排队？") is CHINESE_ANSWER_WORDS
    assert answer_words_for("救急外来の待ち時間をどう減らすか") is JAPANESE_ANSWER_WORDS
    assert answer_words(DocumentLanguage.EN).sections == ANSWER_SECTIONS


@pytest.mark.parametrize("verdict", list(ComplianceVerdict))
def test_english_words_render_the_default_bytes(verdict: ComplianceVerdict) -> None:
    p = full_pack(verdict)
    assert render_answer_markdown(p, ENGLISH_ANSWER_WORDS) == render_answer_markdown(p)


@pytest.mark.parametrize("words", TRANSLATED, ids=["zh", "ja"])
@pytest.mark.parametrize("verdict", list(ComplianceVerdict))
def test_a_translated_answer_keeps_no_english_fixed_word(words: AnswerWords, verdict: ComplianceVerdict) -> None:
    p = full_pack(verdict)
    markdown = render_answer_markdown(p, words)
    assert [line[3:] for line in markdown.splitlines() if line.startswith("## ")] == list(words.sections)
    assert fixed_latin_words(markdown, p) == set()
    mark = {
        ComplianceVerdict.PASS: words.verdict_pass,
        ComplianceVerdict.VIOLATION: words.verdict_violation,
        ComplianceVerdict.UNCLEAR: words.verdict_unclear,
    }[verdict]
    assert f"| {mark} |" in markdown


@pytest.mark.parametrize("words", TRANSLATED, ids=["zh", "ja"])
def test_translated_empty_sections_say_so_in_their_language(words: AnswerWords) -> None:
    p = empty_pack()
    markdown = render_answer_markdown(p, words)
    for note in (words.no_answer, words.no_solution, words.no_evidence, words.no_risk, words.ranking_empty):
        assert f"_{note}_" in markdown
    assert f"_{words.no_constraint}_" in markdown
    assert fixed_latin_words(markdown, p) == set()


def test_every_translation_fills_the_same_placeholders_as_english() -> None:
    placeholder = re.compile(r"\{(\w+)")
    for f in fields(AnswerWords):
        english = getattr(ENGLISH_ANSWER_WORDS, f.name)
        for words in TRANSLATED:
            translated = getattr(words, f.name)
            if isinstance(english, str):
                assert sorted(placeholder.findall(translated)) == sorted(placeholder.findall(english)), f.name
            elif isinstance(english, tuple):
                assert len(translated) == len(english) == len(ANSWER_SECTIONS)
            else:  # value labels: English reads the values as they are
                assert set(translated) == SHOWN_VALUES, f.name


def test_a_translated_pack_labels_relations_severities_statuses_and_origins() -> None:
    p = full_pack(ComplianceVerdict.VIOLATION)
    for words in TRANSLATED:
        markdown = render_answer_markdown(p, words)
        risk = p.risks[0]
        assert f"**{words.label(risk.severity)}**" in markdown and f"**{risk.severity}**" not in markdown
        check = p.compliance.checks[0]
        assert f"| {words.label(check.origin.value)} |" in markdown
        assert words.label(NoteKind.ADDED.value) in markdown and NoteKind.ADDED.value not in markdown

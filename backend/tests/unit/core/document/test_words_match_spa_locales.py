"""The documents' fixed words and the SPA's locales name the same things the same way.

The Knowledge Document and the AnswerPack (forge/core/document/words.py, forge/core/answer/words.py)
and the browser app (frontend/src/i18n/locales/{en,zh,ja}.json) show the same facts: a claim's
status, a section title, a risk's severity, a constraint's origin. Each overlap is listed here once,
as (words of the backend, key of the SPA), and must read the same in every language after the
document's own decoration is set aside: Markdown emphasis, a section's number, a verdict's emoji,
a trailing full stop, letter case. Where the two differed, the clearer word was kept on both sides.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from forge.core.answer.words import AnswerWords, answer_words
from forge.core.document.problem_language import DocumentLanguage
from forge.core.document.words import DocumentWords, document_words
from forge.core.domain_types import ClaimConfidence, ClaimStatus, EvidenceType, ReframingType, SemanticDistance
from forge.core.solve.constraints import ConstraintOrigin
from forge.core.verify.verdicts import VerifyStatus

LOCALES = Path(__file__).resolve().parents[5] / "frontend" / "src" / "i18n" / "locales"
LANGUAGES = {DocumentLanguage.EN: "en", DocumentLanguage.ZH: "zh", DocumentLanguage.JA: "ja"}
TRANSLATED = (DocumentLanguage.ZH, DocumentLanguage.JA)
DECORATION = re.compile(r"^[\s*_#✅❌❔-]*(?:\d+\.\s*)?|[\s*_.。]*$")

Doc = Callable[[DocumentWords], str]
Ans = Callable[[AnswerWords], str]

# A document's word and the SPA's key for the same fact, compared whole.
DOCUMENT_SAME: list[tuple[str, Doc, str]] = [
    ("title", lambda w: w.title_alone, "report.heading"),
    ("section 4", lambda w: w.sections[3], "explore.analogiesTitle"),
    ("section 7", lambda w: w.sections[6], "session.tab.graph"),
    ("section 8", lambda w: w.sections[7], "build.negativeTitle"),
    ("morphological box", lambda w: w.morphological_box, "explore.boxTitle"),
    ("adjacent possible", lambda w: w.adjacent_possible, "explore.adjacentTitle"),
    ("thesis", lambda w: w.claim_thesis, "claim.thesis"),
    ("antithesis", lambda w: w.claim_antithesis, "claim.antithesis"),
    ("qualification", lambda w: w.claim_qualification, "claim.qualification"),
    ("direct answer", lambda w: w.direct_answer_heading, "answer.direct"),
]
# A template of the document that must contain the SPA's word (the score names in the scores line).
DOCUMENT_CONTAINS: list[tuple[str, Doc, str]] = [
    (f"score {name}", lambda w: w.claim_scores, f"claim.{name}")
    for name in ("novelty", "groundedness", "falsifiability", "significance")
]
ANSWER_SAME: list[tuple[str, Ans, str]] = [
    ("section direct answer", lambda w: w.sections[0], "answer.direct"),
    ("section key evidence", lambda w: w.sections[2], "answer.keyEvidence"),
    ("section risks", lambda w: w.sections[3], "answer.risks"),
    ("section ranking", lambda w: w.sections[4], "answer.ranking"),
    ("section compliance", lambda w: w.sections[5], "answer.compliance"),
    ("section methodology", lambda w: w.sections[6], "answer.methodology"),
    ("verdict pass", lambda w: w.verdict_pass, "answer.pass"),
    ("verdict violation", lambda w: w.verdict_violation, "answer.violation"),
    ("verdict unclear", lambda w: w.verdict_unclear, "answer.unclear"),
    ("converged", lambda w: w.convergence_converged, "answer.convergence.zero_high_risks"),
    ("limits", lambda w: w.convergence_limits, "answer.convergence.limits_reached"),
    ("no new constraint", lambda w: w.convergence_no_new, "answer.convergence.no_new_constraints"),
    ("failed", lambda w: w.convergence_failed, "answer.convergence.failed"),
    ("none", lambda w: w.none, "answer.none"),
    ("no evidence", lambda w: w.no_evidence, "answer.noEvidence"),
    ("empty pool", lambda w: w.ranking_empty, "answer.poolEmpty"),
    ("validated claim", lambda w: w.validated_claim, "answer.validatedClaimRelation"),
]
ANSWER_CONTAINS: list[tuple[str, Ans, str]] = [
    ("source domains", lambda w: w.source_domains, "answer.sourceDomains"),
    ("operators", lambda w: w.operators, "answer.operators"),
    ("models", lambda w: w.models, "answer.models"),
    ("spend", lambda w: w.spend, "answer.spend"),
    ("solve", lambda w: w.solve, "answer.solve"),
]
# Enum values both show: the document's `label(value)` against the SPA's key for that value.
DOCUMENT_VALUES: list[tuple[str, str]] = [
    *((s.value, f"claimStatus.{s.value}") for s in ClaimStatus),
    *((c.value, f"confidence.{c.value}") for c in ClaimConfidence),
    *((e.value, f"evidenceType.{e.value}") for e in EvidenceType),
    *((r.value, f"reframingType.{r.value}") for r in ReframingType),
    *((d.value, f"distance.{d.value}") for d in SemanticDistance),
]
ANSWER_VALUES: list[tuple[str, str]] = [
    *((e.value, f"evidenceType.{e.value}") for e in EvidenceType),
    ("high", "answer.severityHigh"),
    ("medium", "answer.severityMedium"),
    ("low", "answer.severityLow"),
    (ConstraintOrigin.USER.value, "answer.originUser"),
    (ConstraintOrigin.DOMAIN.value, "answer.originDomain"),
    (ConstraintOrigin.RISK_REFINEMENT.value, "answer.originRisk"),
    *((s.value, f"verify.status.{s.value}") for s in VerifyStatus),
    ("unverified", "answer.notVerified"),  # a ranked hypothesis VERIFY never saw
]
# The English documents print these values as the wire spells them (their bytes are pinned); the
# SPA words them for reading ("scope change", "near distance"). Only the translations are compared.
ENGLISH_PRINTS_THE_VALUE = ("reframingType.", "distance.", "answer.originRisk")


def _locale(language: DocumentLanguage) -> Mapping[str, Any]:
    loaded: Mapping[str, Any] = json.loads((LOCALES / f"{LANGUAGES[language]}.json").read_text(encoding="utf-8"))
    return loaded


def spa_word(language: DocumentLanguage, key: str) -> str:
    node: Any = _locale(language)
    for part in key.split("."):
        node = node[part]
    assert isinstance(node, str), key
    return node


def bare(text: str) -> str:
    return DECORATION.sub("", text).casefold()


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize(("fact", "word", "key"), DOCUMENT_SAME, ids=[f for f, _, _ in DOCUMENT_SAME])
def test_document_words_read_as_the_spa_says(language: DocumentLanguage, fact: str, word: Doc, key: str) -> None:
    assert bare(word(document_words(language))) == bare(spa_word(language, key)), fact


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize(("fact", "word", "key"), DOCUMENT_CONTAINS, ids=[f for f, _, _ in DOCUMENT_CONTAINS])
def test_document_templates_use_the_spa_word(language: DocumentLanguage, fact: str, word: Doc, key: str) -> None:
    assert spa_word(language, key).casefold() in word(document_words(language)).casefold(), fact


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize(("fact", "word", "key"), ANSWER_SAME, ids=[f for f, _, _ in ANSWER_SAME])
def test_answer_words_read_as_the_spa_says(language: DocumentLanguage, fact: str, word: Ans, key: str) -> None:
    assert bare(word(answer_words(language))) == bare(spa_word(language, key)), fact


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize(("fact", "word", "key"), ANSWER_CONTAINS, ids=[f for f, _, _ in ANSWER_CONTAINS])
def test_answer_templates_use_the_spa_word(language: DocumentLanguage, fact: str, word: Ans, key: str) -> None:
    assert spa_word(language, key).casefold() in word(answer_words(language)).casefold(), fact


def _compared(language: DocumentLanguage, pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    if language is not DocumentLanguage.EN:
        return pairs
    return [(v, k) for v, k in pairs if not k.startswith(ENGLISH_PRINTS_THE_VALUE)]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_document_value_labels_are_the_spa_labels(language: DocumentLanguage) -> None:
    words = document_words(language)
    differ = {
        key: (words.label(value), spa_word(language, key))
        for value, key in _compared(language, DOCUMENT_VALUES)
        if bare(words.label(value)) != bare(spa_word(language, key))
    }
    assert differ == {}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_answer_value_labels_are_the_spa_labels(language: DocumentLanguage) -> None:
    words = answer_words(language)
    differ = {
        key: (words.label(value), spa_word(language, key))
        for value, key in _compared(language, ANSWER_VALUES)
        if bare(words.label(value)) != bare(spa_word(language, key))
    }
    assert differ == {}


def test_every_translated_value_label_is_checked() -> None:
    # A label added to the translated words without an entry above would escape the check.
    checked = {v for v, _ in DOCUMENT_VALUES}
    for language in TRANSLATED:
        assert set(document_words(language).value_labels) <= checked
        answer_only = set(answer_words(language).value_labels) - {v for v, _ in ANSWER_VALUES}
        assert answer_only <= ANSWER_ONLY_VALUES, answer_only - ANSWER_ONLY_VALUES


# Values only the AnswerPack words (the SPA shows them raw or not at all): Solve's note kinds.
ANSWER_ONLY_VALUES = {
    "validated_claim",
    "constraint_reframe_triggered",
    "constraint_added",
    "constraint_duplicate",
    "constraint_conflict_detected",
    "constraint_pruned",
}


def test_decoration_is_all_that_is_set_aside() -> None:
    assert bare("**4. Cross-Domain Analogies**") == "cross-domain analogies"
    assert bare("✅ pass") == bare("Pass") == "pass"
    assert bare("已收敛：最后一次审查没有发现高风险。") == "已收敛：最后一次审查没有发现高风险"
    assert bare("No risk.") != bare("No risks.")

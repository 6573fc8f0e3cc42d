"""One item's work: each arm's answer, its score (against the gold words, or by the judge), and the
judge's pairwise preference asked in both orders.

Invariants:
    - The judge never learns the arm: it sees answer texts only, as "the answer" or "Answer A/B".
    - A model failure is recorded as an answer-less result with its message (it scores the lowest),
      never raised; cost counts every call made, including failed ones.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from forge.bootstrap.evaluation_models import EvaluationModel, EvaluationModels
from forge.core.evaluation.records import (
    Arm,
    EvalItem,
    ItemResult,
    MacGyverItem,
    MooseChemItem,
    PairwiseResult,
    Preference,
    ScanItem,
    Suite,
)
from forge.core.evaluation.scoring import (
    macgyver_score,
    matched_score,
    one_to_one,
    pairwise_winner,
    parse_mapping_lines,
    scan_correct,
)
from forge.core.llm.pricing import cost_of
from forge.engine.evaluation.answer_requests import SURVEY_CHARS, concept_mapping_request, direct_request
from forge.engine.evaluation.judge_requests import macgyver_grade_request, matched_score_request, pairwise_request
from forge.evaluation.engine_sessions import SessionAnswer
from forge.ports import OutputT, StructuredFailure, StructuredRequest, StructuredResult


class SessionArm(Protocol):
    @property
    def label(self) -> str: ...

    async def answer(self, problem: str) -> SessionAnswer: ...


@dataclass(frozen=True, slots=True)
class Answer:
    text: str
    cost_usd: float
    model: str
    mapping: dict[str, str] | None = None  # SCAN: target -> source
    error: str = ""


async def _ask(model: EvaluationModel, request: StructuredRequest[OutputT]) -> tuple[OutputT | None, float, str]:
    result = await model.structured.generate(request)
    cost = cost_of(result.usage, model.price)
    if isinstance(result, StructuredFailure):
        return None, cost, result.message
    assert isinstance(result, StructuredResult)
    return result.value, cost, ""


def session_problem(item: EvalItem) -> str:
    if isinstance(item, MacGyverItem):
        return item.problem
    if isinstance(item, MooseChemItem):
        return f"{item.question}\n\nBackground survey:\n{item.survey[: SURVEY_CHARS // 2]}"
    return ""


async def answer_of(arm: Arm, item: EvalItem, models: EvaluationModels, sessions: SessionArm | None) -> Answer:
    generator = models.generator
    if arm == Arm.DIRECT:
        value, cost, error = await _ask(generator, direct_request(item))
        text = value.answer if value else ""
        mapping = dict(parse_mapping_lines(text)) if isinstance(item, ScanItem) else None
        return Answer(text, cost, generator.label, mapping, error)
    if isinstance(item, ScanItem):
        mapped, cost, error = await _ask(generator, concept_mapping_request(item))
        rows = [(r.target_concept, r.source_concept) for r in mapped.mapping] if mapped else []
        text = "\n".join(f"{t} -> {s}" for t, s in rows)
        return Answer(text, cost, generator.label, one_to_one(rows), error)
    if sessions is None:
        return Answer("", 0.0, generator.label, error="no session service for the engine arm")
    done = await sessions.answer(session_problem(item))
    return Answer(done.answer, done.cost_usd, done.model, None, done.error if not done.answer else "")


def _scan_result(item: ScanItem, arm: Arm, answer: Answer, seconds: float) -> ItemResult:
    right = scan_correct(item, answer.mapping or {})
    wrong = ", ".join(t for t, ok in right.items() if not ok) or "none"
    score = sum(right.values()) / len(right)
    why = f"{sum(right.values())} of {len(right)} target concepts mapped to the gold word or an alternative; wrong: {wrong}"
    return ItemResult(item.id, arm, score, why, answer.cost_usd, seconds, answer.model, answer.text)


async def _judged(item: EvalItem, answer: Answer, judge: EvaluationModel) -> tuple[float | None, str, str, float, str]:
    """(score, rationale, category, cost, error) from the judge."""
    if isinstance(item, MacGyverItem):
        grade, cost, error = await _ask(judge, macgyver_grade_request(item, answer.text))
        if grade is None:
            return None, "", "", cost, error
        return macgyver_score(grade.grade, item.solvable), grade.rationale, grade.grade.value, cost, ""
    assert isinstance(item, MooseChemItem)
    rated, cost, error = await _ask(judge, matched_score_request(item, answer.text))
    if rated is None:
        return None, "", "", cost, error
    return matched_score(rated.score), rated.rationale, "", cost, ""


async def score_of(item: EvalItem, arm: Arm, answer: Answer, models: EvaluationModels, seconds: float) -> ItemResult:
    if not answer.text:
        error = answer.error or "no answer"
        return ItemResult(item.id, arm, None, "", answer.cost_usd, seconds, answer.model, "", "", error)
    if isinstance(item, ScanItem):
        return _scan_result(item, arm, answer, seconds)
    started = time.perf_counter()
    score, why, category, cost, error = await _judged(item, answer, models.judge)
    seconds += time.perf_counter() - started
    total = answer.cost_usd + cost
    judge_error = f"judge: {error}" if error else ""
    return ItemResult(item.id, arm, score, why, total, seconds, answer.model, answer.text, category, judge_error)


async def pairwise_of(item: EvalItem, suite: Suite, engine: str, direct: str, judge: EvaluationModel) -> PairwiseResult:
    """The judge asked with the engine's answer first, then with the direct answer first."""
    first, cost_a, _ = await _ask(judge, pairwise_request(item, engine, direct, suite.value))
    second, cost_b, _ = await _ask(judge, pairwise_request(item, direct, engine, suite.value))
    engine_first = first.preferred if first else Preference.TIE
    direct_first = second.preferred if second else Preference.TIE
    why = f"engine shown first: {first.rationale if first else 'no verdict'} | direct shown first: {second.rationale if second else 'no verdict'}"
    return PairwiseResult(
        item.id, engine_first, direct_first, pairwise_winner(engine_first, direct_first), why, cost_a + cost_b
    )

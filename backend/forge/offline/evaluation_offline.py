"""The offline stand-in for `forge eval`: WORD RULES, labelled in every answer and rationale; no judgment.
Answers pair concepts by spelling; judges measure how many of the reference's terms an answer shares."""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any

from forge.core.evaluation.records import Preference
from forge.core.evaluation.scoring import MacGyverGrade
from forge.core.research.text_relevance import coverage
from forge.core.research.text_terms import salient_terms
from forge.engine.evaluation.answer_requests import AnswerContext, ConceptMappingOutput, DirectAnswerOutput
from forge.engine.evaluation.judge_requests import JudgeContext, MacGyverJudgeOutput, MatchedScoreOutput, PairwiseOutput
from forge.offline.offline_structured_model import offline_context
from forge.ports import StructuredRequest

RULE = "Offline word rule, not a judgment"


def _pairs(c: AnswerContext) -> list[tuple[str, str]]:
    return [(t, max(c.candidates, key=lambda s: SequenceMatcher(None, t, s).ratio())) for t in c.target_words]


def offline_answer(request: StructuredRequest[Any]) -> DirectAnswerOutput:
    c = offline_context(request, AnswerContext)
    text = "\n".join(f"{t} -> {s}" for t, s in _pairs(c))
    return DirectAnswerOutput(answer=text or f"Offline stand-in (no model) on: {', '.join(salient_terms(c.text))}")


def offline_mapping(request: StructuredRequest[Any]) -> ConceptMappingOutput:
    why = dict.fromkeys(("source_relation", "target_relation", "observable_link"), f"{RULE}: paired by spelling")
    pairs = _pairs(offline_context(request, AnswerContext))
    rows = [{"source_concept": s, "target_concept": t, "mapping_type": "entity", **why} for t, s in pairs]
    return ConceptMappingOutput.model_validate({"mapping": rows})


def _share(request: StructuredRequest[Any]) -> tuple[JudgeContext, list[float]]:
    c = offline_context(request, JudgeContext)
    return c, [coverage(answer, c.reference) for answer in c.answers]


def offline_grade(request: StructuredRequest[Any]) -> MacGyverJudgeOutput | MatchedScoreOutput:
    c, (share,) = _share(request)
    why = f"{RULE}: the answer shares {share:.0%} of the reference's terms."
    if request.output is MatchedScoreOutput:
        return MatchedScoreOutput(rationale=why, score=round(5 * share))
    solved = MacGyverGrade.EFFICIENT if share >= 0.5 else MacGyverGrade.INFEASIBLE
    grade = solved if c.solvable else MacGyverGrade.WRONG_SOLUTION
    return MacGyverJudgeOutput(rationale=why, grade=grade)


def offline_preference(request: StructuredRequest[Any]) -> PairwiseOutput:
    _, (a, b) = _share(request)
    preferred = Preference.TIE if abs(a - b) < 0.05 else Preference.A if a > b else Preference.B
    why = f"{RULE}: A shares {a:.0%}, B {b:.0%} of the reference's terms."
    return PairwiseOutput(rationale=why, preferred=preferred)

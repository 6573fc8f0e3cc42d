"""The judge's exchange with a scripted model: one grade per answer, then the pairwise preference asked
with the engine's answer first and again with the direct answer first, blind to the arm; a judge
that keeps preferring one position makes a tie."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from forge.bootstrap.evaluation_models import EvaluationModel, EvaluationModels
from forge.core.evaluation.records import Arm, MacGyverItem, Preference, Suite
from forge.core.evaluation.scoring import MacGyverGrade
from forge.core.llm.messages import Usage
from forge.core.llm.pricing import ModelPrice
from forge.engine.evaluation.answer_requests import DirectAnswerOutput
from forge.engine.evaluation.judge_requests import MacGyverJudgeOutput, PairwiseOutput
from forge.evaluation.engine_sessions import SessionAnswer
from forge.evaluation.run_evaluation import EvalOptions, EvalOutcome, run_evaluation
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

ITEM = MacGyverItem(
    "541", "Reach a key under the sofa. Tools available: a spoon, a string.", True, "Step1: tie<br>Step2: pull"
)
ENGINE_ANSWER = "Tie the string to the spoon and sweep the key out."
DIRECT_ANSWER = "Lift the sofa."


class ScriptedStructured:
    """Answers requests in order from a script; records each request it was sent."""

    def __init__(self, script: list[BaseModel], label: str) -> None:
        self.script = list(script)
        self.sent: list[StructuredRequest[Any]] = []
        self._label = label

    @property
    def label(self) -> str:
        return self._label

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.sent.append(request)
        value = self.script.pop(0)
        assert isinstance(value, request.output), f"{request.name} got a {type(value).__name__}"
        return StructuredResult(value, Usage(input_tokens=1000, output_tokens=100), 1)


class ScriptedSessions:
    def __init__(self) -> None:
        self.problems: list[str] = []

    @property
    def label(self) -> str:
        return "generator-model"

    async def answer(self, problem: str) -> SessionAnswer:
        self.problems.append(problem)
        return SessionAnswer(ENGINE_ANSWER, 0.5, "generator-model")


PRICE = ModelPrice(input=1.0, output=10.0, cache_write=1.25, cache_read=0.1)


def _models(judge_script: list[BaseModel]) -> tuple[EvaluationModels, ScriptedStructured, ScriptedStructured]:
    generator = ScriptedStructured([DirectAnswerOutput(answer=DIRECT_ANSWER)], "generator-model")
    judge = ScriptedStructured(judge_script, "judge-model")
    models = EvaluationModels(
        EvaluationModel(generator, "generator-model", PRICE, "anthropic"),
        EvaluationModel(judge, "judge-model", PRICE, "openai"),
        offline=False,
    )
    return models, generator, judge


def _data(tmp_path: Path) -> Path:
    row = {
        "id": ITEM.id,
        "problem": ITEM.problem,
        "solvable": True,
        "unconventional": True,
        "solution": ITEM.solution,
        "label": "none",
    }
    path = tmp_path / "macgyver.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    return path


def _grades() -> list[BaseModel]:
    return [
        MacGyverJudgeOutput(rationale="works with the given items", grade=MacGyverGrade.EFFICIENT),
        MacGyverJudgeOutput(rationale="uses no given item", grade=MacGyverGrade.INFEASIBLE),
    ]


async def test_the_judge_grades_each_answer_then_compares_them_in_both_orders(tmp_path: Path) -> None:
    script = [
        *_grades(),
        PairwiseOutput(rationale="A uses the spoon", preferred=Preference.A),
        PairwiseOutput(rationale="B uses the spoon", preferred=Preference.B),
    ]
    models, generator, judge = _models(script)
    sessions = ScriptedSessions()
    options = EvalOptions(Suite.MACGYVER, _data(tmp_path), tmp_path / "out", quiet=True)
    outcome = await run_evaluation(options, models, sessions)
    assert isinstance(outcome, EvalOutcome)
    assert sessions.problems == [ITEM.problem]
    assert [r.name for r in generator.sent] == ["answer"]
    assert ITEM.problem in generator.sent[0].input and "using only the items it lists" in generator.sent[0].input
    assert [r.name for r in judge.sent] == ["record_grade", "record_grade", "record_preference", "record_preference"]
    engine_grade, direct_grade, engine_first, direct_first = judge.sent
    assert engine_grade.input.endswith(f"The answer:\n{ENGINE_ANSWER}")
    assert direct_grade.input.endswith(f"The answer:\n{DIRECT_ANSWER}")
    assert (
        "marked it solvable" in engine_grade.instructions
        and "Reference solution:\nStep1: tie\nStep2: pull" in engine_grade.input
    )
    assert engine_first.input.endswith(f"Answer A:\n{ENGINE_ANSWER}\n\nAnswer B:\n{DIRECT_ANSWER}")
    assert direct_first.input.endswith(f"Answer A:\n{DIRECT_ANSWER}\n\nAnswer B:\n{ENGINE_ANSWER}")
    for request in judge.sent:  # blind: nothing names the arm or the product
        seen = f"{request.instructions}\n{request.input}".casefold()
        assert "engine" not in seen and "direct" not in seen and "forge" not in seen
    report = json.loads(outcome.report.read_text(encoding="utf-8"))
    assert report["pairwise"]["engine"] == 1 and report["pairwise"]["items"][0]["winner"] == "engine"
    assert report["summary"]["engine"]["mean"] == 1.0 and report["summary"]["direct"]["mean"] == 0.0
    scores = {i["arm"]: (i["score"], i["category"], i["model"]) for i in report["items"]}
    assert scores == {"engine": (1.0, "efficient", "generator-model"), "direct": (0.0, "infeasible", "generator-model")}
    assert report["models"] == {"generator": "generator-model", "judge": "judge-model"} and report["judge_other_family"]
    direct_cost = report["items"][1]["cost_usd"]
    assert direct_cost == 2 * (1000 * 1.0 + 100 * 10.0) / 1e6  # its answer and its grade, at the scripted price


async def test_a_judge_that_prefers_the_first_answer_in_both_orders_is_a_tie(tmp_path: Path) -> None:
    script = [
        *_grades(),
        PairwiseOutput(rationale="A first", preferred=Preference.A),
        PairwiseOutput(rationale="A first", preferred=Preference.A),
    ]
    models, _, _ = _models(script)
    options = EvalOptions(Suite.MACGYVER, _data(tmp_path), tmp_path / "out", quiet=True)
    outcome = await run_evaluation(options, models, ScriptedSessions())
    assert isinstance(outcome, EvalOutcome)
    pairwise = json.loads(outcome.report.read_text(encoding="utf-8"))["pairwise"]
    assert (pairwise["engine"], pairwise["tie"], pairwise["direct"]) == (0, 1, 0)
    assert pairwise["items"][0]["engine_first"] == "A" and pairwise["items"][0]["direct_first"] == "A"


async def test_the_budget_stops_the_evaluation_before_the_next_item(tmp_path: Path) -> None:
    models, generator, judge = _models(_grades())
    options = EvalOptions(
        Suite.MACGYVER, _data(tmp_path), tmp_path / "out", arms=(Arm.ENGINE, Arm.DIRECT), budget_usd=0.1, quiet=True
    )
    outcome = await run_evaluation(options, models, ScriptedSessions())
    assert isinstance(outcome, EvalOutcome) and "FORGE_BUDGET_USD=0.1" in outcome.stopped
    assert generator.sent == [] and [r.name for r in judge.sent] == ["record_grade"]  # the session cost 0.5
    assert "Stopped early" in outcome.markdown.read_text(encoding="utf-8")

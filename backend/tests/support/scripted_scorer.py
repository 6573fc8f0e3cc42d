"""A scripted verifier for the hypothesis-scoring call: answers `score_hypotheses` with the scores a
test chooses per hypothesis (reasoning first, as the schema asks), keeps every request, and hands any
other request to an inner structured model (the offline generators, say). `word_rule_scorer` answers
with the word rules' scores: what the fake provider servers of the whole-session tests serve."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.hypotheses.scores import score_hypothesis
from forge.core.llm.messages import Usage
from forge.core.selection.composite_score import ScoreVector
from forge.engine.verify.score_hypotheses import HypothesisScoreItem, HypothesisScoresOutput, ScoreBatch
from forge.ports import StructuredFailure, StructuredModel, StructuredRequest, StructuredResult

USAGE_PER_ITEM = Usage(900, 350)  # what the scripted answer reports per hypothesis


def score_item(hid: str, s: ScoreVector) -> HypothesisScoreItem:
    return HypothesisScoreItem(
        item_id=hid,
        divergence_reasoning="scripted: distance from known methods",
        divergence=s.divergence,
        testability_reasoning="scripted: how testable",
        testability=s.testability,
        rationale_reasoning="scripted: does the mechanism hold",
        rationale=s.rationale,
        robustness_reasoning="scripted: overfitting risk",
        robustness=s.robustness,
        feasibility_reasoning="scripted: data availability",
        feasibility=s.feasibility,
    )


class ScriptedScorer:
    """`score_of(h, frame)` is the answer for each hypothesis; `omit` ids are left out of every answer;
    `fail` makes every scoring call fail (as a model still invalid after its retries)."""

    def __init__(
        self,
        score_of: Callable[[Hypothesis, ProblemFrame], ScoreVector],
        inner: StructuredModel | None = None,
        omit: frozenset[str] = frozenset(),
        fail: bool = False,
        label: str = "scripted verifier",
    ) -> None:
        self.score_of, self.inner, self.omit, self.fail, self._label = score_of, inner, omit, fail, label
        self.requests: list[StructuredRequest[Any]] = []
        self.scoring: list[StructuredRequest[Any]] = []

    @property
    def label(self) -> str:
        return self._label

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        if request.output is not HypothesisScoresOutput:
            assert self.inner is not None, f"unexpected request {request.name}"
            return await self.inner.generate(request)
        self.scoring.append(request)
        batch = request.offline_context
        assert isinstance(batch, ScoreBatch)
        if self.fail:
            return StructuredFailure("invalid after 3 attempts", Usage(50, 5), 3)
        items = [score_item(h.id, self.score_of(h, batch.frame)) for h in batch.hypotheses if h.id not in self.omit]
        n = len(batch.hypotheses)
        usage = Usage(USAGE_PER_ITEM.input_tokens * n, USAGE_PER_ITEM.output_tokens * n)
        return StructuredResult(HypothesisScoresOutput(items=items), usage, 1)


def word_rule_scorer(inner: StructuredModel) -> ScriptedScorer:
    """The scoring call answered with the word rules' scores; every other request by `inner`."""
    return ScriptedScorer(score_hypothesis, inner=inner, label=inner.label)

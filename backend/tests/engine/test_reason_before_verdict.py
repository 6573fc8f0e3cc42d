"""Every judgment a model writes in a structured answer gives its reasoning before its verdict or score:
a model generates in schema order, so a score written first is a guess the reasoning then defends."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from forge.agent.phases.validate_tools import ScoreInput
from forge.engine.evaluation.judge_requests import MacGyverJudgeOutput, MatchedScoreOutput, PairwiseOutput
from forge.engine.explore.review_mapping_depth import MappingReviewOutput, RowExplanationOut
from forge.engine.saga.red_team import ChallengeOut
from forge.engine.search.transform_space import LogicCheckOutput
from forge.engine.solve.requests import CheckOut
from forge.engine.verify.requests import PriorArtJudgement, VerifyItemScores
from forge.engine.verify.research_relevance import ResultRelevance

REASONING = ("rationale", "reason", "reasons", "argument", "explanation")
JUDGED = (
    "verdict",
    "supports",
    "kinds",  # the prior-art similarity per query kind
    "analogy_validity",
    "internal_consistency",
    "causal_rigor",
    "novelty",
    "groundedness",
    "falsifiability",
    "significance",
    "systematicity",
    "depth",
    "higher_order_mapped",
    "grade",  # forge eval's judges
    "score",
    "preferred",
    "about_subject",  # the claim gates' judgment of a research result
)

JUDGMENTS: tuple[type[BaseModel], ...] = (
    VerifyItemScores,
    PriorArtJudgement,
    MappingReviewOutput,
    RowExplanationOut,
    ChallengeOut,
    CheckOut,
    LogicCheckOutput,
    ScoreInput,
    MacGyverJudgeOutput,
    MatchedScoreOutput,
    PairwiseOutput,
    ResultRelevance,
)


@pytest.mark.parametrize("model", JUDGMENTS, ids=lambda m: m.__name__)
def test_the_reasoning_field_comes_before_every_verdict_or_score(model: type[BaseModel]) -> None:
    order = list(model.model_json_schema()["properties"])
    reasoning = [order.index(name) for name in REASONING if name in order]
    judged = [order.index(name) for name in JUDGED if name in order]
    assert reasoning and judged, f"{model.__name__} has no reasoning or no judgment field: {order}"
    assert max(reasoning) < min(judged), f"{model.__name__} asks for a judgment before its reasoning: {order}"

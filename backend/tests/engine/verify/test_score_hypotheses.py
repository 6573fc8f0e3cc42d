"""The verifier's five scores of pool hypotheses, through a scripted model: what each call asks (the
frame, up to eight hypotheses by id, the reasoning before each number), the scores read by id, an
item left out asked once more alone, and a failed call reported without an invented score."""

from __future__ import annotations

from support.scripted_scorer import ScriptedScorer
from support.scripted_search import FRAME, parent

from forge.core.selection.composite_score import ScoreVector
from forge.engine.item_answers import UNANSWERED
from forge.engine.verify.score_hypotheses import (
    DIMENSIONS,
    SCORE_BATCH,
    HypothesisScoresOutput,
    score_hypotheses,
)

POOL = [parent(f"h{n}", "queue buffer", f"waits per hour {n}") for n in range(SCORE_BATCH + 3)]
PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def by_index(h: object, _frame: object = None) -> ScoreVector:
    n = float(POOL.index(h))  # type: ignore[arg-type]
    return ScoreVector(n % 10, 9.0 - n % 10, 5.0, 2.0 + n % 3, 7.0)


async def test_score_batch_hypotheses_a_call_each_read_by_id() -> None:
    model = ScriptedScorer(by_index)
    run = await score_hypotheses(model, POOL, PROBLEM, FRAME)
    assert run.calls == 2 and [len(r.offline_context.hypotheses) for r in model.scoring] == [SCORE_BATCH, 3]
    first = model.scoring[0]
    assert first.name == "score_hypotheses" and "without more staff" in first.input and PROBLEM in first.input
    assert "ids: " + ", ".join(f"h{n}" for n in range(SCORE_BATCH)) + ")" in first.input
    assert all(f"## Hypothesis h{n} (source domain: Domain h{n})" in first.input for n in range(SCORE_BATCH))
    rest = [f"h{n}" for n in range(SCORE_BATCH, SCORE_BATCH + 3)]
    assert f"## Hypothesis {rest[0]} " not in first.input and "ids: " + ", ".join(rest) in model.scoring[1].input
    for dimension in DIMENSIONS:
        assert f"- {dimension}:" in first.instructions
    assert run.scores == {h.id: by_index(h) for h in POOL} and run.failures == {}
    assert run.usage.input_tokens == 900 * len(POOL)


def test_the_schema_asks_for_each_reason_before_its_number() -> None:
    item = HypothesisScoresOutput.model_json_schema()["$defs"]["HypothesisScoreItem"]["properties"]
    order = list(item)
    assert order[0] == "item_id"
    for dimension in DIMENSIONS:
        assert order.index(f"{dimension}_reasoning") + 1 == order.index(dimension)


async def test_an_item_left_out_is_asked_alone_once_then_reported() -> None:
    model = ScriptedScorer(by_index, omit=frozenset({"h3"}))
    run = await score_hypotheses(model, POOL, PROBLEM, FRAME)
    assert run.calls == 3
    assert [h.id for h in model.scoring[-1].offline_context.hypotheses] == ["h3"]
    assert "h3" not in run.scores and run.failures == {"h3": UNANSWERED}
    assert len(run.scores) == len(POOL) - 1


async def test_a_failed_call_gives_no_score_and_says_why() -> None:
    model = ScriptedScorer(by_index, fail=True)
    run = await score_hypotheses(model, POOL[:5], PROBLEM, FRAME)
    assert run.scores == {} and run.calls == 1
    assert run.failures == {h.id: "invalid after 3 attempts" for h in POOL[:5]}

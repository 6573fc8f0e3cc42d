"""The verifier's scores drive selection and supervision, through the whole exchange at SYNTHESIZE:
the scoring call covers the pool (eight a call) before SEARCH, SEARCH's seeds are the ones its scores
select (not the word rules'), the children are scored before CP-5, and Layer 1's statistics at CP-5
are computed on the returned scores. A failed call falls back to word rules and the stage summary
says so; the offline model's word rules are labelled and make no call."""

from __future__ import annotations

import statistics

from services.test_search_stage_runs_once_per_round import DOMAINS, FRAME, PROBLEM, STRUCTURED, PoolOf, context
from support.scripted_scorer import ScriptedScorer
from support.scripted_search import parent

from forge.core.domain_types import Phase
from forge.core.hypotheses.judged_scores import ScoreSource
from forge.core.hypotheses.pool import GateStatus, Hypothesis
from forge.core.hypotheses.scores import score_pool
from forge.core.saga.records import FindingKind
from forge.core.search.seeds import select_search_seeds
from forge.core.selection.composite_score import ScoreVector, composite_score
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.engine.explore.biso import run_biso
from forge.engine.verify.score_hypotheses import SCORE_BATCH
from forge.offline.offline_model import OfflineModel
from forge.services.stages.engine_stages import EngineStages
from forge.services.stages.score_stage import ScoreStage
from forge.services.stages.supervision import Supervisor

FLAT = ScoreVector(5.0, 5.0, 5.0, 5.0, 5.0)


async def _pool() -> list[Hypothesis]:
    return list((await run_biso(STRUCTURED, PROBLEM, FRAME, DOMAINS[:6], per_domain=2)).hypotheses)


def _reversing(pool: list[Hypothesis]) -> dict[str, ScoreVector]:
    """Scores that turn the word rules' order upside down: their last is the verifier's best."""
    eligible = [h for h in pool if h.gate.status is GateStatus.PASSED]
    rules = [composite_score(s) for s in score_pool(eligible, FRAME)]
    order = sorted(range(len(eligible)), key=lambda i: rules[i])  # worst first
    return {
        eligible[i].id: ScoreVector(10.0 - step * 7, 9.5 - step * 6, 9.0 - step * 5, 8.0 - step * 5, 9.0 - step * 6)
        for rank, i in enumerate(order)
        for step in [rank / max(1, len(order) - 1)]  # 0 for their worst .. 1 for their best
    }


def _stages(pool: list[Hypothesis], scorer: ScriptedScorer | None) -> EngineStages:
    reader = PoolOf(pool)
    return EngineStages(
        STRUCTURED,
        OfflineModel(),
        DOMAINS,
        read_pool=reader,
        supervisor=Supervisor(None, OfflineModel(), DOMAINS, reader),
        scorer=ScoreStage(scorer, OfflineModel()),
    )


def _one_cell_pool() -> list[Hypothesis]:
    """Near-twins in one MOME cell (flow, aggregate), so the scores alone decide the seeds: more than
    one scoring call's worth."""
    return [parent(f"h{n}", "queue buffer flow", f"waiting room occupancy {n}") for n in range(SCORE_BATCH + 2)]


async def test_search_seeds_and_cp5_statistics_run_on_the_verifiers_scores() -> None:
    pool = _one_cell_pool()
    scores = _reversing(pool)
    scorer = ScriptedScorer(lambda h, _: scores.get(h.id, FLAT))  # the children all get the same scores
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    output = await _stages(pool, scorer).run(context(state), lambda e: None)
    assert output is not None and state.search is not None

    # what was asked: first the whole pool, SCORE_BATCH a call, then the round's children
    asked = [[h.id for h in r.offline_context.hypotheses] for r in scorer.scoring]
    pool_calls = -(-len(pool) // SCORE_BATCH)
    assert [i for ids in asked[:pool_calls] for i in ids] == [h.id for h in pool]
    assert all(len(ids) <= SCORE_BATCH for ids in asked)
    children = [h.id for h in output.hypotheses]
    assert [i for ids in asked[pool_calls:] for i in ids] == children
    assert len(scorer.scoring) == pool_calls + -(-len(children) // 8)

    # SEARCH's seeds: the selection on the verifier's scores, which the word rules would not make
    eligible = [h for h in pool if h.gate.status is GateStatus.PASSED]
    judged = select_search_seeds(eligible, FRAME, len(state.search.seeds), judged=scores).seeds
    rules = select_search_seeds(eligible, FRAME, len(state.search.seeds)).seeds
    assert state.search.seeds == judged and judged != rules
    assert all(state.hypothesis_scores[h.id].scores == scores[h.id] for h in eligible)

    # CP-5's Layer 1 reads the children's returned scores: all equal, so compression at std 0
    findings = [e.data for e in output.events if e.type is EventType.SAGA_FINDING]
    compression = next(f for f in findings if f["kind"] == FindingKind.SCORE_COMPRESSION.value)
    assert compression["statistic"] == 0.0 and set(compression["hypothesis_ids"]) == set(children)
    rule_spread = statistics.pstdev(composite_score(s) for s in score_pool(list(output.hypotheses), FRAME))
    assert rule_spread > 0.0  # the word rules would not have been flat

    summary, of_children = [e.data for e in output.events if e.data.get("stage") == "score"]
    assert of_children["counts"]["hypotheses"] == len(children)
    assert summary["counts"] == {"hypotheses": len(pool), "calls": pool_calls, "scored": len(pool), "fallback": 0}
    assert "scripted verifier scored" in summary["summary"]


async def test_a_failed_scoring_call_falls_back_to_word_rules_and_says_so() -> None:
    pool = await _pool()
    scorer = ScriptedScorer(lambda h, _: FLAT, fail=True)
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    output = await _stages(pool, scorer).run(context(state), lambda e: None)
    assert output is not None and state.search is not None
    entries = [state.hypothesis_scores[h.id] for h in pool]
    assert {e.source for e in entries} == {ScoreSource.FALLBACK_WORD_RULES}
    assert all(e.note == "invalid after 3 attempts" for e in entries)
    eligible = [h for h in pool if h.gate.status is GateStatus.PASSED]
    assert state.search.seeds == select_search_seeds(eligible, FRAME, len(state.search.seeds)).seeds
    summaries = [e.data["summary"] for e in output.events if e.data.get("stage") == "score"]
    assert "fell back to word rules because the scoring call failed (invalid after 3 attempts)" in summaries[0]


async def test_the_offline_model_scores_with_labelled_word_rules_and_no_call() -> None:
    pool = await _pool()
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    output = await _stages(pool, None).run(context(state), lambda e: None)
    assert output is not None
    assert {state.hypothesis_scores[h.id].source for h in pool} == {ScoreSource.OFFLINE_WORD_RULES}
    score_events = [e.data for e in output.events if e.data.get("stage") == "score"]
    assert score_events and all("the offline model's word rules (no model call" in e["summary"] for e in score_events)
    assert all(e["counts"]["calls"] == 0 for e in score_events)
    # a hypothesis is never scored twice: the pool's entries stand at the next round's pass
    before = dict(state.hypothesis_scores)
    assert await ScoreStage(None, OfflineModel()).score(context(state), pool, lambda p: None) == ()
    assert state.hypothesis_scores == before

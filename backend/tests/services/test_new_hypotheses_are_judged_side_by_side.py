"""The judgments of new hypotheses run side by side: at BISO the verifier's scores and CP-4's
hard-constraint check are asked while the generator reviews the mapping tables, and CP-4 then reuses
the constraint answers (no call asked twice, its summary says so). With one engine slot (a one-slot
local server) nothing overlaps: the same calls, one after the other."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from services.test_search_stage_runs_once_per_round import DOMAINS, PROBLEM, PoolOf, context
from services.test_supervision_checks_hard_constraints import OFFLINE, FlagsTheFirst, JudgeOverOffline
from support.scripted_scorer import word_rule_scorer

from forge.core.domain_types import Phase
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.offline.offline_model import OfflineModel
from forge.ports import StructuredFailure, StructuredModel, StructuredRequest, StructuredResult
from forge.services.stages.engine_stages import EngineConfig, EngineStages
from forge.services.stages.score_stage import ScoreStage
from forge.services.stages.supervision import Supervisor

WATCHED = {"record_mapping_reviews": "review", "score_hypotheses": "score", "record_constraint_check": "judge"}


class Logged:
    """Passes each call to `inner`; a watched request logs its start and end, yielding in between (as
    a call over the network would), so calls in flight together interleave in the log."""

    def __init__(self, inner: StructuredModel, log: list[str]) -> None:
        self._inner, self._log = inner, log

    @property
    def label(self) -> str:
        return self._inner.label

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        name = WATCHED.get(request.name)
        if name is None:
            return await self._inner.generate(request)
        self._log.append(f"{name} start")
        for _ in range(3):
            await asyncio.sleep(0)
        answer = await self._inner.generate(request)
        self._log.append(f"{name} end")
        return answer


async def _explore(concurrency: int) -> tuple[list[str], JudgeOverOffline, list[str]]:
    log: list[str] = []
    judge = JudgeOverOffline(FlagsTheFirst())
    supervisor = Supervisor(OFFLINE, OfflineModel(), DOMAINS, PoolOf([]), constraint_judge=Logged(judge, log))
    stages = EngineStages(
        Logged(OFFLINE, log),
        OfflineModel(),
        DOMAINS,
        EngineConfig(concurrency=concurrency),
        supervisor=supervisor,
        scorer=ScoreStage(Logged(word_rule_scorer(OFFLINE), log), OfflineModel()),
    )
    state = ForgeState(problem=PROBLEM, current_phase=Phase.DECOMPOSE)
    await stages.run(context(state), lambda e: None)  # the frame (CP-1)
    state.current_phase = Phase.EXPLORE
    output = await stages.run(context(state), lambda e: None)  # BISO, then CP-2..4
    assert output is not None and state.biso is not None
    summaries = [
        e.data["summary"]
        for e in output.events
        if e.type is EventType.SAGA_CHECKPOINT and e.data["checkpoint"] == "CP-4"
    ]
    return log, judge, summaries


def _first(log: list[str], entry: str) -> int:
    return log.index(entry)


def _last(log: list[str], entry: str) -> int:
    return len(log) - 1 - log[::-1].index(entry)


async def test_scores_and_the_constraint_check_are_asked_while_the_tables_are_reviewed() -> None:
    log, judge, (cp4,) = await _explore(concurrency=8)
    assert _first(log, "score start") < _last(log, "review end")
    assert _first(log, "judge start") < _last(log, "review end")
    assert _first(log, "judge start") < _last(log, "score end")
    fingerprints = [tuple(item.id for item in batch.items) for batch in judge.checks]
    assert len(fingerprints) == len(set(fingerprints))  # CP-4 asked nothing the judge had answered
    assert f"judged in {len(judge.checks)} call(s) asked ahead of this checkpoint, while the verifier scored" in cp4


async def test_with_one_slot_the_same_calls_run_one_after_the_other() -> None:
    log, judge, (cp4,) = await _explore(concurrency=1)
    starts_and_ends = [entry.split() for entry in log]
    for (name, what), (next_name, _) in itertools.pairwise(starts_and_ends):
        if what == "start":
            assert next_name == name  # each call ends before the next one starts
    assert _last(log, "review end") < _first(log, "score start") < _last(log, "score end") < _first(log, "judge start")
    assert f"judged in {len(judge.checks)} call(s) asked ahead of this checkpoint" in cp4


async def test_the_same_pool_is_judged_with_the_same_calls_whatever_the_slots() -> None:
    side_by_side, judge_a, _ = await _explore(concurrency=8)
    one_by_one, judge_b, _ = await _explore(concurrency=1)
    assert sorted(side_by_side) == sorted(one_by_one)
    assert [b.items for b in judge_a.checks] == [b.items for b in judge_b.checks]

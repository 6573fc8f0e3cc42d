"""The C-K coordinator moves in a supervised session: a SEARCH round whose children fill no new MOME
region (coverage plateau) turns the session to knowledge expansion at its CP-5; a later round that
found an HKG path (a hyperpath_expand child: structure found) turns it back to concepts."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from services.test_search_stage_runs_once_per_round import DOMAINS, FRAME, PROBLEM, PoolOf
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.hypotheses.pool import Hypothesis
from forge.core.saga.ck import Space
from forge.core.saga.records import FastEvent
from forge.core.search.seeds import pool_coverage
from forge.core.search.summary import SearchSummary
from forge.core.session.forge_state import ForgeState
from forge.engine.explore.biso import BisoOutput, run_biso
from forge.offline.explore.biso_offline import offline_biso
from forge.offline.offline_model import OfflineModel
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.services.stages.supervision import Supervisor

STRUCTURED = OfflineStructuredModel({BisoOutput: offline_biso})
START = datetime(2026, 1, 1, tzinfo=UTC)


def context(state: ForgeState, at: datetime) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(at), ids, "offline")


def searched(round_: int, depth: int, coverage: float) -> SearchSummary:
    return replace(SearchSummary(round_, "interactive", "mome", (), 4, 6, 2), depth=depth, coverage_ratio=coverage)


async def test_a_plateau_turns_to_knowledge_and_a_found_structure_back_to_concepts() -> None:
    pool = (await run_biso(STRUCTURED, PROBLEM, FRAME, DOMAINS[:6], per_domain=2)).hypotheses
    parent, *rest = pool
    children: list[Hypothesis] = [replace(rest[0], id=f"{rest[0].id}-refine", operator="refine", parents=(parent.id,))]
    supervisor = Supervisor(None, OfflineModel(), DOMAINS, PoolOf([*pool, *children]))
    before = pool_coverage([*pool, *children], FRAME)
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE, search=searched(0, 1, before))

    await supervisor.supervise(context(state, START), children)
    sup = state.supervision
    assert sup is not None and sup.ck.space is Space.KNOWLEDGE
    assert [t.trigger.value for t in sup.ck.transitions] == ["coverage_plateau"]
    assert sup.coverage == (round(before, 4),)

    structural = [replace(rest[1], id=f"{rest[1].id}-hyper", operator="hyperpath_expand", parents=(parent.id,))]
    state.search = searched(0, 2, 0.0)  # the round's seeds were chosen on an empty grid: no plateau
    events = await supervisor.supervise(context(state, START + timedelta(minutes=1)), structural)
    sup = state.supervision
    assert sup is not None and sup.ck.space is Space.CONCEPT
    assert [t.trigger.value for t in sup.ck.transitions] == ["coverage_plateau", "structure_found"]
    (audit,) = [e.data for e in events if e.type.value == "saga_checkpoint"]
    assert FastEvent.HKG_PATH_FOUND.value in audit["fast_events"] and "(SEARCH round 2)" in audit["summary"]

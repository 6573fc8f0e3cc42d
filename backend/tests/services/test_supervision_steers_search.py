"""SAGA beside the SYNTHESIZE stage: the supervisor's directives steer the SEARCH round (flagged
hypotheses are never seeds, quota changes apply, nothing is expanded while paused), and CP-5 runs
after the round with its findings, directives, red team and audit as events of the same step."""

from __future__ import annotations

from dataclasses import replace

from services.test_search_stage_runs_once_per_round import DOMAINS, FRAME, PROBLEM, PoolOf
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.saga.records import FindingId
from forge.core.saga.state import SupervisionState
from forge.core.search.plan import RuntimeProfile, SearchOperator
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.engine.explore.biso import BisoOutput, run_biso
from forge.engine.saga.red_team import RedTeamOutput
from forge.engine.search.operators import OperatorOutput
from forge.offline.explore.biso_offline import offline_biso
from forge.offline.offline_model import OfflineModel
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.offline.saga.red_team_offline import offline_red_team
from forge.offline.search.search_offline import offline_search
from forge.ports import OutputT, StructuredFailure, StructuredRequest, StructuredResult
from forge.services.stages.engine_stages import EngineConfig, EngineStages
from forge.services.stages.supervision import Supervisor, supervised_quotas

STRUCTURED = OfflineStructuredModel(
    {BisoOutput: offline_biso, OperatorOutput: offline_search, RedTeamOutput: offline_red_team}
)


def context(state: ForgeState) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, "offline")


async def _stages_over_pool():
    pool = (await run_biso(STRUCTURED, PROBLEM, FRAME, DOMAINS[:6], per_domain=2)).hypotheses
    reader = PoolOf(pool)
    supervisor = Supervisor(STRUCTURED, OfflineModel(), DOMAINS, reader)
    return pool, EngineStages(STRUCTURED, OfflineModel(), DOMAINS, read_pool=reader, supervisor=supervisor)


async def test_flagged_hypotheses_are_never_seeds_and_cp5_reports_with_the_round() -> None:
    pool, stages = await _stages_over_pool()
    unsupervised = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    await EngineStages(STRUCTURED, OfflineModel(), DOMAINS, read_pool=PoolOf(pool)).run(
        context(unsupervised), lambda e: None
    )
    assert unsupervised.search is not None
    first_seeds = unsupervised.search.seeds

    state = ForgeState(
        problem=PROBLEM, current_phase=Phase.SYNTHESIZE, supervision=SupervisionState(flagged=first_seeds[:1])
    )
    output = await stages.run(context(state), lambda e: None)
    assert output is not None and state.search is not None
    assert first_seeds[0] not in state.search.seeds
    types = [e.type for e in output.events]
    assert types[-1] is EventType.SAGA_CHECKPOINT
    audit = output.events[-1].data
    assert audit["checkpoint"] == "CP-5" and "Red team" in audit["summary"]
    assert state.supervision is not None and state.supervision.has_checkpoint("CP-5", 0)
    assert state.supervision.budget.spent["adversarial_eval"] > 0


async def test_a_paused_pipeline_expands_nothing() -> None:
    _, stages = await _stages_over_pool()
    state = ForgeState(
        problem=PROBLEM,
        current_phase=Phase.SYNTHESIZE,
        supervision=SupervisionState(paused_by=FindingId("CP-4-r0-hard_constraint_violation")),
    )
    await stages.run(context(state), lambda e: None)
    assert state.search is not None and state.search.calls == 0


def test_quota_directives_reach_the_search_round() -> None:
    state = ForgeState(problem=PROBLEM)
    assert supervised_quotas(state, RuntimeProfile.INTERACTIVE) is None
    state.supervision = replace(SupervisionState(), quota_changes={"extreme": 2, "oppose": -5})
    quotas = supervised_quotas(state, RuntimeProfile.INTERACTIVE)
    assert quotas is not None
    assert quotas[SearchOperator.EXTREME] == 3 and quotas[SearchOperator.OPPOSE] == 0


async def test_the_supervisor_audits_every_search_round_of_the_research_profile() -> None:
    pool = (await run_biso(STRUCTURED, PROBLEM, FRAME, DOMAINS[:6], per_domain=2)).hypotheses
    reader = PoolOf(pool)
    supervisor = Supervisor(STRUCTURED, OfflineModel(), DOMAINS, reader)
    config = EngineConfig(search_profile=RuntimeProfile.RESEARCH)
    assert config.search_rounds == 2
    stages = EngineStages(STRUCTURED, OfflineModel(), DOMAINS, config, read_pool=reader, supervisor=supervisor)
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    audits = []
    while stages.pending_stage(state) is not None:
        output = await stages.run(context(state), lambda e: None)
        assert output is not None
        audits += [e.data for e in output.events if e.type is EventType.SAGA_CHECKPOINT]
    assert state.search is not None and state.search.depth == 2
    assert state.search.candidates and all(c.operator != "biso" for c in state.search.candidates)
    assert [a["checkpoint"] for a in audits] == ["CP-5", "CP-5"]
    assert "(SEARCH round 2)" in audits[1]["summary"] and "(SEARCH round" not in audits[0]["summary"]
    sup = state.supervision
    assert sup is not None and sup.has_checkpoint("CP-5", 0, 1) and sup.has_checkpoint("CP-5", 0, 2)
    second = [f.id for f in sup.findings if f.id.startswith("CP-5-r0-s2-")]
    assert set(audits[1]["finding_ids"]) == set(second)  # the second pass's findings are its own


class RecordingRedTeam(OfflineStructuredModel):
    """The offline generators, keeping every red-team request's input."""

    def __init__(self) -> None:
        super().__init__({BisoOutput: offline_biso, OperatorOutput: offline_search, RedTeamOutput: offline_red_team})
        self.red_team_inputs: list[str] = []

    async def generate(self, request: StructuredRequest[OutputT]) -> StructuredResult[OutputT] | StructuredFailure:
        if request.output is RedTeamOutput:
            self.red_team_inputs.append(request.input)
        return await super().generate(request)


async def test_the_red_team_is_never_sent_a_request_it_already_answered() -> None:
    """A new round's CP-5 over an unchanged top-3 asks the red team nothing new (it pays for nothing)."""
    pool = (await run_biso(STRUCTURED, PROBLEM, FRAME, DOMAINS[:6], per_domain=2)).hypotheses
    red_team = RecordingRedTeam()
    supervisor = Supervisor(red_team, OfflineModel(), DOMAINS, PoolOf(pool))
    searched = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    await EngineStages(STRUCTURED, OfflineModel(), DOMAINS, read_pool=PoolOf(pool)).run(
        context(searched), lambda e: None
    )
    assert searched.search is not None
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE, search=searched.search)
    await supervisor.supervise(context(state), ())
    first = list(red_team.red_team_inputs)
    state.current_round, state.search = 1, replace(searched.search, round=1)
    await supervisor.supervise(context(state), ())
    sup = state.supervision
    assert sup is not None and sup.has_checkpoint("CP-5", 0) and sup.has_checkpoint("CP-5", 1)
    assert len(first) == 1 and "Challenge these 3 targets" in first[0]  # the top-3, in one call
    assert red_team.red_team_inputs == first  # round 1 sent the red team nothing
    assert len(sup.challenged) == 3
    second = next(c for c in sup.checkpoints if c.round == 1)
    assert "Red team: its targets were challenged before, unchanged." in second.summary

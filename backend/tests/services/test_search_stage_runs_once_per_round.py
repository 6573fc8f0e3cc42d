"""The SYNTHESIZE engine stage: one SEARCH round over the pool it reads, once per session round, and
only when the pool can be read."""

from __future__ import annotations

from collections.abc import Sequence

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.shipped_triz import SHIPPED_TRIZ

from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis
from forge.core.session.forge_state import ForgeState
from forge.engine.explore.biso import BisoOutput, run_biso
from forge.engine.search.operators import OperatorOutput
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.explore.biso_offline import offline_biso
from forge.offline.offline_model import OfflineModel
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.offline.search.search_offline import offline_search
from forge.services.stages.engine_stages import EngineStages

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
STRUCTURED = OfflineStructuredModel({BisoOutput: offline_biso, OperatorOutput: offline_search})
DOMAINS = load_shipped_knowledge().domains


class PoolOf:
    def __init__(self, pool: Sequence[Hypothesis]) -> None:
        self.pool, self.reads = pool, 0

    async def __call__(self, session_id: SessionId) -> Sequence[Hypothesis]:
        self.reads += 1
        return self.pool


def context(state: ForgeState) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, "offline", SHIPPED_TRIZ)


async def test_searches_once_per_round_and_returns_the_children_for_the_pool() -> None:
    pool = (await run_biso(STRUCTURED, PROBLEM, FRAME, DOMAINS[:6], per_domain=2)).hypotheses
    reader = PoolOf(pool)
    stages = EngineStages(STRUCTURED, OfflineModel(), DOMAINS, read_pool=reader)
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    output = await stages.run(context(state), lambda event: None)
    assert output is not None and output.hypotheses
    assert all(h.operator != "biso" and h.parents for h in output.hypotheses)
    assert state.search is not None and state.search.round == 0
    assert state.search.children == len(output.hypotheses) and len(state.search.seeds) == 3
    (event,) = [e for e in output.events if e.data.get("stage") == "search"]
    assert event.data["counts"]["children"] == len(output.hypotheses)
    assert await stages.run(context(state), lambda event: None) is None and reader.reads == 1
    state.current_round = 1
    assert stages.pending(state)


async def test_an_empty_pool_is_said_plainly_and_makes_no_calls() -> None:
    stages = EngineStages(STRUCTURED, OfflineModel(), DOMAINS, read_pool=PoolOf(()))
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    output = await stages.run(context(state), lambda event: None)
    assert output is not None and output.hypotheses == ()
    assert "nothing to expand" in output.events[-1].data["summary"]
    assert state.search is not None and state.search.calls == 0


def test_without_a_pool_reader_synthesize_has_no_stage() -> None:
    stages = EngineStages(STRUCTURED, OfflineModel(), DOMAINS)
    assert not stages.pending(ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE))


async def test_search_depth_rounds_are_stages_of_their_own_whose_seeds_include_earlier_children() -> None:
    from forge.core.search.plan import RuntimeProfile
    from forge.services.stages.engine_stages import EngineConfig

    biso = (await run_biso(STRUCTURED, PROBLEM, FRAME, DOMAINS[:6], per_domain=2)).hypotheses
    reader = PoolOf(biso)
    config = EngineConfig(search_profile=RuntimeProfile.INTERACTIVE, search_depth=3)
    stages = EngineStages(STRUCTURED, OfflineModel(), DOMAINS, config, read_pool=reader)
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    names, made = [], []
    while (stage := stages.pending_stage(state)) is not None:
        names.append(stage)
        output = await stages.run(context(state), lambda event: None)
        assert output is not None
        made.append(output.hypotheses)
        reader.pool = (*reader.pool, *output.hypotheses)  # the driver commits each stage before the next
    assert names == ["search", "search_round_2", "search_round_3"]
    assert state.search is not None and state.search.depth == 3
    assert state.search.children == sum(len(m) for m in made)
    assert all(h.id.startswith("search-0-d2-") for h in made[1])
    assert all(h.id.startswith("search-0-d3-") for h in made[2])
    # MOME seeds sparse cells first (round 2 still finds unexpanded BISO cells); by round 3 the
    # seeds include children of earlier rounds: lineage crosses rounds.
    earlier = {h.id for h in (*made[0], *made[1])}
    assert any(set(h.parents) & earlier for h in made[2])
    seeds = state.search.seeds
    assert len(seeds) == len(set(seeds))  # no seed is expanded twice in a session round


async def test_search_rounds_stop_early_when_a_round_has_nothing_to_expand() -> None:
    from forge.services.stages.engine_stages import EngineConfig

    stages = EngineStages(STRUCTURED, OfflineModel(), DOMAINS, EngineConfig(search_depth=3), read_pool=PoolOf(()))
    state = ForgeState(problem=PROBLEM, current_phase=Phase.SYNTHESIZE)
    await stages.run(context(state), lambda event: None)
    assert state.search is not None and state.search.stalled and not stages.pending(state)

"""The CRYSTALLIZE engine stage: Solve runs once, before the document, keeps the AnswerPack in the
state with the supervisor's findings when a reader is given, and says why when it has no answer."""

from __future__ import annotations

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.frame.problem_frame import ProblemFrame, audit_frame
from forge.core.session.forge_state import ForgeState
from forge.engine.solve.requests import AnalysisOutput, AuditOutput, ComplianceOutput, PlanOutput, TalkerOutput
from forge.offline.offline_model import OfflineModel
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.offline.solve.solve_offline import (
    offline_analysis,
    offline_audit,
    offline_compliance,
    offline_plan,
    offline_talker,
)
from forge.services.stages.engine_stages import EngineStages
from forge.services.stages.solve_stage import SolveStage

PROBLEM = "How can a hospital cut emergency wait times without more staff?\n\nConstraints:\n- budget under 50k"
SOLVERS = {
    AnalysisOutput: offline_analysis,
    PlanOutput: offline_plan,
    AuditOutput: offline_audit,
    TalkerOutput: offline_talker,
    ComplianceOutput: offline_compliance,
}


def context(state: ForgeState) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, "offline")


def crystallizing() -> ForgeState:
    frame = ProblemFrame("Cut emergency wait times", "ED", "shorter waits", ("budget under 50k", "without more staff"))
    return ForgeState(problem=PROBLEM, current_phase=Phase.CRYSTALLIZE, problem_frame=audit_frame(frame))


async def test_solve_runs_once_at_crystallize_and_keeps_an_audited_pack() -> None:
    stages = EngineStages(OfflineStructuredModel(SOLVERS, label="offline model"), OfflineModel(), ())
    state = crystallizing()
    assert stages.pending(state) and not stages.pending(ForgeState(problem=PROBLEM, current_phase=Phase.BUILD))
    progress: list[int] = []
    output = await stages.run(context(state), lambda event: progress.append(event.data["done"]))
    assert output is not None and output.events[-1].data["stage"] == "solve"
    assert progress == sorted(progress) and progress[0] == 0
    pack = state.answer_pack
    assert pack is not None and pack.offline and pack.title == "Cut emergency wait times"
    assert [c.constraint for c in pack.compliance.checks] == ["budget under 50k", "without more staff"]
    assert output.events[-1].data["counts"]["hard_constraints"] == 2
    assert not stages.pending(state) and await stages.run(context(state), lambda event: None) is None


async def test_the_supervisors_findings_reach_the_methodology() -> None:
    stage = SolveStage(
        OfflineStructuredModel(SOLVERS), OfflineModel(), findings_of=lambda s: [f"{len(s.problem)} characters read"]
    )
    state = crystallizing()
    await stage.run(context(state), lambda progress: None)
    assert state.answer_pack is not None
    assert state.answer_pack.methodology.supervisor_findings == (f"{len(PROBLEM)} characters read",)


async def test_a_solve_without_an_answer_stores_no_pack_and_says_why() -> None:
    stage = SolveStage(OfflineStructuredModel({}), OfflineModel())
    state = crystallizing()
    events = await stage.run(context(state), lambda progress: None)
    assert state.answer_pack is None
    assert events[-1].data["summary"].startswith("Solve produced no answer: Reasoner analysis failed")

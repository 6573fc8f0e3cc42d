"""Running one offline session in memory, every review answered by the autopilot.

A ToolContext over a ForgeState, the shipped local corpus as research, a fixed clock and counting ids;
every review is answered by AutopilotPolicy(rounds=2) through apply_review, and the next phase is
kicked off on the same conversation, until the knowledge document.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from support.agent_run import apply_step
from support.fixed_clock import CountingIds, FixedClock
from support.shipped_triz import SHIPPED_TRIZ

from forge.agent.call_model import Live
from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.llm.messages import Message
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.events import REVIEW_EVENT, EventType, SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.offline.offline_model import OfflineModel
from forge.research.local_corpus import LocalCorpusResearch

MAX_RUNS = 40


@dataclass
class SessionRun:
    state: ForgeState
    events: list[SessionEvent] = field(default_factory=list)
    phases: list[tuple[Phase, int]] = field(default_factory=list)
    document: str = ""


async def run_session(problem: str, model: OfflineModel, research: LocalCorpusResearch) -> SessionRun:
    ids = CountingIds()
    state = ForgeState(problem=problem)
    ctx = ToolContext(SessionId(ids()), state, research, FixedClock(), ids, model.label, SHIPPED_TRIZ)
    runner, policy = AgentRunner(model), AutopilotPolicy(rounds=2)
    history: list[Message] = [phase_kickoff(state)]
    run = SessionRun(state, phases=[(state.current_phase, state.current_round)])
    for _ in range(MAX_RUNS):
        review: SessionEvent | None = None
        async for output in runner.run(ctx, history):
            if isinstance(output, Live):
                continue
            history = apply_step(history, output)
            for event in output.events:
                run.events.append(event)
                if event.type == EventType.KNOWLEDGE_DOCUMENT:
                    run.state, run.document = ctx.state, event.data["markdown"]
                    return run
                if event.type in REVIEW_EVENT.values():
                    review = event
        assert review is not None, [e for e in run.events if e.type == EventType.ERROR]
        waiting = ctx.state.awaiting_input_type
        assert waiting is not None
        applied = apply_review(ctx.state, policy.review_for(ctx.state, waiting), ids)
        assert isinstance(applied, ReviewApplied), applied
        ctx.state = applied.state
        run.phases.append((ctx.state.current_phase, ctx.state.current_round))
        history = [*history, phase_kickoff(ctx.state)]
    raise AssertionError("the session did not reach the knowledge document")

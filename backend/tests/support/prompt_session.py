"""One whole session whose every model request is kept: the input of the prompt regression harness.

The offline model plays the model in the real agent loop (shipped corpus as research, fixed clock,
counting ids), and a reviewer answers each review the way a demanding person would, so every kind
of decision reaches a brief: an assumption rejected and one added, a claim's feedback, a suggested
domain, one claim qualified, one rejected, a deep dive into round 2, then resolve. When EXPLORE opens
in round 1 the state gets a BISO head (`BISO_HEAD`, as the BISO stage would leave it), so EXPLORE's
brief offers the pool and the offline stand-in's analogies cite it.

Invariants:
    - Deterministic: the same code gives the same requests, byte for byte (the snapshots rely on it).
    - Every request is kept with the phase and round (1-based) it was sent in.
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
from forge.core.domain_types import BuildDecision, Phase, ReviewType, SessionId, VerdictType
from forge.core.hypotheses.pool import BisoSummary
from forge.core.hypotheses.pool_candidates import PoolCandidate
from forge.core.llm.messages import Message, ModelRequest, ModelResponse
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.inputs import (
    BuildDecisionReview,
    ClaimFeedback,
    ClaimsReview,
    ClaimVerdictInput,
    DecomposeReview,
    ExploreReview,
    ReviewInput,
    VerdictsReview,
)
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.offline.offline_model import OfflineModel
from forge.research.local_corpus import LocalCorpusResearch

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
QUALIFICATION = "only for hospitals above 40k emergency visits a year"
FEEDBACK = "Say which patients wait longest; averages hide the tail."
SUGGESTED_DOMAIN = "air traffic control"
ADDED_ASSUMPTION = "Triage nurses can be moved between shifts."
MAX_RUNS = 40


@dataclass(frozen=True, slots=True)
class SentRequest:
    phase: str
    round: int
    request: ModelRequest


@dataclass
class RecordingModel:
    """The offline model, keeping every request with the phase and round it was sent in."""

    ctx_state: list[ForgeState]
    inner: OfflineModel = field(default_factory=OfflineModel)
    sent: list[SentRequest] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.inner.label

    @property
    def context_window(self) -> int:
        return self.inner.context_window

    async def complete(self, request: ModelRequest) -> ModelResponse:
        state = self.ctx_state[0]
        self.sent.append(SentRequest(state.current_phase.value, state.current_round + 1, request))
        return await self.inner.complete(request)


def demanding_review(state: ForgeState, review: ReviewType) -> ReviewInput:
    """Every kind of decision a person can make, once, so each shows in a later brief."""
    if review == ReviewType.DECOMPOSE_REVIEW:
        kept = tuple(range(1, len(state.assumptions)))
        return DecomposeReview((0,), kept, (0,), (ADDED_ASSUMPTION,))
    if review == ReviewType.EXPLORE_REVIEW:
        return ExploreReview((0, 1), (SUGGESTED_DOMAIN,))
    if review == ReviewType.CLAIMS_REVIEW:
        return ClaimsReview((ClaimFeedback(0, FEEDBACK),))
    if review == ReviewType.VERDICTS:
        return VerdictsReview(tuple(_verdict(i) for i in range(len(state.current_round_claims))))
    if state.current_round == 0:
        target = next(c for c in state.knowledge_graph_nodes)
        return BuildDecisionReview(BuildDecision.DEEP_DIVE, deep_dive_claim_id=str(target.id))
    return BuildDecisionReview(BuildDecision.RESOLVE)


BISO_HEAD = (  # as the BISO stage leaves it in the state (the harness runs the agent loop only)
    PoolCandidate(
        id="biso-0-queueing_theory-1", domain_id="queueing_theory", domain_name="Queueing theory",
        title="Utilization hockey stick for waits",
        statement="Cut the load on the staff at the hours utilization is highest, where each point of load costs the most wait.",
        mechanism="Mean wait grows as rho/(1-rho): the last points of utilization cost the most delay.",
        observable="median wait per hour against hourly utilization", mapping_score=8.1, gate_passed=True,
    ),
    PoolCandidate(
        id="biso-0-power_grids-1", domain_id="power_grids", domain_name="Electric power grids",
        title="Peak shaving for the emergency department",
        statement="Shift the schedulable part of the peak-hour load into quieter hours, as a grid shaves its peak.",
        mechanism="Capacity is set by the peak; moving a few peak hours saves more than adding capacity.",
        observable="share of arrivals in the three busiest hours", mapping_score=7.4, gate_passed=True,
    ),
    PoolCandidate(
        id="biso-0-hydrology-2", domain_id="hydrology", domain_name="Hydrology and river systems",
        title="Floodplain storage for surges", statement="Hold surges in a buffer area until the peak passes.",
        mechanism="Storage flattens the flood wave.", observable="peak waiting-room occupancy", mapping_score=3.2,
        gate_passed=False, failed_rules=("effective_rows", "row_usage"),
    ),
)  # fmt: skip


def with_biso_head(state: ForgeState) -> ForgeState:
    """The state with round 1's BISO head when EXPLORE opens, so EXPLORE's brief offers the pool."""
    if state.current_phase is Phase.EXPLORE and state.current_round == 0:
        state.biso = BisoSummary(0, 9, 9, 2, ())
        state.pool_candidates = list(BISO_HEAD)
    return state


def _verdict(index: int) -> ClaimVerdictInput:
    if index == 0:
        return ClaimVerdictInput(0, VerdictType.QUALIFY, qualification=QUALIFICATION)
    if index == 1:
        return ClaimVerdictInput(1, VerdictType.REJECT, reason="The evidence is from one small clinic.")
    return ClaimVerdictInput(index, VerdictType.ACCEPT)


async def record_prompt_session(problem: str = PROBLEM) -> list[SentRequest]:
    """Every request of one whole session, in order; fails when the session does not finish."""
    ids = CountingIds()
    state = ForgeState(problem=problem)
    holder = [state]
    model = RecordingModel(holder)
    ctx = ToolContext(
        SessionId(ids()), state, LocalCorpusResearch.from_directory(), FixedClock(), ids, model.label, SHIPPED_TRIZ
    )
    runner = AgentRunner(model)
    history: list[Message] = [phase_kickoff(state)]
    for _ in range(MAX_RUNS):
        async for output in runner.run(ctx, history):
            if isinstance(output, Live):
                continue
            history = apply_step(history, output)
            if any(e.type == EventType.KNOWLEDGE_DOCUMENT for e in output.events):
                return model.sent
        waiting = ctx.state.awaiting_input_type
        assert waiting is not None, f"the session stopped in {ctx.state.current_phase} without a review"
        applied = apply_review(ctx.state, demanding_review(ctx.state, waiting), ids)
        assert isinstance(applied, ReviewApplied), applied
        ctx.state = holder[0] = with_biso_head(applied.state)
        history = [*history, phase_kickoff(ctx.state)]
    raise AssertionError("the session did not reach the knowledge document")

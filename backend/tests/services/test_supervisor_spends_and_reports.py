"""The supervisor in a session, one checkpoint at a time: a critical finding at CP-1 whose bucket is
empty is paid from the emergency reserve, and a VERIFY verdict whose reversed-order sample disagreed
reaches CP-6 as VERIFY_POSITION_INCONSISTENT."""

from __future__ import annotations

from dataclasses import replace

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.tool_context import ToolContext
from forge.core.domain_types import ClaimId, Phase, SessionId
from forge.core.frame.problem_frame import ProblemFrame, audit_frame
from forge.core.saga.budget import Bucket, BudgetLedger
from forge.core.saga.records import FastEvent
from forge.core.saga.state import SupervisionState
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.verify.claim_verification import VerifyInputs, compose_verification
from forge.core.verify.verdicts import LogicVerdict, PositionCheck, VerifySample
from forge.offline.offline_model import OfflineModel
from forge.services.stages.supervision import Supervisor


def context(state: ForgeState) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, "offline")


async def test_a_critical_conflict_with_an_empty_domain_audit_bucket_spends_the_reserve() -> None:
    frame = ProblemFrame("Cut waits", "ED", "shorter waits", ("cost under 50k", "cost at least 80k"))
    spent = replace(BudgetLedger(), remaining={**BudgetLedger().remaining, Bucket.DOMAIN_AUDIT.value: 0.0})
    state = ForgeState(problem="p", current_phase=Phase.DECOMPOSE, problem_frame=audit_frame(frame))
    state.supervision = SupervisionState(budget=spent)
    events = await Supervisor(None, OfflineModel(), ()).supervise(context(state), ())
    (audit,) = [e.data for e in events if e.type is EventType.SAGA_CHECKPOINT]
    assert audit["checkpoint"] == "CP-1" and audit["fast_events"] == [FastEvent.CONSTRAINT_VIOLATION_FOUND.value]
    sup = state.supervision
    assert sup is not None and sup.budget.spent[Bucket.EMERGENCY.value] > 0
    assert sup.budget.left(Bucket.EMERGENCY) < 10.0


async def test_a_position_flip_in_verify_reaches_cp6() -> None:
    sample = VerifySample(LogicVerdict(7.0, 7.0, 7.0), 7.0)
    flipped = PositionCheck(forward=7.0, reversed=3.0)
    state = ForgeState(problem="p", current_phase=Phase.BUILD)
    state.hypothesis_verifications = {
        "h1": compose_verification(VerifyInputs(ClaimId("h1"), "verifier", (sample,) * 3, position=flipped)),
    }
    events = await Supervisor(None, OfflineModel(), ()).supervise(context(state), ())
    (audit,) = [e.data for e in events if e.type is EventType.SAGA_CHECKPOINT]
    assert audit["checkpoint"] == "CP-6"
    assert audit["fast_events"] == [FastEvent.VERIFY_BATCH_SCORED.value, FastEvent.VERIFY_POSITION_INCONSISTENT.value]
    assert state.supervision is not None and state.supervision.budget.spent[Bucket.VERIFY.value] > 0

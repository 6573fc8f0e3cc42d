"""The preference-gaming check in the supervisor at CP-6 (BUILD opens): with a generator that is
another model than the verifier, six claims the generator scored far above the verifier's verdicts
raise a `preference_gaming` finding naming them, stored and sent with the checkpoint; with the
verifier being the generator itself (no generator label) the check does not run."""

from __future__ import annotations

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from unit.core.saga.test_preference_gaming import claim, verdict

from forge.agent.tool_context import ToolContext
from forge.core.domain_types import ClaimId, Phase, SessionId
from forge.core.saga.records import FindingKind
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.offline_model import OfflineModel
from forge.services.stages.supervision import Supervisor

DOMAINS = load_shipped_knowledge().domains


def _state() -> ForgeState:
    claims = [claim(n, 0.9, 0.9) for n in range(6)]  # the generator: 9 / 10 on both
    state = ForgeState(problem="How can a hospital cut emergency wait times?", current_phase=Phase.BUILD)
    state.past_round_claims = claims[:3]
    state.current_round_claims = claims[3:]
    state.verifications = {ClaimId(f"c{n}"): verdict(n, 4.0, 5.0) for n in range(6)}  # the verifier: 4.5
    return state


def _context(state: ForgeState) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, "offline")


async def test_a_generator_scoring_itself_higher_than_the_verifier_is_a_cp6_finding() -> None:
    state = _state()
    supervisor = Supervisor(None, OfflineModel(), DOMAINS, generator_label="generator-model")
    events = await supervisor.supervise(_context(state), ())
    findings = [e.data for e in events if e.type is EventType.SAGA_FINDING]
    gaming = [f for f in findings if f["kind"] == FindingKind.PREFERENCE_GAMING.value]
    assert len(gaming) == 1 and gaming[0]["checkpoint"] == "CP-6"
    assert gaming[0]["statistic"] == 4.5 and set(gaming[0]["hypothesis_ids"]) == {f"c{n}" for n in range(6)}
    assert "generator-model" in gaming[0]["message"] and "offline" in gaming[0]["message"]
    assert state.supervision is not None
    assert any(f.finding.kind is FindingKind.PREFERENCE_GAMING for f in state.supervision.findings)


async def test_no_comparison_when_the_verifier_is_the_generator_itself() -> None:
    state = _state()
    events = await Supervisor(None, OfflineModel(), DOMAINS).supervise(_context(state), ())
    kinds = {e.data["kind"] for e in events if e.type is EventType.SAGA_FINDING}
    assert FindingKind.PREFERENCE_GAMING.value not in kinds
    assert any(e.type is EventType.SAGA_CHECKPOINT and e.data["checkpoint"] == "CP-6" for e in events)

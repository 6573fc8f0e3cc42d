"""A constraint patch reaches the slow agent: when Solve's outer loop turns a persistent high risk into a
new constraint, the CP-7 audit that follows the Solve stage reads CONSTRAINT_PATCH_APPLIED, and its
rule layers are paid from the global-review bucket."""

from __future__ import annotations

from services.test_solve_reads_the_record import Recorder, context, crystallizing, solver

from forge.core.saga.records import FastEvent
from forge.core.session.events import EventType
from forge.core.solve.loop import RiskSeverity
from forge.engine.solve.requests import AuditOutput, RiskOut
from forge.offline.offline_model import OfflineModel
from forge.services.stages.engine_stages import EngineStages
from forge.services.stages.supervision import Supervisor

RISK = RiskOut(
    text="The evening surge overwhelms triage whatever the plan says",
    severity=RiskSeverity.HIGH,
    mitigation="Keep a triage buffer of two cubicles free every evening",
)


def risky_solver() -> Recorder:
    """The scripted solver whose audit always finds the same high risk: the outer loop adds a constraint."""
    scripted = solver(False)
    scripted.answers[AuditOutput] = lambda r: AuditOutput(risks=[RISK])
    return scripted


async def test_a_constraint_solve_added_is_a_patch_cp7_reads() -> None:
    state = crystallizing()
    supervisor = Supervisor(None, OfflineModel(), ())
    stages = EngineStages(risky_solver(), OfflineModel(), (), supervisor=supervisor)
    output = await stages.run(context(state), lambda e: None)
    assert output is not None and state.answer_pack is not None
    assert state.answer_pack.solve.constraints_added  # the outer loop patched the constraint library
    (audit,) = [e.data for e in output.events if e.type is EventType.SAGA_CHECKPOINT]
    assert audit["checkpoint"] == "CP-7" and audit["fast_events"] == [FastEvent.CONSTRAINT_PATCH_APPLIED.value]
    assert state.supervision is not None and state.supervision.budget.spent["global_review"] > 0


async def test_a_solve_that_added_nothing_applies_no_patch() -> None:
    state = crystallizing()
    stages = EngineStages(solver(False), OfflineModel(), (), supervisor=Supervisor(None, OfflineModel(), ()))
    output = await stages.run(context(state), lambda e: None)
    assert output is not None and state.answer_pack is not None and not state.answer_pack.solve.constraints_added
    (audit,) = [e.data for e in output.events if e.type is EventType.SAGA_CHECKPOINT]
    assert audit["fast_events"] == []

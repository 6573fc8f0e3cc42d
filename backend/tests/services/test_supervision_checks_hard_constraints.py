"""SAGA Layer 4 at CP-4 after the BISO stage: the constraint judge (a real model) judges every
hypothesis against the hard constraints (its flags, with their reasons, make the finding and the
FLAG_HYPOTHESIS directive); offline (no judge) the word rule flags at most 10% of the hospital
problem's pool; a call that fails leaves its hypotheses to the word rule, and the summary says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.test_search_stage_runs_once_per_round import DOMAINS, PROBLEM, PoolOf, context

from forge.bootstrap.adapters import build_structured_model
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.core.domain_types import Phase
from forge.core.llm.messages import Usage
from forge.core.session.events import EventType, SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.engine.saga.constraint_check import (
    BATCH_SIZE,
    ConstraintCheckBatch,
    ConstraintCheckOutput,
    ConstraintJudgement,
    ConstraintVerdict,
)
from forge.offline.offline_model import OfflineModel
from forge.ports import OutputT, StructuredFailure, StructuredModel, StructuredRequest, StructuredResult
from forge.services.stages.engine_stages import EngineStages
from forge.services.stages.supervision import Supervisor

OFFLINE = build_structured_model(ModelRoute(Provider.OFFLINE, "offline"), OfflineModel(), DOMAINS)
Judge = Callable[[ConstraintCheckBatch], ConstraintCheckOutput]


class JudgeOverOffline:
    """The constraint judge: `judge` answers each batch (None: every call fails)."""

    def __init__(self, judge: Judge | None) -> None:
        self._judge = judge
        self.checks: list[ConstraintCheckBatch] = []

    @property
    def label(self) -> str:
        return "judge"

    async def generate(self, request: StructuredRequest[OutputT]) -> StructuredResult[OutputT] | StructuredFailure:
        assert request.output is ConstraintCheckOutput
        batch = request.offline_context
        assert isinstance(batch, ConstraintCheckBatch)
        self.checks.append(batch)
        if self._judge is None:
            return StructuredFailure("the judge is down", Usage(), 1)
        return StructuredResult(request.output.model_validate(self._judge(batch).model_dump()), Usage(300, 60), 1)


class FlagsTheFirst:
    """Flags only the first hypothesis it is ever shown, with a reason of its own."""

    def __init__(self) -> None:
        self.first = ""

    def __call__(self, batch: ConstraintCheckBatch) -> ConstraintCheckOutput:
        self.first = self.first or batch.items[0].id
        return ConstraintCheckOutput(
            judgements=[
                ConstraintJudgement(
                    hypothesis_id=item.id,
                    constraint=1,
                    reason="It needs a second nurse at triage." if item.id == self.first else "No one is added.",
                    verdict=ConstraintVerdict.BREAKS if item.id == self.first else ConstraintVerdict.KEEPS,
                )
                for item in batch.items
            ]
        )


async def _explore(judge: StructuredModel | None) -> tuple[ForgeState, list[SessionEvent]]:
    supervisor = Supervisor(OFFLINE, OfflineModel(), DOMAINS, PoolOf([]), constraint_judge=judge)
    stages = EngineStages(OFFLINE, OfflineModel(), DOMAINS, supervisor=supervisor)
    state = ForgeState(problem=PROBLEM, current_phase=Phase.DECOMPOSE)
    await stages.run(context(state), lambda e: None)  # the frame (CP-1)
    state.current_phase = Phase.EXPLORE
    output = await stages.run(context(state), lambda e: None)  # BISO, then CP-2..4
    assert output is not None
    return state, list(output.events)


def _cp4(events: list[SessionEvent]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    audit = next(e.data for e in events if e.type is EventType.SAGA_CHECKPOINT and e.data["checkpoint"] == "CP-4")
    findings = [
        e.data
        for e in events
        if e.type is EventType.SAGA_FINDING
        and e.data["kind"] == "hard_constraint_violation"
        and e.data["checkpoint"] == "CP-4"
    ]
    return audit, findings


async def test_the_models_flags_and_reasons_make_the_finding_and_flag_the_hypothesis() -> None:
    judge = JudgeOverOffline(FlagsTheFirst())
    state, events = await _explore(judge)
    assert state.problem_frame is not None and state.problem_frame.frame.hard_constraints == ("without more staff",)
    assert state.biso is not None
    kept = state.biso.kept
    assert [len(b.items) for b in judge.checks] == [BATCH_SIZE] * (kept // BATCH_SIZE) + (
        [kept % BATCH_SIZE] if kept % BATCH_SIZE else []
    )
    assert all(b.constraints == ("without more staff",) for b in judge.checks)
    first = judge.checks[0].items[0].id
    audit, (finding,) = _cp4(events)
    assert finding["hypothesis_ids"] == [first]
    assert f"{first} breaks “without more staff”: It needs a second nurse at triage." in finding["message"]
    assert (
        f"Hard constraints (judge): {kept} text(s) judged in {len(judge.checks)} call(s) asked ahead of this "
        "checkpoint, while the verifier scored them; 1 flagged." in audit["summary"]
    )
    assert state.supervision is not None and state.supervision.flagged == (first,)
    assert any(e.type is EventType.CONTEXT_USAGE for e in events)  # the judge's calls are accounted


async def test_offline_the_word_rule_flags_at_most_a_tenth_of_the_hospital_pool() -> None:
    state, events = await _explore(None)
    assert state.biso is not None and state.biso.kept >= 50
    audit, findings = _cp4(events)
    flagged = {i for f in findings for i in f["hypothesis_ids"]}
    assert len(flagged) <= 0.1 * state.biso.kept
    assert all("Offline word rule: proposes “" in f["message"] for f in findings)
    assert f"Hard constraints: {state.biso.kept} text(s) judged by the offline word rule." in audit["summary"]


async def test_a_failed_check_leaves_the_pool_to_the_word_rule_and_says_so() -> None:
    state, events = await _explore(JudgeOverOffline(None))
    assert state.biso is not None
    audit, _ = _cp4(events)
    assert "0 text(s) judged in" in audit["summary"]
    assert f"; {state.biso.kept} it did not judge, by the offline word rule;" in audit["summary"]

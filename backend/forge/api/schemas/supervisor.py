"""Response models of the supervisor panel (GET /sessions/{id}/supervisor) and their mapping from the
core's `SupervisionState`.

Invariants:
    - `adoptable` marks ADD_CONSTRAINT directives the person has not adopted yet.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.api.schemas.saga_events import CheckpointName, SagaDirectiveData, SagaFindingData
from forge.core.domain_types import Phase
from forge.core.saga.checkpoints import ANSWER_STAGES, CHECKPOINT_TITLE
from forge.core.saga.records import DirectiveKind
from forge.core.saga.state import SupervisionState
from forge.core.session import events as ev


class FindingOut(SagaFindingData):
    dismissed: bool


class DirectiveOut(SagaDirectiveData):
    adoptable: bool = Field(description="An ADD_CONSTRAINT you can still adopt at a review.")
    adopted: bool


class CheckpointOut(BaseModel):
    checkpoint: CheckpointName
    title: str
    round: int
    phase: Phase
    summary: str
    passed: bool
    finding_ids: list[str]
    directive_ids: list[str]
    fast_events: list[str]


class StageOut(BaseModel):
    number: int
    name: str
    phase: Phase
    checkpoint: CheckpointName | None


class BudgetOut(BaseModel):
    strategy: str
    total_units: float
    remaining: dict[str, float]
    spent: dict[str, float]


class CKOut(BaseModel):
    space: str = Field(description="C (concept expansion) or K (knowledge expansion).")
    k_expansions: int
    transitions: list[str]


class SupervisorOut(BaseModel):
    findings: list[FindingOut]
    directives: list[DirectiveOut]
    checkpoints: list[CheckpointOut]
    stages: list[StageOut] = Field(description="The Answer Engine's eight stages on the six phases.")
    weights: dict[str, float] = Field(description="The composite score weights after ADJUST_WEIGHTS.")
    quota_changes: dict[str, int]
    flagged: list[str]
    paused: bool
    budget: BudgetOut
    ck: CKOut


def supervisor_out(sup: SupervisionState) -> SupervisorOut:
    return SupervisorOut(
        findings=[FindingOut(**ev.saga_finding(f).data, dismissed=f.dismissed) for f in sup.findings],
        directives=[
            DirectiveOut(
                **ev.saga_directive(d).data,
                adopted=d.id in sup.adopted,
                adoptable=d.kind is DirectiveKind.ADD_CONSTRAINT and d.id not in sup.adopted,
            )
            for d in sup.directives
        ],
        checkpoints=[
            CheckpointOut(**ev.saga_checkpoint(c).data, title=CHECKPOINT_TITLE[c.checkpoint]) for c in sup.checkpoints
        ],
        stages=[StageOut(number=s.number, name=s.name, phase=s.phase, checkpoint=s.checkpoint) for s in ANSWER_STAGES],
        weights=dict(sup.weights),
        quota_changes=dict(sup.quota_changes),
        flagged=list(sup.flagged),
        paused=sup.paused,
        budget=BudgetOut(
            strategy=sup.budget.strategy.value,
            total_units=100.0,
            remaining=dict(sup.budget.remaining),
            spent=dict(sup.budget.spent),
        ),
        ck=CKOut(
            space=sup.ck.space.value,
            k_expansions=sup.ck.k_expansions,
            transitions=[f"{t.source.value}→{t.target.value} ({t.trigger.value})" for t in sup.ck.transitions],
        ),
    )

"""Payloads of the supervisor's (SAGA) stored events: findings, directives and checkpoint audits,
exactly as `core.session_events.saga_*` build them (unknown fields are errors).
"""

from __future__ import annotations

from pydantic import Field

from forge.api.schemas.review_payloads import Payload
from forge.core.domain_types import Phase
from forge.core.saga.records import Checkpoint, DirectiveKind, FindingKind, Severity

# The kinds are the core's enums, never a copy: a kind the core adds is a kind the API accepts.
SagaFindingKind = FindingKind
SagaDirectiveKind = DirectiveKind
CheckpointName = Checkpoint


class SagaFindingData(Payload):
    """A supervisor finding: `statistic` compared with `threshold` (e.g. std < 0.8, |r| > 0.7, F with
    `p_value` < 0.05), the hypotheses (or claims) involved, and a message a person can act on."""

    id: str
    checkpoint: CheckpointName
    round: int
    kind: SagaFindingKind
    layer: int = Field(ge=1, le=4, description="1 statistics, 2 red team, 3 pattern memory, 4 domain profile.")
    severity: Severity
    statistic: float
    threshold: float
    p_value: float | None
    hypothesis_ids: list[str]
    dimensions: list[str]
    message: str
    suggested_constraint: str


class SagaDirectiveData(Payload):
    """A directive the fast path took, with the finding that caused it (`finding_id`)."""

    id: str
    kind: SagaDirectiveKind
    finding_id: str
    message: str
    weights: dict[str, float]
    quota_changes: dict[str, int]
    hypothesis_ids: list[str]
    constraint: str
    challenge: str


class SagaCheckpointData(Payload):
    """An Answer Engine checkpoint ran (CP-1..7) in `phase`: what it found and which directives followed."""

    checkpoint: CheckpointName
    round: int
    phase: Phase
    summary: str
    passed: bool
    finding_ids: list[str]
    directive_ids: list[str]
    fast_events: list[str] = Field(description="The fast path's events (BISO_COMPLETED, ...) this checkpoint read.")

"""Payloads of the supervisor's (SAGA) stored events: findings, directives and checkpoint audits,
exactly as `core.session_events.saga_*` build them (unknown fields are errors).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from forge.api.review_payload_schemas import Payload
from forge.core.domain_types import Phase

SagaFindingKind = Literal[
    "score_compression",
    "dimension_collinearity",
    "source_domain_bias",
    "shallow_rewrite",
    "mapping_padding",
    "injection_suspected",
    "red_team_challenge",
    "favourite_pattern",
    "hard_constraint_violation",
    "anti_pattern",
    "stale_idea",
    "constraint_audit",
    "target_domain",
    "diversity_collapse",
    "risk_convergence",
]
SagaDirectiveKind = Literal[
    "ADJUST_WEIGHTS",
    "ADJUST_SEARCH_PARAMS",
    "INJECT_CHALLENGE",
    "PAUSE_PIPELINE",
    "RESUME_PIPELINE",
    "FLAG_HYPOTHESIS",
    "ADD_CONSTRAINT",
]
CheckpointName = Literal["CP-1", "CP-2", "CP-3", "CP-4", "CP-5", "CP-6", "CP-7"]


class SagaFindingData(Payload):
    """A supervisor finding: `statistic` compared with `threshold` (e.g. std < 0.8, |r| > 0.7, F with
    `p_value` < 0.05), the hypotheses (or claims) involved, and a message a person can act on."""

    id: str
    checkpoint: CheckpointName
    round: int
    kind: SagaFindingKind
    layer: int = Field(ge=1, le=4, description="1 statistics, 2 red team, 3 pattern memory, 4 domain profile.")
    severity: Literal["info", "warning", "critical"]
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

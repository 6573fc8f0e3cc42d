"""Response models of the hypothesis pool (GET /sessions/{id}/hypotheses) and their mapping from the
core's `Hypothesis`: each item with its mapping table, gate result and lineage.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.api.schemas.engine_names import HypothesisOperator
from forge.api.schemas.search_trace import BlendOut, HyperpathOut, TransformRecordOut
from forge.core.explore.mapping_model_layer import DepthReview, UnpackAudit
from forge.core.explore.mapping_quality_gate import GateRule, MappingType
from forge.core.hypotheses.pool import GateStatus, Hypothesis


class MappingRowOut(BaseModel):
    source_concept: str
    source_relation: str
    target_concept: str
    target_relation: str
    mapping_type: MappingType
    systematicity_group: str
    observable_link: str


class DepthReviewOut(BaseModel):
    """The mapping gate's model layer: systematicity and depth of the table, each 0..10."""

    systematicity: float
    depth: float
    higher_order_mapped: bool
    score: float = Field(description="The model layer's score, 0..10.")
    rationale: str


class UnpackAuditOut(BaseModel):
    """Two effective rows the reviewer had to tie to the observable or failure modes."""

    rows: list[int]
    unexplained: list[int]
    padding_suspected: bool
    discount: float = Field(description="The factor applied to the mapping score (0.75 per unexplained row).")


class GateOut(BaseModel):
    status: GateStatus
    failed_rules: list[GateRule] = Field(description="The mapping-quality rules this table failed (none when passed).")
    effective_rows: int
    mapping_score: float = Field(
        description="0..10; at most 4.0 when a rule failed; for a passed table, the rule and model layers "
        "blended and discounted per unexplained unpacked row."
    )
    rule_layer_score: float | None = Field(
        description="The rule layer's score before the model layer changed it (null until reviewed)."
    )
    depth_review: DepthReviewOut | None = Field(description="The model layer (passed tables only).")
    unpack: UnpackAuditOut | None = Field(description="The unpack audit of two effective rows (passed tables only).")


class HypothesisOut(BaseModel):
    id: str
    round: int
    domain_id: str
    domain_name: str
    structure: str
    title: str
    statement: str
    mechanism: str
    observable: str
    failure_modes: list[str]
    mapping: list[MappingRowOut]
    gate: GateOut
    operator: HypothesisOperator = Field(description="How it was made: `biso` for the first generation.")
    parents: list[str]
    absorbed: list[str] = Field(description="Near-duplicates merged into this one.")
    structural_grounding: float | None = Field(
        default=None, description="HKG structural_grounding_score 0..10; null when never grounded."
    )
    hyperpath: HyperpathOut | None = Field(default=None, description="hyperpath_expand / hyperbridge: the path used.")
    blend: BlendOut | None = Field(default=None, description="blend_expand: the four-space blend network.")
    transform: TransformRecordOut | None = Field(default=None, description="transform_space: the gate's record.")


class HypothesisPageOut(BaseModel):
    items: list[HypothesisOut]
    total: int
    limit: int
    offset: int


def _depth_out(review: DepthReview | None) -> DepthReviewOut | None:
    if review is None:
        return None
    return DepthReviewOut(
        systematicity=review.systematicity,
        depth=review.depth,
        higher_order_mapped=review.higher_order_mapped,
        score=review.score,
        rationale=review.rationale,
    )


def _unpack_out(audit: UnpackAudit | None) -> UnpackAuditOut | None:
    if audit is None:
        return None
    return UnpackAuditOut(
        rows=list(audit.rows),
        unexplained=list(audit.unexplained),
        padding_suspected=audit.padding_suspected,
        discount=audit.discount,
    )


def hypothesis_out(h: Hypothesis) -> HypothesisOut:
    return HypothesisOut(
        id=h.id,
        round=h.round,
        domain_id=h.domain_id,
        domain_name=h.domain_name,
        structure=h.structure,
        title=h.title,
        statement=h.statement,
        mechanism=h.mechanism,
        observable=h.observable,
        failure_modes=list(h.failure_modes),
        mapping=[MappingRowOut.model_validate(row, from_attributes=True) for row in h.mapping.rows],
        gate=GateOut(
            status=h.gate.status,
            failed_rules=list(h.gate.failed_rules),
            effective_rows=h.gate.effective_rows,
            mapping_score=h.gate.mapping_score,
            rule_layer_score=h.gate.rule_layer_score,
            depth_review=_depth_out(h.gate.depth_review),
            unpack=_unpack_out(h.gate.unpack),
        ),
        operator=h.operator,
        parents=list(h.parents),
        absorbed=list(h.absorbed),
        structural_grounding=h.structural_grounding,
        hyperpath=HyperpathOut.model_validate(h.hyperpath) if h.hyperpath else None,
        blend=BlendOut.model_validate(h.blend) if h.blend else None,
        transform=TransformRecordOut.model_validate(h.transform) if h.transform else None,
    )

"""Wire shapes of what a SEARCH operator grounded a hypothesis on (additive fields of the pool's
items): the HKG hyperpath with its mechanism chain, the blend network, the Transform Gate record.

Invariant: read straight from the core records (`from_attributes`), so a field added there cannot
be dropped silently here; provenance is references only (no provenance text exists to expose).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from forge.core.hkg.k_shortest_hyperpaths import SearchExtent
from forge.core.hkg.structural_grounding import GroundingStatus
from forge.core.search.blend_network import CrossSpaceKind
from forge.core.search.concept_space import SpaceOrigin, TransformOp
from forge.core.search.transform_gate import TransformStatus


class _FromRecord(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class NodeRefOut(_FromRecord):
    id: str
    label: str


class TraceStepOut(_FromRecord):
    hyperedge_id: str
    relation: str
    via: list[NodeRefOut] = Field(description="Nodes this hyperedge shares with the next step.")


class TracePathOut(_FromRecord):
    start: NodeRefOut
    steps: list[TraceStepOut]
    end: NodeRefOut


class ProvenanceRefOut(_FromRecord):
    hyperedge_id: str
    source: str
    locator: str


class ChainLinkOut(_FromRecord):
    hyperedge_id: str = Field(description="The path's hyperedge this mechanism step rests on.")
    step: str


class HyperpathOut(_FromRecord):
    status: GroundingStatus
    score: float = Field(description="structural_grounding_score of the traversal, 0..10.")
    start_terms: list[str]
    end_terms: list[str]
    paths: list[TracePathOut] = Field(description="The k shortest hyperpaths, shortest first.")
    provenance: list[ProvenanceRefOut]
    chain: list[ChainLinkOut] = Field(description="The mechanism chain the model completed along the path.")
    extent: SearchExtent = Field(
        default=SearchExtent.EXHAUSTIVE,
        description="work_bound: the path search stopped at its work bound (shorter hyperpaths may exist).",
    )


class CrossSpaceMappingOut(_FromRecord):
    input_1: str
    input_2: str
    kind: CrossSpaceKind
    blended: str


class EmergentStructureOut(_FromRecord):
    description: str
    observable_link: str
    testable_prediction: str


class BlendOut(_FromRecord):
    generic_space: list[str]
    mappings: list[CrossSpaceMappingOut]
    emergent: list[EmergentStructureOut]


class TransformProposalOut(_FromRecord):
    op: TransformOp
    target_id: str
    before: str
    after: str
    rationale: str


class TransformRecordOut(_FromRecord):
    proposal_id: str
    parent: str
    space_id: str
    space_origin: SpaceOrigin
    proposal: TransformProposalOut
    status: TransformStatus
    reasons: list[str] = Field(description="Why the gate rejected it (empty when accepted).")
    logic: list[float] | None = Field(description="Analogy validity, internal consistency, causal rigor (0..10).")

"""Response models of the five review payloads and of the knowledge graph (the OpenAPI contract).

Invariants:
    - Each model describes exactly what `core.review_payloads` emits — records encoded by
      `state_codec.encode_value` (enums as their values, ids as UUID strings, datetimes as ISO 8601
      via `isoformat()`), list items with their `index` — and forbids any other field, so a record
      that gains a field fails the API tests until it is declared here.
    - Re-serialising a validated payload gives back the emitted JSON: what `GET /events` returns
      equals what the SSE stream sent.
    - The graph of `review_build` and `GET /sessions/{id}/graph` share one model (`FlowGraphResponse`),
      the projection of `core.project_graph_to_flow`: claims and links without positions (the
      browser lays the graph out). `review_build` events logged before that carry `x`/`y` on each
      node; those two fields are dropped when such an event is read, nothing else is tolerated.

Design decisions:
    - Core enums are the field types, so they appear as named enums in OpenAPI (and as string unions
      in a generated TypeScript client).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, WithJsonSchema, model_validator

from forge.api.schemas.search_trace import TransformRecordOut
from forge.core.domain_types import (
    ClaimConfidence,
    ClaimStatus,
    ClaimType,
    Contributor,
    EdgeType,
    EvidenceType,
    Phase,
    ReframingType,
    SemanticDistance,
)
from forge.core.explore.suggested_domains import SuggestionSource
from forge.core.frame.audit_constraints import ConstraintFindingKind, ConstraintKind
from forge.core.search.plan import SearchOperator
from forge.core.verify.prior_art_search import SearchScope
from forge.core.verify.verdicts import QueryKind, VerifyStatus

# `encode_value` writes datetimes with `isoformat()` ("+00:00", not "Z"); keep those exact bytes.
IsoDatetime = Annotated[
    datetime,
    PlainSerializer(datetime.isoformat, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]


class Payload(BaseModel):
    """Base of every event payload model: unknown fields are errors, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class EvidenceView(Payload):
    """A piece of evidence: where it came from (a research source), what it says, and its role."""

    id: UUID
    source: str
    title: str
    summary: str
    evidence_type: EvidenceType
    contributed_by: Contributor
    query: str | None
    retrieved_at: IsoDatetime | None
    claim_id: UUID | None


class StateOfArtView(Payload):
    """What research says about the problem today, with the evidence it cites."""

    summary: str
    evidence: list[EvidenceView]


class AssumptionView(Payload):
    """A hidden assumption of the problem; `confirmed` is null until the person reviews it."""

    index: int
    text: str
    contributed_by: Contributor
    confirmed: bool | None


class ReframingView(Payload):
    """Another way to pose the problem; `selected` ones steer the search for analogies."""

    index: int
    id: UUID
    text: str
    reframing_type: ReframingType
    selected: bool
    contributed_by: Contributor


class MorphologicalParameterView(Payload):
    """One dimension of the morphological box and its options."""

    name: str
    options: list[str]


class MappingRowView(Payload):
    """One row of an analogy's structural mapping: a source concept, its target, and how they relate."""

    source_concept: str
    target_concept: str
    relation: str


class AnalogyView(Payload):
    """A cross-domain analogy: a mechanism from another field applied to the problem."""

    index: int
    id: UUID
    source_domain: str
    target_application: str
    description: str
    semantic_distance: SemanticDistance
    mapping: list[MappingRowView]
    observable: str
    failure_mode: str
    starred: bool
    suggested_by_user: bool
    hypothesis_id: str = Field(
        default="",
        description="The pool hypothesis this analogy was starred from, or that the agent promoted in EXPLORE; "
        "empty for a new analogy of the agent's own.",
    )
    mapping_score: float | None = Field(
        default=None,
        description="0-10: the cited pool hypothesis's mapping score, or the mapping-quality gate's score of the "
        "agent's own table (a new analogy is recorded only when its table passes the gate); null if never gated.",
    )


class TrizCellView(Payload):
    """The classic contradiction-matrix cell used: parameter numbers (1..39) and its principle numbers."""

    improving: int
    worsening: int
    principles: list[int]
    improving_name: str
    worsening_name: str


class ContradictionView(Payload):
    """A technical contradiction (improving A worsens B) and the TRIZ principles that may resolve it;
    `matrix_cell` names the matrix cell the principles came from, when the parameters were given."""

    index: int
    id: UUID
    property_a: str
    property_b: str
    description: str
    resolution_direction: str
    principles: list[str]
    matrix_cell: TrizCellView | None = None


class ClaimScoresView(Payload):
    """The verifier's four scores of a claim, each in 0..1."""

    novelty: float
    groundedness: float
    falsifiability: float
    significance: float


class ClaimView(Payload):
    """A claim of the current round with its dialectic, evidence and scores; `index` is what verdicts
    and feedback refer to, `score_mean` the mean of `scores` (rounded to 3 places) or null."""

    index: int
    id: UUID
    text: str
    claim_type: ClaimType
    round_created: int
    phase_created: Phase
    thesis_text: str
    antithesis_text: str
    status: ClaimStatus
    confidence: ClaimConfidence
    falsifiability_condition: str
    scores: ClaimScoresView | None
    evidence: list[EvidenceView]
    builds_on: list[UUID]
    hypothesis_ids: list[str] = Field(default_factory=list, description="Pool hypotheses the claim came from.")
    cross_domain_source: str | None
    falsification_summary: str | None
    novelty_summary: str | None
    rejection_reason: str | None
    qualification: str | None
    user_feedback: str | None
    # How VALIDATE acted on that feedback (revise_claim): the answer, and the text before a revision.
    feedback_response: str | None = None
    revised_from: str | None = None
    synthesized: bool
    score_mean: float | None


class NegativeKnowledgeView(Payload):
    """A rejected claim kept as knowledge: what does not work, and why."""

    claim_id: UUID
    claim_text: str
    reason: str
    round: int


class GraphNode(Payload):
    """A claim in the knowledge graph; `id` is the claim id, `label` its text, `score` its mean score
    (3 places) or null. No position: clients lay the graph out (the SPA with dagre)."""

    @model_validator(mode="before")
    @classmethod
    def _drop_logged_layout(cls, data: object) -> object:
        """Events logged while the server laid the graph out carry `x` and `y`; they mean nothing now."""
        if isinstance(data, dict) and ("x" in data or "y" in data):
            return {k: v for k, v in data.items() if k not in ("x", "y")}
        return data

    id: str
    type: Literal["claim"]
    label: str
    claim_type: ClaimType
    status: ClaimStatus
    confidence: ClaimConfidence
    round: int
    score: float | None


class GraphEdge(Payload):
    """A typed link between two claims of the graph; `label` is the edge type."""

    id: str
    source: str
    target: str
    label: EdgeType


class FlowGraphResponse(Payload):
    """The knowledge graph: claims as nodes and typed links as edges, in the order they were made;
    no layout (a client places the nodes). `review_build` carries the same object; the same graph
    is at `GET /sessions/{id}/graph.graphml` as GraphML."""

    nodes: list[GraphNode]
    edges: list[GraphEdge]


class ProblemFrameFields(Payload):
    """The problem frame: what must change, within which limits, and how success is recognised."""

    objective: str
    target_object: str
    target_outcome: str
    hard_constraints: list[str]
    soft_constraints: list[str]
    success_criteria: list[str]
    stakeholders: list[str]
    scope: str
    domain_tags: list[str]


class ConstraintView(Payload):
    text: str
    kind: ConstraintKind


class AuditFindingView(Payload):
    """A CP-1 finding: duplicate constraints merged, a conflict, or a limit that cannot be checked."""

    kind: ConstraintFindingKind
    indices: list[int] = Field(description="The constraints concerned, by index in hard then soft order.")
    message: str


class ConstraintAuditView(Payload):
    kept: list[ConstraintView]
    findings: list[AuditFindingView]


class ProblemFrameView(Payload):
    """The frame after the constraint audit (CP-1), with what the audit found."""

    frame: ProblemFrameFields
    audit: ConstraintAuditView


class RememberedHypothesisView(Payload):
    """A hypothesis an earlier session judged, offered to this one (seed 004): its C (0..1 and as a
    percentage), how similar it is to this problem, its support and contradiction counts, where it
    came from, and the person's decision (offered until the decompose review accepts or dismisses it)."""

    episode_id: str
    text: str
    c: float
    confidence_percent: int
    similarity: float
    support_count: int
    contradiction_count: int
    origin_question: str
    origin_session_id: str
    decision: Literal["offered", "accepted", "dismissed"]
    rationale: str = Field(default="", description="Why the earlier session held it (seed 004's RATIONALE line).")


class FrameConstraintView(Payload):
    """A constraint of the problem frame, by the index a decompose review's constraint_changes names."""

    index: int
    text: str
    kind: str  # "hard" | "soft"


class ConstraintConflictView(Payload):
    """CP-1: two constraints no answer can meet together, and how to drop or relax one."""

    indices: list[int]
    constraints: list[str]
    message: str = Field(default="", description="Why no answer can meet both, in words.")
    resolve: str


class DecomposeReviewData(Payload):
    """After DECOMPOSE: the problem frame, fundamentals, state of the art, assumptions and reframings,
    and what earlier sessions found (`memory`)."""

    review: Literal["decompose_review"]
    fundamentals: list[str]
    state_of_art: StateOfArtView | None
    assumptions: list[AssumptionView]
    reframings: list[ReframingView]
    problem_frame: ProblemFrameView | None = None
    memory: list[RememberedHypothesisView] = []  # absent in reviews logged before memory was offered
    # The frame's constraints and CP-1's conflicts (absent in reviews logged before they were shown);
    # while a conflict is listed the review needs constraint_changes.
    constraints: list[FrameConstraintView] = []
    constraint_conflicts: list[ConstraintConflictView] = []


class SelectedDomainView(Payload):
    """A source domain chosen for BISO, with why (relevance, distance, diversity gain)."""

    domain_id: str
    name: str
    relevance: float
    distance: float
    band: SemanticDistance
    gain: float
    suggested: bool
    reason: str


class FilteredDomainView(Payload):
    domain_id: str
    feasibility: str
    reason: str


class DomainSelectionView(Payload):
    chosen: list[SelectedDomainView]
    filtered_out: list[FilteredDomainView]
    shortfall: str | None


class DomainYieldView(Payload):
    domain_id: str
    domain_name: str
    hypotheses: int
    passed: int = Field(description="How many passed the mapping-quality gate.")
    failure: str = Field(description="Why the domain gave nothing (its call failed); empty otherwise.")
    declined: str = Field(
        default="", description="The model's reason when it declined the domain as not fitting; empty otherwise."
    )


class PoolSummaryView(Payload):
    """What BISO put in the pool this round; the hypotheses are at GET /sessions/{id}/hypotheses."""

    round: int
    generated: int
    kept: int
    passed: int
    domains: list[DomainYieldView]


class PoolCandidateView(Payload):
    """A pool hypothesis a brief offers (EXPLORE's `pool`, SYNTHESIZE's suggested-domain results)."""

    id: str
    domain_id: str
    domain_name: str
    title: str
    statement: str
    mechanism: str
    observable: str
    mapping_score: float
    gate_passed: bool
    failed_rules: list[str] = Field(default_factory=list, description="The mapping-quality gate rules it failed.")


class SuggestionOutcomeView(Payload):
    """What became of a source domain the person suggested: explored from the library, described on
    the fly by the model and explored, or not explored (`note` says why)."""

    suggestion: str
    source: SuggestionSource
    domain_id: str
    domain_name: str
    hypotheses: int
    round: int
    note: str
    candidates: list[PoolCandidateView] = Field(
        default_factory=list,
        description="Its best hypotheses, offered to the agent in EXPLORE's and SYNTHESIZE's briefs.",
    )


class ExploreReviewData(Payload):
    """After EXPLORE: the chosen source domains and the hypothesis pool, the morphological box,
    analogies (to star), contradictions and adjacent ideas."""

    review: Literal["explore_review"]
    morphological_box: list[MorphologicalParameterView]
    analogies: list[AnalogyView]
    contradictions: list[ContradictionView]
    adjacent: list[str]
    domain_selection: DomainSelectionView | None = None
    pool: PoolSummaryView | None = None
    suggestion_outcomes: list[SuggestionOutcomeView] = Field(
        default_factory=list,
        description="Suggested domains explored so far; ones suggested at this review are explored "
        "(BISO) when SYNTHESIZE opens, before the claims review.",
    )


class SearchCandidateView(Payload):
    """A SEARCH child SYNTHESIZE's brief offered as a candidate thesis or antithesis."""

    id: str
    operator: str
    parents: list[str]
    lineage: list[str] = Field(description="Ancestors from the root down to the parent, 'operator: title'.")
    title: str
    statement: str
    mechanism: str
    observable: str
    mapping_score: float
    gate_passed: bool
    hyperpath: str = ""


class SearchSummaryView(Payload):
    """The round's SEARCH: seeds, operator applications, HKG outcomes and Transform Gate records; the
    children (with lineage and hyperpaths) are at GET /sessions/{id}/hypotheses."""

    round: int
    profile: str
    method: str
    seeds: list[str]
    eligible: int
    calls: int
    children: int
    operators: dict[SearchOperator, int] = Field(description="Children made per operator.")
    degraded: int
    skipped: int
    failed: int
    coverage_ratio: float | None
    transforms: list[TransformRecordOut] = Field(default_factory=list, description="Accepted and rejected proposals.")
    ungrounded: int = Field(default=0, description="HKG applications that found no hyperpath (no evidence).")
    concept_space: str = ""
    hkg_paths: dict[str, int] = Field(default_factory=dict, description="HKG traversal outcomes by event name.")
    depth: int = Field(default=1, description="SEARCH rounds run this session round (search_depth); counts sum them.")
    stalled: bool = Field(default=False, description="The latest round expanded or made nothing; no further round ran.")
    candidates: list[SearchCandidateView] = Field(
        default_factory=list, description="The children SYNTHESIZE's brief offered as candidate theses/antitheses."
    )


class ClaimsReviewData(Payload):
    """After SYNTHESIZE: the round's claims, for feedback before they are validated, and the search
    that grew the pool this round."""

    review: Literal["claims_review"]
    round: int
    claims: list[ClaimView]
    search: SearchSummaryView | None = None


class LogicVerdictView(Payload):
    """The verifier's logic dimensions, each 0..10; `passed` needs all three ≥ 6."""

    analogy_validity: float
    internal_consistency: float
    causal_rigor: float
    average: float
    passed: bool


class NoveltyEvidenceView(Payload):
    """The closest result of one prior-art query and how much of the claim it already states (0..1)."""

    kind: QueryKind
    prior_art_similarity: float
    reference: str = Field(description="The result's source (URL or corpus id); also in `sources`.")


class NoveltyVerdictView(Payload):
    """Preliminary novelty (0..10), adjusted by the prior art found when it reached 6 (`searched`)."""

    preliminary: float
    adjusted: float
    searched: bool
    prior_art: float = Field(description="Weighted prior art in 0..1 (concept .3, implementation .5, cross-domain .2).")
    evidence: list[NoveltyEvidenceView]
    unverified: bool = Field(
        description="Searched, and nothing related was found: novelty unverified, `adjusted` capped at 5 "
        "(nothing found is not novelty)."
    )


class PositionCheckView(Payload):
    """The final score with the material in forward and in reversed order."""

    forward: float
    reversed: float


class InjectionFindingView(Payload):
    source: str
    pattern: str
    excerpt: str


class PriorArtSearchView(Payload):
    """One prior-art query VERIFY ran: the provider that answered and whether it searched the web or the
    local corpus (shipped English primers and the session's documents)."""

    kind: QueryKind
    query: str
    provider: str
    scope: SearchScope
    results: int


class ClaimVerificationView(Payload):
    """The independent verifier's VERIFY verdict on a claim (seed 000 §4.3): final = .4·logic + .6·novelty;
    confidence = exp(−0.5·avg std of k samples), × 0.7 when the reversed order disagreed."""

    claim_id: UUID
    verifier: str = Field(description="The verifier model's label (the offline verifier says so).")
    status: VerifyStatus
    final_score: float
    logic: LogicVerdictView | None
    novelty: NoveltyVerdictView | None
    variance_confidence: float
    confidence: float
    position: PositionCheckView | None
    position_consistent: bool | None
    injection: list[InjectionFindingView]
    samples: int
    sources: list[EvidenceView] = Field(description="The research results the novelty check weighed.")
    rationale: str
    note: str
    prior_art_searches: list[PriorArtSearchView] = Field(
        description="What was searched for the novelty check; empty when the preliminary novelty was below 6."
    )


class VerdictClaimView(ClaimView):
    """A claim as the verdicts review shows it: the agent's four scores and the verifier's `verify`
    (null when VERIFY did not run)."""

    verify: ClaimVerificationView | None


class VerdictsReviewData(Payload):
    """After VALIDATE: the round's claims with their scores and VERIFY verdicts, for a verdict on each."""

    review: Literal["verdicts"]
    round: int
    claims: list[VerdictClaimView]


class CuriosityView(Payload):
    """A thin region the path navigator found (relevant to the problem, barely connected): a direction
    the person may pick for the next round (`curiosity_id` of the build decision)."""

    id: str
    source: Literal["session_graph", "hkg"]
    node_id: str
    node_text: str
    question: str
    relevance: float
    neighbours: int


class BuildReviewData(Payload):
    """After BUILD: the knowledge graph, gaps and negative knowledge, for the build decision."""

    review: Literal["build_decision"]
    graph: FlowGraphResponse
    gaps: list[str]
    curiosity: list[CuriosityView] = []
    negative_knowledge: list[NegativeKnowledgeView]
    round: int
    max_rounds_reached: bool

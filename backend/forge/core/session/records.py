"""Entities and value objects held by a session's ForgeState.

Invariants:
    - Every record is a frozen dataclass; state changes replace records (`dataclasses.replace`).
    - Evidence always names the research source it came from; agent evidence carries the query that
      returned it, so a document can never cite a source research did not return.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from forge.core.domain_types import (
    AnalogyId,
    ClaimConfidence,
    ClaimId,
    ClaimStatus,
    ClaimType,
    ContradictionId,
    Contributor,
    EdgeId,
    EdgeType,
    EvidenceId,
    EvidenceType,
    Phase,
    ReframingId,
    ReframingType,
    SemanticDistance,
)


@dataclass(frozen=True, slots=True)
class ResearchHit:
    source: str
    title: str
    snippet: str
    # The provider returned the page's text only encrypted (an Anthropic web search result): the model
    # read it, we cannot; `snippet` is what the model cited from it, else the title and page age.
    page_text_hidden: bool = False


@dataclass(frozen=True, slots=True)
class ResearchRecord:
    """One research call: the query, what came back, when, in which phase."""

    query: str
    hits: tuple[ResearchHit, ...]
    phase: Phase
    round: int
    at: datetime
    provider: str
    # The model turn (`ForgeState.model_turn`) whose tool calls ran it: the model reads its results only
    # in a later turn. 0: read in the turn that ran it (a provider's server search) or run outside a
    # model turn (the engine, a test calling a tool).
    turn: int = 0
    # The query as it was also searched in the corpus's language (the model's rendering of a query
    # written in another language; `core.research.query_renderings`); empty when it was searched as is.
    renderings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionDocument:
    """A document the person added to a session; research searches it with the shipped corpus."""

    source: str
    title: str
    text: str
    added_at: datetime


@dataclass(frozen=True, slots=True)
class Evidence:
    id: EvidenceId
    source: str
    title: str
    summary: str
    evidence_type: EvidenceType
    contributed_by: Contributor
    query: str | None = None
    retrieved_at: datetime | None = None
    claim_id: ClaimId | None = None


@dataclass(frozen=True, slots=True)
class Assumption:
    text: str
    contributed_by: Contributor = Contributor.AGENT
    confirmed: bool | None = None


@dataclass(frozen=True, slots=True)
class Reframing:
    id: ReframingId
    text: str
    reframing_type: ReframingType
    selected: bool = False
    contributed_by: Contributor = Contributor.AGENT


@dataclass(frozen=True, slots=True)
class StateOfArt:
    summary: str
    evidence: tuple[Evidence, ...]


@dataclass(frozen=True, slots=True)
class MorphologicalParameter:
    name: str
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MappingRow:
    source_concept: str
    target_concept: str
    relation: str


@dataclass(frozen=True, slots=True)
class Analogy:
    id: AnalogyId
    source_domain: str
    target_application: str
    description: str
    semantic_distance: SemanticDistance
    mapping: tuple[MappingRow, ...] = ()
    observable: str = ""
    failure_mode: str = ""
    starred: bool = False
    suggested_by_user: bool = False
    hypothesis_id: str = ""  # the pool hypothesis it was starred from or builds on (000 §4.1), "" for a new one
    mapping_score: float | None = None  # the gate's score (the pool's for a cited hypothesis), None if never gated


@dataclass(frozen=True, slots=True)
class TrizCell:
    """The cell of the classic 39x39 contradiction matrix a contradiction was resolved with."""

    improving: int  # TRIZ engineering parameter 1..39
    worsening: int
    principles: tuple[int, ...]  # the cell's principles in matrix order; () where the classic matrix is empty
    improving_name: str = ""  # the parameters' names, so a reader needs no table to read the cell
    worsening_name: str = ""


@dataclass(frozen=True, slots=True)
class Contradiction:
    id: ContradictionId
    property_a: str
    property_b: str
    description: str
    resolution_direction: str
    principles: tuple[str, ...] = ()
    matrix_cell: TrizCell | None = None


@dataclass(frozen=True, slots=True)
class ClaimScores:
    novelty: float
    groundedness: float
    falsifiability: float
    significance: float

    @property
    def mean(self) -> float:
        return (self.novelty + self.groundedness + self.falsifiability + self.significance) / 4


@dataclass(frozen=True, slots=True)
class Claim:
    id: ClaimId
    text: str
    claim_type: ClaimType
    round_created: int
    phase_created: Phase
    thesis_text: str = ""
    antithesis_text: str = ""
    status: ClaimStatus = ClaimStatus.PROPOSED
    confidence: ClaimConfidence = ClaimConfidence.SPECULATIVE
    falsifiability_condition: str = ""
    scores: ClaimScores | None = None
    evidence: tuple[Evidence, ...] = ()
    builds_on: tuple[ClaimId, ...] = ()
    hypothesis_ids: tuple[str, ...] = ()  # the pool hypotheses (SEARCH children, starred) it came from
    cross_domain_source: str | None = None
    falsification_summary: str | None = None
    novelty_summary: str | None = None
    rejection_reason: str | None = None
    qualification: str | None = None
    user_feedback: str | None = None
    # How the claim acted on the person's feedback (revise_claim): what changed, or why it stands.
    feedback_response: str | None = None
    revised_from: str | None = None  # the claim's text before that revision (None: the text stands)
    synthesized: bool = False


@dataclass(frozen=True, slots=True)
class Edge:
    id: EdgeId
    source: ClaimId
    target: ClaimId
    edge_type: EdgeType


@dataclass(frozen=True, slots=True)
class NegativeKnowledge:
    claim_id: ClaimId
    claim_text: str
    reason: str
    round: int


@dataclass(frozen=True, slots=True)
class DocumentNarrative:
    """What the model writes for the knowledge document (CRYSTALLIZE); rendered before the sections."""

    executive_summary: str
    recommendations: tuple[str, ...]
    open_questions: tuple[str, ...]
    written_by: str

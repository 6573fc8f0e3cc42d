"""HTTP request and response models (the OpenAPI contract) and their mapping to domain values.

Invariants:
    - Request models reject what the domain would reject anyway, with messages that name the field.
    - Every free-text field of a request body is `FreeText` (no NUL character, on every database).
    - Conversion to the core's review inputs happens here, once; routes pass domain values on.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

from forge.api.schemas.events import SessionEventOut
from forge.api.schemas.text_fields import FreeText
from forge.core.domain_types import BuildDecision, ReframingType, VerdictType
from forge.core.frame.constraint_changes import ConstraintChange
from forge.core.frame.problem_constraints import split_constraints
from forge.core.hypotheses.star_from_pool import MAX_POOL_STARS
from forge.core.research.evidence_urls import evidence_url_problem
from forge.core.research.session_documents import MAX_TEXT_CHARS, MAX_TITLE_CHARS, MIN_TEXT_CHARS
from forge.core.review.inputs import (
    BuildDecisionReview,
    ClaimFeedback,
    ClaimsReview,
    ClaimVerdictInput,
    DecomposeReview,
    ExploreReview,
    ReviewInput,
    SupervisorDecisions,
    VerdictsReview,
)
from forge.core.session.record import MAX_PROBLEM_CHARS, MIN_PROBLEM_CHARS, SessionPage, SessionRecord
from forge.core.session.records import SessionDocument

MAX_LIST = 50
MAX_REVIEW_TEXT_CHARS = 4000  # feedback, a verdict's reason or qualification
MAX_INSIGHT_CHARS = 8000
MAX_ADDED_ITEMS = 10  # assumptions, reframings or domains a review adds; evidence URLs of an insight
MAX_ADDED_ITEM_CHARS = 300
ShortText = Field(min_length=1, max_length=MAX_REVIEW_TEXT_CHARS)
# An assumption, reframing or domain the person adds: a short phrase, like a constraint.
AddedItem = Annotated[FreeText, Field(max_length=MAX_ADDED_ITEM_CHARS)]


MAX_CONSTRAINTS = 10
MAX_CONSTRAINT_CHARS = 300


def _constraint_item(text: str) -> str:
    item = text.strip()
    if not item:
        raise PydanticCustomError("blank_constraint", "a constraint must not be blank; remove the item or write it")
    if len(item) > MAX_CONSTRAINT_CHARS:
        raise PydanticCustomError(
            "constraint_too_long",
            "a constraint must be at most {limit} characters after trimming; this one has {length}",
            {"limit": MAX_CONSTRAINT_CHARS, "length": len(item)},
        )
    return item


ConstraintItem = Annotated[FreeText, AfterValidator(_constraint_item)]


def _evidence_url(url: str) -> str:
    text = url.strip()
    problem = evidence_url_problem(text)
    if problem is not None:
        raise PydanticCustomError("evidence_url", "this evidence URL {problem}", {"problem": problem})
    return text


EvidenceUrl = Annotated[
    FreeText, AfterValidator(_evidence_url), Field(description="A public http(s) web address.", max_length=2000)
]


class SessionCreate(BaseModel):
    problem: FreeText = Field(
        min_length=MIN_PROBLEM_CHARS,
        max_length=MAX_PROBLEM_CHARS,
        description="The problem to work on, in plain words.",
    )
    constraints: list[ConstraintItem] = Field(
        default_factory=list,
        max_length=MAX_CONSTRAINTS,
        description=(
            f"Up to {MAX_CONSTRAINTS} limits a solution must respect, each 1..{MAX_CONSTRAINT_CHARS} characters "
            "(e.g. 'without more staff'). They are appended to the problem as a 'Constraints:' list; "
            f"problem and list together must fit in {MAX_PROBLEM_CHARS} characters."
        ),
    )


class AutopilotRequest(BaseModel):
    """How the autopilot answers the review the session waits for."""

    model_config = ConfigDict(extra="forbid")

    accept_threshold: float = Field(
        default=0.6, ge=0.0, le=1.0, description="Verdicts accept a claim whose mean score is at least this."
    )
    rounds: int = Field(
        default=1, ge=1, le=5, description="The build decision resolves once this many rounds are done."
    )


class PhaseSpendResponse(BaseModel):
    tokens: int
    cost_usd: float
    calls: int
    web_searches: int = Field(default=0, description="Server web searches run (their fee is in cost_usd).")


class SessionResponse(BaseModel):
    id: str
    problem: str = Field(description="The whole problem text every model reads, constraints list included.")
    statement: str = Field(description="The problem without its trailing constraints list.")
    constraints: list[str] = Field(description="The constraints listed at creation (read back from `problem`).")
    status: str
    current_phase: str
    current_phase_number: int
    current_round: int
    awaiting_input_type: str | None
    running: bool
    model: str
    total_tokens_used: int
    total_cost_usd: float
    created_at: datetime
    resolved_at: datetime | None
    spend_by_phase: dict[str, PhaseSpendResponse] | None = Field(
        default=None, description="Tokens, cost and model calls per phase (on the single-session resource)."
    )

    @classmethod
    def of(cls, r: SessionRecord) -> SessionResponse:
        parts = split_constraints(r.problem)
        return cls(
            id=str(r.id),
            problem=r.problem,
            statement=parts.statement,
            constraints=list(parts.constraints),
            status=r.status.value,
            current_phase=r.current_phase.value,
            current_phase_number=r.current_phase.ordinal,
            current_round=r.current_round,
            awaiting_input_type=r.awaiting_input_type,
            running=r.running,
            model=r.model_label,
            total_tokens_used=r.total_tokens_used,
            total_cost_usd=r.total_cost_usd,
            created_at=r.created_at,
            resolved_at=r.resolved_at,
        )


class RunResponse(BaseModel):
    """The answer to POST /run: the session, and whether this call started (or resumed) its run."""

    started: bool = Field(
        description="True when this call started or resumed the run; false when a live run already held it."
    )
    session: SessionResponse


class SessionListResponse(BaseModel):
    items: list[SessionResponse]
    total: int
    limit: int
    offset: int

    @classmethod
    def of(cls, page: SessionPage) -> SessionListResponse:
        return cls(
            items=[SessionResponse.of(r) for r in page.items], total=page.total, limit=page.limit, offset=page.offset
        )


class EventPage(BaseModel):
    """A page of the session's event log, oldest first; fetch the next page with `after=next_after`."""

    events: list[SessionEventOut]
    next_after: int
    has_more: bool


class ConstraintChangeIn(BaseModel):
    index: int = Field(ge=0, description="A constraint of the review's `constraints` list (hard, then soft).")
    relaxed_to: FreeText | None = Field(
        default=None, max_length=300, description="Its looser wording; null or missing drops the constraint."
    )


class ClaimFeedbackIn(BaseModel):
    claim_index: int = Field(ge=0)
    feedback: FreeText = ShortText


class ClaimVerdictIn(BaseModel):
    claim_index: int = Field(ge=0)
    verdict: VerdictType
    reason: FreeText | None = Field(default=None, max_length=MAX_REVIEW_TEXT_CHARS)
    qualification: FreeText | None = Field(default=None, max_length=MAX_REVIEW_TEXT_CHARS)
    merge_with_index: int | None = Field(default=None, ge=0)


class UserInput(BaseModel):
    """One of the five reviews; `type` says which, and only that review's fields are read."""

    type: Literal["decompose_review", "explore_review", "claims_review", "verdicts", "build_decision"]
    confirmed_assumptions: list[int] | None = Field(default=None, max_length=MAX_LIST)
    rejected_assumptions: list[int] | None = Field(default=None, max_length=MAX_LIST)
    added_assumptions: list[AddedItem] | None = Field(default=None, max_length=MAX_ADDED_ITEMS)
    selected_reframings: list[int] | None = Field(default=None, max_length=MAX_LIST)
    added_reframings: list[AddedItem] | None = Field(default=None, max_length=MAX_ADDED_ITEMS)
    added_reframing_types: list[ReframingType | None] | None = Field(
        default=None,
        max_length=MAX_ADDED_ITEMS,
        description="decompose_review: the type of added_reframings[i] (scope_change, entity_question, "
        "variable_change, domain_change); null or missing -> inferred from its wording.",
    )
    accepted_memories: list[FreeText] | None = Field(
        default=None, max_length=10, description="decompose_review: episode ids of remembered hypotheses to pin"
    )
    dismissed_memories: list[FreeText] | None = Field(
        default=None, max_length=10, description="decompose_review: episode ids of remembered hypotheses to dismiss"
    )
    constraint_changes: list[ConstraintChangeIn] | None = Field(
        default=None,
        max_length=10,
        description="decompose_review: drop or relax constraints of the problem frame by index; needed while the "
        "review's constraint_conflicts is not empty.",
    )
    starred_analogies: list[int] | None = Field(default=None, max_length=MAX_LIST)
    starred_hypotheses: list[Annotated[FreeText, Field(min_length=1, max_length=255)]] | None = Field(
        default=None,
        max_length=MAX_POOL_STARS,
        description="explore_review: ids of pool hypotheses to star (from GET /sessions/{id}/hypotheses); each "
        "becomes a starred analogy SYNTHESIZE builds on. Stars from starred_analogies, this, or both.",
    )
    suggested_domains: list[AddedItem] | None = Field(default=None, max_length=MAX_ADDED_ITEMS)
    claim_feedback: list[ClaimFeedbackIn] | None = Field(default=None, max_length=10)
    verdicts: list[ClaimVerdictIn] | None = Field(default=None, max_length=10)
    decision: BuildDecision | None = None
    deep_dive_claim_id: FreeText | None = Field(default=None, max_length=64)
    user_insight: FreeText | None = Field(default=None, max_length=MAX_INSIGHT_CHARS)
    user_evidence_urls: list[EvidenceUrl] | None = Field(default=None, max_length=MAX_ADDED_ITEMS)
    curiosity_id: FreeText | None = Field(
        default=None,
        max_length=300,
        description="build_decision: id of a curiosity item of the review (a thin region of the graph) to make "
        "the next round's direction; with decision continue or deep_dive.",
    )
    dismissed_findings: list[Annotated[FreeText, Field(max_length=120)]] | None = Field(
        default=None, max_length=MAX_LIST, description="Supervisor finding ids to dismiss (any review)."
    )
    adopted_constraints: list[Annotated[FreeText, Field(max_length=160)]] | None = Field(
        default=None,
        max_length=MAX_LIST,
        description="ADD_CONSTRAINT directive ids whose suggested constraint becomes one of your hard constraints (any review).",
    )

    def to_review(self) -> ReviewInput | str:
        """The domain review with the supervisor decisions, or a message saying what is missing."""
        review = self._review()
        if isinstance(review, str):
            return review
        decisions = SupervisorDecisions(tuple(self.dismissed_findings or ()), tuple(self.adopted_constraints or ()))
        return replace(review, supervisor=decisions) if decisions else review

    def _review(self) -> ReviewInput | str:
        t = self.type
        if t == "decompose_review":
            return DecomposeReview(
                tuple(self.selected_reframings or ()),
                tuple(self.confirmed_assumptions or ()),
                tuple(self.rejected_assumptions or ()),
                tuple(self.added_assumptions or ()),
                tuple(self.added_reframings or ()),
                accepted_memories=tuple(self.accepted_memories or ()),
                dismissed_memories=tuple(self.dismissed_memories or ()),
                added_reframing_types=tuple(self.added_reframing_types or ()),
                constraint_changes=tuple(
                    ConstraintChange(c.index, c.relaxed_to) for c in self.constraint_changes or ()
                ),
            )
        if t == "explore_review":
            return ExploreReview(
                tuple(self.starred_analogies or ()),
                tuple(self.suggested_domains or ()),
                starred_hypotheses=tuple(self.starred_hypotheses or ()),
            )
        if t == "claims_review":
            return ClaimsReview(tuple(ClaimFeedback(f.claim_index, f.feedback) for f in self.claim_feedback or ()))
        if t == "verdicts":
            return VerdictsReview(
                tuple(
                    ClaimVerdictInput(v.claim_index, v.verdict, v.reason, v.qualification, v.merge_with_index)
                    for v in self.verdicts or ()
                )
            )
        if self.decision is None:
            return "build_decision needs 'decision': one of continue, deep_dive, resolve, add_insight."
        return BuildDecisionReview(
            self.decision,
            self.deep_dive_claim_id,
            self.user_insight,
            tuple(self.user_evidence_urls or ()),
            curiosity_id=self.curiosity_id,
        )


class DocumentCreate(BaseModel):
    title: FreeText = Field(min_length=1, max_length=MAX_TITLE_CHARS)
    text: FreeText = Field(min_length=MIN_TEXT_CHARS, max_length=MAX_TEXT_CHARS)


class DocumentResponse(BaseModel):
    source: str
    title: str
    characters: int
    added_at: datetime

    @classmethod
    def of(cls, d: SessionDocument) -> DocumentResponse:
        return cls(source=d.source, title=d.title, characters=len(d.text), added_at=d.added_at)

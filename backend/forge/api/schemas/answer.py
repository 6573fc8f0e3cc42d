"""The AnswerPack's wire schema (GET /sessions/{id}/answer.json): the `state_codec` encoding of
`core.answer_pack.AnswerPack`, typed for OpenAPI and the generated client.

Invariants:
    - Field for field the encoding of the core records (a test validates a real pack's JSON against
      it), with the core's enums, so a value the core cannot produce fails validation.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from forge.api.schemas.engine_names import HypothesisOperator
from forge.core.solve.compliance_audit import ComplianceStatus, ComplianceVerdict
from forge.core.solve.constraints import ConstraintOrigin
from forge.core.solve.loop import Convergence, NoteKind

VerifyStatusOrUnverified = Literal["passed", "failed", "escalated", "abstained", "unverified"]


class EvidenceItemOut(BaseModel):
    statement: str = Field(description="What the evidence bears on: the claim, or the state-of-the-art summary.")
    claim_id: str | None = Field(description="The knowledge-graph claim it is traced to, if any.")
    source: str | None = Field(
        description="The source research returned (or the person's document); none for a bare claim."
    )
    title: str
    summary: str
    relation: str = Field(description="supporting, contradicting, contextual, or validated_claim.")
    trace: str = Field(
        description="How it entered the session: the research query, the person, or the validated claim."
    )
    hypothesis_ids: list[str] = Field(
        default_factory=list,
        description="The pool hypotheses (BISO, SEARCH children, starred) the claim it supports came from.",
    )
    verify_status: VerifyStatusOrUnverified = Field(
        default="unverified",
        description="VERIFY's status of the claim it supports; `failed` means the person kept it over VERIFY's verdict.",
    )


class AnswerRiskOut(BaseModel):
    text: str
    severity: str = Field(description="high, medium or low.")
    mitigation: str
    unresolved: bool = Field(description="A high risk Solve could not remove.")


class RankedHypothesisOut(BaseModel):
    id: str
    title: str
    domain: str
    statement: str
    score: float = Field(description="Rule-layer composite score, 0..10.")
    gate_status: str = Field(description="The mapping-quality gate: passed or failed.")
    verify_status: str = Field(
        description="VERIFY's status (passed, failed, escalated, abstained), or `unverified` when it never judged it."
    )
    verify_score: float | None = Field(default=None, description="VERIFY's final score 0..10; null when not judged.")
    novelty_unverified: bool = Field(
        default=False,
        description="VERIFY searched prior art and found nothing related: its novelty was capped, not taken as novel.",
    )
    prior_art_searched: str = Field(
        default="",
        description="Where VERIFY searched prior art: `web`, `local_corpus`, both comma-separated, or empty.",
    )


class ComplianceCheckOut(BaseModel):
    constraint: str
    origin: ConstraintOrigin
    verdict: ComplianceVerdict
    reason: str
    relaxing_allows: str = Field(default="", description="For a violation: what relaxing the constraint would allow.")


class ComplianceOut(BaseModel):
    status: ComplianceStatus = Field(description="compliant, unverified (some unclear), or violation.")
    checks: list[ComplianceCheckOut] = Field(description="One row per audited hard constraint.")
    revisions: int = Field(description="How many times the Talker revised the solution (at most 2).")


class LoopNoteOut(BaseModel):
    kind: NoteKind
    outer_round: int
    inner_round: int
    text: str


class SolveSummaryOut(BaseModel):
    status: Convergence
    unresolved_high_risks: int
    outer_rounds: int
    attempts: int
    constraints_added: list[str]
    notes: list[LoopNoteOut]
    failure: str


class SpendLineOut(BaseModel):
    tokens: int
    cost_usd: float
    calls: int


class MethodologyOut(BaseModel):
    domains: list[str]
    operators: list[HypothesisOperator]
    models: list[str]
    spend: SpendLineOut
    rounds: int
    supervisor_findings: list[str]
    scoring: list[str]  # who scored the hypotheses; whether the verifier is the generator itself


class UnmetConstraintOut(BaseModel):
    constraint: str
    origin: ConstraintOrigin
    why: str = Field(description="What in the best solution breaks it (the compliance audit's reason).")
    relaxing_allows: str = Field(description="What relaxing the constraint would allow.")


class CannotBeMetOut(BaseModel):
    constraints: list[UnmetConstraintOut] = Field(description="The hard constraints no solution met, in audit order.")
    revisions: int = Field(description="The revisions tried before giving up (at most 2).")
    withheld_answer: str = Field(description="The direct answer of the withheld, violating solution (not the answer).")


class AnswerPackOut(BaseModel):
    title: str
    question: str
    direct_answer: str
    solution_markdown: str = Field(description="The Talker's solution, Markdown (render it escaped).")
    key_evidence: list[EvidenceItemOut]
    risks: list[AnswerRiskOut]
    boundaries: list[str]
    ranking: list[RankedHypothesisOut] = Field(description="At most 5 hypotheses VERIFY passed, best first.")
    compliance: ComplianceOut
    solve: SolveSummaryOut
    methodology: MethodologyOut
    written_by: str
    offline: bool = Field(description="Written by the offline model (deterministic rules, no language model).")
    cannot_be_met: CannotBeMetOut | None = Field(
        default=None,
        description="Set when the best solution still broke a hard constraint after its revisions: it is withheld, "
        "and the direct answer says which constraint cannot be met and what relaxing it would allow.",
    )
    unranked: list[RankedHypothesisOut] = Field(
        default_factory=list, description="Ranking candidates VERIFY checked and did not pass (or could not check)."
    )

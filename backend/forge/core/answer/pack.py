"""The AnswerPack's records (seed 000 §7 stage 8): what a person can act on — direct answer,
traced evidence, risks and boundaries, the hypothesis ranking, the constraint compliance table, the
Solve summary and the methodology. Built by `build_answer_pack`, rendered by `render_answer_pack`,
kept in the session's ForgeState (`answer_pack`).

Invariants:
    - Every record is frozen and holds only JSON-encodable fields (str, numbers, enums, tuples of
      records), so `state_codec` stores it losslessly.
    - Every key-evidence item is traced (`claim_id` and/or `trace`), never a bare source.
    - `methodology.supervisor_findings` is a hook for the supervisor (SAGA): empty unless filled.
    - `cannot_be_met` is set exactly when the compliance audit still finds a violation after the
      revisions (seed 000 §6.4): the direct answer then says which hard constraint cannot be met and
      what relaxing it would allow, and the violating solution is not delivered as the answer.
    - `ranking` holds only hypotheses VERIFY passed (seed 000 §7 stage 6); `unranked` the candidates
      it checked that did not pass, or that it could not check, each with its real status.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.solve.compliance_audit import ComplianceResult
from forge.core.solve.constraints import ConstraintOrigin
from forge.core.solve.loop import Convergence, LoopNote


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    statement: str  # what the evidence supports: the claim, or the state-of-the-art summary
    claim_id: str | None
    source: str | None
    title: str
    summary: str
    relation: str  # supporting / contradicting / contextual / validated_claim
    trace: str  # "research query: …", "provided by the user", or "validated claim"
    hypothesis_ids: tuple[str, ...] = ()  # the pool hypotheses its claim came from (SEARCH, BISO, starred)
    verify_status: str = "unverified"  # VERIFY's status of its claim, or ranking.UNVERIFIED (a failed one stands by the person's decision)


@dataclass(frozen=True, slots=True)
class AnswerRisk:
    text: str
    severity: str
    mitigation: str
    unresolved: bool  # a high risk Solve could not remove


@dataclass(frozen=True, slots=True)
class RankedHypothesis:
    id: str
    title: str
    domain: str
    statement: str
    score: float  # composite, 0..10
    gate_status: str
    verify_status: str
    verify_score: float | None = None  # VERIFY's final score, None when it did not judge the hypothesis
    # VERIFY searched prior art and found nothing related: its novelty is capped, not taken as "novel".
    novelty_unverified: bool = False
    prior_art_searched: str = ""  # where VERIFY searched prior art: "web", "local_corpus", both, or "" (not searched)


@dataclass(frozen=True, slots=True)
class SolveSummary:
    status: Convergence
    unresolved_high_risks: int
    outer_rounds: int
    attempts: int
    constraints_added: tuple[str, ...]
    notes: tuple[LoopNote, ...]
    failure: str = ""


@dataclass(frozen=True, slots=True)
class SpendLine:
    tokens: int
    cost_usd: float
    calls: int


@dataclass(frozen=True, slots=True)
class Methodology:
    domains: tuple[str, ...]
    operators: tuple[str, ...]
    models: tuple[str, ...]
    spend: SpendLine
    rounds: int
    supervisor_findings: tuple[str, ...] = ()
    scoring: tuple[str, ...] = ()  # who scored the hypotheses, and whether the verifier is the generator


@dataclass(frozen=True, slots=True)
class UnmetConstraint:
    constraint: str
    origin: ConstraintOrigin
    why: str  # the audit's reason: what in the best solution breaks it
    relaxing_allows: str  # what relaxing the constraint would allow


@dataclass(frozen=True, slots=True)
class CannotBeMet:
    """Solve's best solution still broke these hard constraints after its revisions: it is withheld."""

    constraints: tuple[UnmetConstraint, ...]
    revisions: int
    withheld_answer: str  # the direct answer of the solution that breaks them, kept for the record


@dataclass(frozen=True, slots=True)
class AnswerPack:
    title: str
    question: str
    direct_answer: str
    solution_markdown: str
    key_evidence: tuple[EvidenceItem, ...]
    risks: tuple[AnswerRisk, ...]
    boundaries: tuple[str, ...]
    ranking: tuple[RankedHypothesis, ...]
    compliance: ComplianceResult
    solve: SolveSummary
    methodology: Methodology
    written_by: str
    offline: bool
    cannot_be_met: CannotBeMet | None = None
    unranked: tuple[RankedHypothesis, ...] = ()


@dataclass(frozen=True, slots=True)
class TalkerAnswer:
    direct_answer: str
    solution_markdown: str

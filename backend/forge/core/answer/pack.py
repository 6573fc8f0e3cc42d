"""The AnswerPack's records (seed 000 §7 stage 8): what a person can act on — direct answer,
traced evidence, risks and boundaries, the hypothesis ranking, the constraint compliance table, the
Solve summary and the methodology. Built by `build_answer_pack`, rendered by `render_answer_pack`,
kept in the session's ForgeState (`answer_pack`).

Invariants:
    - Every record is frozen and holds only JSON-encodable fields (str, numbers, enums, tuples of
      records), so `state_codec` stores it losslessly.
    - Every key-evidence item is traced (`claim_id` and/or `trace`), never a bare source.
    - `methodology.supervisor_findings` is a hook for the supervisor (SAGA): empty unless filled.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.solve.compliance_audit import ComplianceResult
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


@dataclass(frozen=True, slots=True)
class TalkerAnswer:
    direct_answer: str
    solution_markdown: str

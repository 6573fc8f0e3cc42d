"""Solve's model calls (seed 000 §6): the Reasoner's analysis (steps 1–4), plan (step 5) and audit
(step 6), the Talker's solution, and the hard-constraint compliance audit — each a typed
StructuredRequest any StructuredModel answers (Anthropic, OpenAI-compatible, offline).

Invariants:
    - Every prompt's input is wrapped by the ConstraintCompiler (`wrap_prompt`): the HardCore at
      the start and again at the end, the round's ActiveSoftSet after it.
    - Each request carries its typed `offline_context`, what a deterministic generator works from;
      real providers never send it (they read `input`).
    - The material is the session's record only (claims that stand with their verdicts, what each
      piece of evidence says, the falsification and novelty results, VERIFY's verdict and the
      red-team challenges they failed; rejected directions; gaps): nothing else is offered as
      evidence. A claim VERIFY did not pass or a challenge broke is marked so the Reasoner does not
      build on it unawares.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, Field

from forge.core.answer.pack import TalkerAnswer
from forge.core.domain_types import ClaimId
from forge.core.session.records import Claim, Evidence, NegativeKnowledge
from forge.core.solve.compliance_audit import ComplianceCheck, ComplianceVerdict
from forge.core.solve.constraints import ConstraintSpec, compile_constraints, wrap_prompt
from forge.core.solve.loop import Analysis, BeliefState, PlanStep, RiskSeverity, SolutionPlan
from forge.core.solve.record import ClaimChecks, RedTeamFailure, verify_line
from forge.engine.language_rule import language_rule
from forge.ports import StructuredRequest

REASONER_ROLE = """You are the Reasoner of a Talker–Reasoner solver. Work only from the session's record below
(claims with their verdicts, qualifications, what their evidence says, falsification results, the independent
VERIFY verdict and the red-team challenges they failed; rejected directions; gaps). A claim VERIFY did not pass
or a red-team challenge broke is not a foundation: use it only as a test, with its weakness stated. Never invent
a source, a number or a result the record does not hold. Write in the language of the problem."""
EVIDENCE_CHARS = 400


@dataclass(frozen=True, slots=True)
class SolveMaterial:
    problem: str
    objective: str
    claims: tuple[Claim, ...]  # the graph's claims that stand, strongest first
    negative: tuple[NegativeKnowledge, ...]
    gaps: tuple[str, ...]
    checks: tuple[ClaimChecks, ...] = ()  # VERIFY and the red team on each claim (`core.solve.record`)
    red_team: tuple[RedTeamFailure, ...] = ()  # failed challenges on pool hypotheses no claim came from

    def checks_of(self, claim_id: ClaimId) -> ClaimChecks:
        return next((c for c in self.checks if c.claim_id == claim_id), ClaimChecks(claim_id, None))


class AnalysisOutput(BaseModel):
    problem_analysis: str = Field(min_length=10, description="Step 1: what must change, for whom, within which limits.")
    hypothesis_assessments: list[str] = Field(
        description="Step 2: each standing claim judged: does it answer the problem?"
    )
    evidence: list[str] = Field(description="Step 3: the evidence the record holds for them, with its source.")
    cross_checks: list[str] = Field(description="Step 4: where claims, evidence or rejected directions disagree.")


class PlanOutput(BaseModel):
    summary: str = Field(min_length=10, description="The approach in one or two sentences.")
    steps: list[str] = Field(min_length=1, max_length=16, description="Concrete, ordered actions.")


class RiskOut(BaseModel):
    text: str = Field(min_length=5, description="What could go wrong with the plan, concretely.")
    severity: RiskSeverity = Field(description="high: the plan fails or breaks a limit; medium; low.")
    mitigation: str = Field(default="", description="What would remove the risk, as a requirement on the plan.")


class AuditOutput(BaseModel):
    risks: list[RiskOut] = Field(description="Every risk found; an empty list when the plan is sound.")


class TalkerOutput(BaseModel):
    direct_answer: str = Field(min_length=20, description="Two to four sentences answering the question directly.")
    solution_markdown: str = Field(
        min_length=20, description="The actionable solution in Markdown: steps, owners, measures."
    )


class CheckOut(BaseModel):
    index: int = Field(ge=0, description="The number of the constraint in the list (0 is the first).")
    reason: str = Field(
        min_length=3, description="First: quote the part of the solution that decides the verdict, and say why."
    )
    verdict: ComplianceVerdict = Field(description="pass, violation, or unclear when the text does not tell.")
    relaxing_would_allow: str = Field(
        default="",
        max_length=1000,
        description="For a violation only: what the solution could achieve if this constraint were relaxed "
        "(what the breaking part buys), so the person can decide whether to relax it; empty otherwise.",
    )


class ComplianceOutput(BaseModel):
    checks: list[CheckOut] = Field(description="One check per constraint.")


@dataclass(frozen=True, slots=True)
class AnalysisContext:
    material: SolveMaterial


@dataclass(frozen=True, slots=True)
class PlanContext:
    material: SolveMaterial
    analysis: Analysis
    step: PlanStep


@dataclass(frozen=True, slots=True)
class AuditContext:
    material: SolveMaterial
    plan: SolutionPlan
    constraints: tuple[ConstraintSpec, ...]


@dataclass(frozen=True, slots=True)
class TalkerContext:
    material: SolveMaterial
    belief: BeliefState
    violations: tuple[ComplianceCheck, ...]  # what the last compliance audit found (a revision)
    previous: TalkerAnswer | None


@dataclass(frozen=True, slots=True)
class ComplianceContext:
    hard: tuple[ConstraintSpec, ...]
    answer: TalkerAnswer


def _evidence_line(e: Evidence) -> str:
    says = " ".join(e.summary.split())
    says = says if len(says) <= EVIDENCE_CHARS else says[: EVIDENCE_CHARS - 1] + "…"
    return f"  Evidence ({e.evidence_type.value}): {e.title} <{e.source}>" + (f" — says: {says}" if says else "")


def _claim_line(c: Claim, checks: ClaimChecks) -> str:
    score = f"mean score {c.scores.mean:.2f}" if c.scores else "unscored"
    weak = " [WEAKENED: see VERIFY / red team]" if checks.weakened else ""
    parts = [f"- [{c.status.value}, {c.confidence.value}, {score}]{weak} {c.text}"]
    if c.qualification:
        parts.append(f"  Qualification: {c.qualification}")
    if c.falsifiability_condition:
        parts.append(f"  Falsifiable if: {c.falsifiability_condition}")
    parts.append(f"  Falsification result: {c.falsification_summary or 'no falsification attempt recorded'}")
    if c.novelty_summary:
        parts.append(f"  Novelty check: {c.novelty_summary}")
    parts.append(f"  {verify_line(checks.verification)}")
    parts += [f"  Red team ({f.checkpoint}) challenge failed: {f.challenge}" for f in checks.red_team]
    parts += [_evidence_line(e) for e in c.evidence]
    return "\n".join(parts)


def material_text(m: SolveMaterial) -> str:
    lines = [f"Problem:\n{m.problem}", "", f"Objective: {m.objective}", "", "Claims that stand:"]
    lines += [_claim_line(c, m.checks_of(c.id)) for c in m.claims] or ["- none"]
    if m.red_team:
        lines += ["", "Red-team challenges failed by pool hypotheses:"]
        lines += [f"- ({f.checkpoint}) {', '.join(f.targets)}: {f.challenge}" for f in m.red_team]
    lines += ["", "Rejected directions:"] + ([f"- {n.claim_text} ({n.reason})" for n in m.negative] or ["- none"])
    lines += ["", "Gaps:"] + ([f"- {g}" for g in m.gaps] or ["- none"])
    return "\n".join(lines)


def analysis_request(m: SolveMaterial, constraints: tuple[ConstraintSpec, ...]) -> StructuredRequest[AnalysisOutput]:
    compiled = compile_constraints(constraints, m.objective)
    return StructuredRequest(
        name="record_reasoner_analysis",
        purpose="Record steps 1-4 of the Reasoner: problem analysis, hypothesis evaluation, evidence, cross-validation.",
        instructions=REASONER_ROLE,
        input=wrap_prompt(compiled, material_text(m)),
        output=AnalysisOutput,
        max_tokens=3000,
        offline_context=AnalysisContext(m),
    )


def _analysis_text(a: Analysis) -> str:
    return "\n".join(
        [
            f"Analysis: {a.problem_analysis}",
            *(f"- {h}" for h in a.hypothesis_assessments),
            *(f"- {x}" for x in a.cross_checks),
        ]
    )


def plan_request(m: SolveMaterial, analysis: Analysis, step: PlanStep) -> StructuredRequest[PlanOutput]:
    risks = "\n".join(
        f"- {r.text}" + (f" (mitigation: {r.mitigation})" if r.mitigation else "") for r in step.prior_risks
    )
    focus = " ".join([m.objective, *(r.text for r in step.prior_risks)])
    body = f"{material_text(m)}\n\n{_analysis_text(analysis)}"
    if risks:
        body += f"\n\nThe last audit found these HIGH risks; the new plan must remove each one:\n{risks}"
    if step.reframe:
        body += "\n\nThe same risks came back: restructure the approach instead of patching the last plan."
    return StructuredRequest(
        name="record_solution_plan",
        purpose="Record step 5 of the Reasoner: the solution plan.",
        instructions=REASONER_ROLE + "\nPlan the solution: build on the strongest claims, keep their qualifications.",
        input=wrap_prompt(compile_constraints(step.constraints, focus), body),
        output=PlanOutput,
        max_tokens=2500,
        offline_context=PlanContext(m, analysis, step),
    )


def plan_text(plan: SolutionPlan) -> str:
    return "\n".join([f"Plan: {plan.summary}", *(f"{i}. {s}" for i, s in enumerate(plan.steps, 1))])


def audit_request(
    m: SolveMaterial, plan: SolutionPlan, constraints: tuple[ConstraintSpec, ...]
) -> StructuredRequest[AuditOutput]:
    compiled = compile_constraints(constraints, " ".join([plan.summary, *plan.steps]))
    return StructuredRequest(
        name="record_quality_audit",
        purpose="Record step 6 of the Reasoner: the plan's risks with their severity.",
        instructions=REASONER_ROLE
        + "\nAudit the plan adversarially: a step that breaks a hard constraint, rests on a claim the record does "
        "not support (contradicting evidence, a falsification that succeeded, a VERIFY verdict other than passed, a "
        "failed red-team challenge), or ignores a claim's qualification is a HIGH risk.",
        input=wrap_prompt(compiled, f"{material_text(m)}\n\n{plan_text(plan)}"),
        output=AuditOutput,
        max_tokens=2000,
        offline_context=AuditContext(m, plan, constraints),
    )


def talker_request(
    m: SolveMaterial,
    belief: BeliefState,
    violations: tuple[ComplianceCheck, ...] = (),
    previous: TalkerAnswer | None = None,
) -> StructuredRequest[TalkerOutput]:
    body = f"{material_text(m)}\n\n{_analysis_text(belief.analysis)}\n\n{plan_text(belief.plan)}"
    body += "\n\nRemaining risks:\n" + (
        "\n".join(f"- [{r.severity.value}] {r.text}" for r in belief.audit.risks) or "- none"
    )
    if previous is not None and violations:
        body += "\n\nYour last solution violated these hard constraints; rewrite it so that none is broken:\n"
        body += "\n".join(f"- {v.constraint}: {v.reason}" for v in violations)
        body += f"\n\nLast solution:\n{previous.solution_markdown}"
    return StructuredRequest(
        name="record_solution",
        purpose="Record the Talker's actionable solution and its direct answer.",
        instructions="You are the Talker: turn the Reasoner's belief state into an answer a person can act on. "
        "Lead with the direct answer, then the steps, who does them and what to measure; keep every "
        "qualification and name the remaining risks. Write in the language of the problem.",
        input=wrap_prompt(compile_constraints(belief.constraints, m.objective), body),
        output=TalkerOutput,
        max_tokens=4000,
        offline_context=TalkerContext(m, belief, violations, previous),
    )


def compliance_request(hard: tuple[ConstraintSpec, ...], answer: TalkerAnswer) -> StructuredRequest[ComplianceOutput]:
    listed = "\n".join(f"{i}. {c.text}" for i, c in enumerate(hard))
    return StructuredRequest(
        name="record_compliance_audit",
        purpose="Record, for each hard constraint, whether the solution complies.",
        instructions="Audit the solution against each hard constraint separately. violation: some step or "
        "statement breaks it; pass: the solution respects it; unclear: the text does not let you tell. Write the "
        "reason first, quoting the deciding part of the solution, then the verdict. For a violation, also say what relaxing that "
        "constraint would allow: what the breaking part achieves that no compliant step does."
        + language_rule("the hard constraints and the solution"),
        input=f"Hard constraints:\n{listed}\n\nDirect answer:\n{answer.direct_answer}\n\nSolution:\n{answer.solution_markdown}",
        output=ComplianceOutput,
        max_tokens=2000,
        offline_context=ComplianceContext(hard, answer),
    )

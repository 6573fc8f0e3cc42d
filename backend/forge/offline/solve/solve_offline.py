"""The offline model as Solve's Reasoner, auditor, Talker and compliance auditor: deterministic rules
over the session's record and the constraint library. No language model; every output says so.

Rules:
    - Plan: mitigations of prior high risks, a pilot per strongest claim (qualification and stop
      condition), a step per hard constraint, then the active risk-refinement constraints.
    - Audit: a piloted claim with contradicting or no supporting evidence, or that VERIFY did not pass or
      a red-team challenge broke, is a HIGH risk, a hard constraint no step mentions is HIGH, a
      qualification MEDIUM; a "Mitigate:" step addresses a risk. A violation's "relaxing would allow"
      quotes the step that breaks it.
    - Compliance: a sentence the CP-1 audit finds in conflict with a constraint, or (for a forbidding
      constraint, "without more staff") an increase word (hire, add, more …) within three words before
      its subject in a sentence without negation, is a VIOLATION; a revision drops those sentences.
"""

from __future__ import annotations

import re
from typing import Any

from forge.core.domain_types import EvidenceType
from forge.core.frame.audit_constraints import (
    Constraint,
    ConstraintFindingKind,
    audit_constraints,
    is_negative,
    subject_stems,
)
from forge.core.research.text_terms import shares_terms
from forge.core.session.records import Claim
from forge.core.solve.compliance_audit import ComplianceVerdict
from forge.core.solve.constraints import ConstraintOrigin, compile_constraints
from forge.core.solve.loop import RiskSeverity
from forge.core.solve.record import ClaimChecks, verify_line
from forge.engine.solve.requests import (
    AnalysisContext,
    AnalysisOutput,
    AuditContext,
    AuditOutput,
    CheckOut,
    ComplianceContext,
    ComplianceOutput,
    PlanContext,
    PlanOutput,
    RiskOut,
    TalkerContext,
    TalkerOutput,
)
from forge.offline.offline_structured_model import offline_context
from forge.offline.text.wording import shorten
from forge.ports import StructuredRequest

OFFLINE_LABEL = "_Offline model: assembled deterministically from this session's claims, evidence and constraints; "
OFFLINE_LABEL += "no language model._"
PILOTS = 3
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_INCREASE = frozenset("hire hiring hired add adding added more extra additional increase increasing".split())
_INCREASE |= frozenset("recruit recruiting expand expanding buy buying new".split())
_WORD = re.compile(r"[\w'-]+")


def _short(text: str) -> str:
    return shorten(text, 90)


def _high(text: str, mitigation: str) -> RiskOut:
    return RiskOut(text=text, severity=RiskSeverity.HIGH, mitigation=mitigation)


def offline_analysis(request: StructuredRequest[Any]) -> AnalysisOutput:
    m = offline_context(request, AnalysisContext).material
    assessments: list[str] = []
    evidence: list[str] = []
    cross: list[str] = []
    for c in m.claims:  # what the record says of each claim: scores, evidence, falsification, VERIFY, red team
        score, short, checks = f"{c.scores.mean:.2f}" if c.scores else "unscored", _short(c.text), m.checks_of(c.id)
        qualified = f" (qualified: {c.qualification})" if c.qualification else ""
        assessments.append(f"{c.status.value}, {c.confidence.value}, mean score {score}: {c.text}{qualified}")
        evidence += [
            f"{e.evidence_type.value}: {e.title} <{e.source}> for “{short}”: {_short(e.summary)}" for e in c.evidence
        ]
        against = [e.title for e in c.evidence if e.evidence_type is EvidenceType.CONTRADICTING]
        cross += [f"“{short}” has contradicting evidence: {t}" for t in against]
        cross += [f"Falsification of “{short}”: {c.falsification_summary}"] if c.falsification_summary else []
        cross += [f"“{short}” is weakened: {_weakness(checks)}"] if checks.weakened else []
    cross += [f"Rejected direction: {n.claim_text} ({n.reason})" for n in m.negative]
    return AnalysisOutput(
        problem_analysis=f"Objective: {m.objective}. Standing claims: {len(m.claims)}; rejected directions: "
        f"{len(m.negative)}; open gaps: {len(m.gaps)}.",
        hypothesis_assessments=assessments,
        evidence=evidence,
        cross_checks=cross,
    )


def _pilot(c: Claim) -> str:
    only = f" — qualified: {c.qualification}" if c.qualification else ""
    stop = f"; stop if: {c.falsifiability_condition}" if c.falsifiability_condition else ""
    return f"Pilot: {c.text}{only}{stop}"


def offline_plan(request: StructuredRequest[Any]) -> PlanOutput:
    ctx = offline_context(request, PlanContext)
    m, step = ctx.material, ctx.step
    steps = [f"Mitigate: {r.mitigation or 'remove this risk'} (risk: {r.text})" for r in step.prior_risks]
    steps += [_pilot(c) for c in m.claims[:PILOTS]]
    compiled = compile_constraints(step.constraints, m.objective)
    steps += [f"Hold the limit: {c.text} — check it before and during every pilot." for c in compiled.hard_core]
    steps += [f"Meet: {c.text}" for c in compiled.active_soft if c.origin is ConstraintOrigin.RISK_REFINEMENT]
    first = m.claims[0].text if m.claims else ""
    lead = f"Act on the strongest standing claim first: {first}" if first else "No claim stands yet: gather evidence."
    lead = f"Restructured after repeated risks. {lead}" if step.reframe else lead
    return PlanOutput(summary=lead, steps=steps or [f"Measure the baseline of: {m.objective}"])


def _weakness(checks: ClaimChecks) -> str:
    return "; ".join([verify_line(checks.verification), *(f"red team: {f.challenge}" for f in checks.red_team)])


def _claim_risks(c: Claim, checks: ClaimChecks) -> list[RiskOut]:
    claim = f"“{_short(c.text)}”"
    against = [e.title for e in c.evidence if e.evidence_type is EvidenceType.CONTRADICTING][:1]
    risks = [
        _high(
            f"{claim} has contradicting evidence ({t}) the plan does not rule out",
            f"Before scaling, measure where {t} applies and pilot only outside it",
        )
        for t in against
    ]
    if not any(e.evidence_type is EvidenceType.SUPPORTING for e in c.evidence):
        test = "Run the pilot as a small, reversible test with a baseline before committing"
        risks.append(_high(f"{claim} rests on no supporting research", test))
    if checks.weakened:
        risks.append(_high(f"{claim} is weakened ({_weakness(checks)})", "Pilot it only as a test, not a base"))
    medium = [RiskOut(text=f"{claim} is qualified: {c.qualification}", severity=RiskSeverity.MEDIUM)]
    return risks + (medium if c.qualification else [])


def offline_audit(request: StructuredRequest[Any]) -> AuditOutput:
    ctx = offline_context(request, AuditContext)
    steps, m = ctx.plan.steps, ctx.material
    piloted = [c for c in m.claims if any(s.startswith("Pilot:") and c.text in s for s in steps)]
    risks = [r for c in piloted for r in _claim_risks(c, m.checks_of(c.id))]
    if not m.claims:
        test = "Measure the baseline and test one option before committing resources"
        risks.append(_high("No validated claim supports any step of the plan", test))
    for c in ctx.constraints:
        if c.is_hard and not any(c.text.lower() in s.lower() for s in steps):
            held = f"Add a step that checks “{c.text}” holds"
            risks.append(_high(f"The plan does not say how “{c.text}” is held", held))
    mitigated = " ".join(s for s in steps if s.startswith("Mitigate:"))
    kept = [r for r in risks if not (r.severity is RiskSeverity.HIGH and r.text in mitigated)]
    return AuditOutput(risks=kept)


def offline_talker(request: StructuredRequest[Any]) -> TalkerOutput:
    ctx = offline_context(request, TalkerContext)
    belief, m = ctx.belief, ctx.material
    hard = [c.text for c in belief.constraints if c.is_hard]
    risks, high = belief.audit.risks, [r for r in belief.audit.risks if r.severity is RiskSeverity.HIGH]
    limits = f" It keeps these limits: {'; '.join(hard)}." if hard else ""
    left = f"Open risks: {len(risks)} ({len(high)} high)." if risks else "No risk remains open."
    direct = f"{belief.plan.summary.rstrip('.')}.{limits} {left}"
    lines = [f"**Plan.** {belief.plan.summary}", "", *(f"{i}. {s}" for i, s in enumerate(belief.plan.steps, 1))]
    lines += ["", "**Remaining risks**", ""]
    lines += [f"- [{r.severity.value}] {r.text}" for r in belief.audit.risks] or ["- none found by the audit"]
    lines += ["", OFFLINE_LABEL]
    solution = "\n".join(lines)
    for violation in ctx.violations:  # a revision: drop what breaks the limit, then state it
        direct = _without_conflicts(direct, violation.constraint)
        solution = _without_conflicts(solution, violation.constraint)
        solution += f"\n\nHolds: {violation.constraint}."
    if not m.claims:
        direct += " No claim of this session survived validation, so the plan starts by measuring."
    return TalkerOutput(direct_answer=direct, solution_markdown=solution)


def _conflicts(constraint: str, sentence: str) -> bool:
    if audit_constraints([Constraint(constraint), Constraint(sentence)]).of_kind(ConstraintFindingKind.CONFLICT):
        return True
    if not is_negative(constraint) or is_negative(sentence):
        return False
    subject = subject_stems(constraint)
    words = [w.lower() for w in _WORD.findall(sentence)]
    return any(
        subject_stems(word) & subject and _INCREASE.intersection(words[max(0, i - 3) : i])
        for i, word in enumerate(words)
    )


def _without_conflicts(text: str, constraint: str) -> str:
    return "\n".join(
        " ".join(s for s in _SENTENCE.split(line) if not _conflicts(constraint, s)) for line in text.split("\n")
    )


def offline_compliance(request: StructuredRequest[Any]) -> ComplianceOutput:
    ctx = offline_context(request, ComplianceContext)
    text = f"{ctx.answer.direct_answer}\n{ctx.answer.solution_markdown}"
    sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
    checks = []
    for i, c in enumerate(ctx.hard):
        breaking = next((s for s in sentences if _conflicts(c.text, s)), None)
        addressing = next((s for s in sentences if shares_terms(c.text, s)), None)
        relaxing = f"the step the lexical check found breaking it: “{_short(breaking)}”" if breaking else ""
        if breaking is not None:
            verdict, reason = ComplianceVerdict.VIOLATION, f"It conflicts with: “{_short(breaking)}”"
        elif addressing is not None:
            reason = f"Addressed by “{_short(addressing)}”; no sentence conflicts with it (lexical check)"
            verdict = ComplianceVerdict.PASS
        else:
            verdict, reason = ComplianceVerdict.UNCLEAR, "No sentence of the solution speaks to it"
        checks.append(CheckOut(index=i, verdict=verdict, reason=reason, relaxing_would_allow=relaxing))
    return ComplianceOutput(checks=checks)

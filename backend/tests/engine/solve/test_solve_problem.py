"""Solve over a scripted structured model: the dual loop converges, exhausts its limits or runs out
of new constraints; the compliance audit revises a violating solution at most twice and then
reports the violation instead of returning it as compliant; HardCore wraps every prompt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from support.solve_examples import LIMIT, MATERIAL

from forge.core.llm.messages import Usage
from forge.core.solve.compliance_audit import ComplianceStatus, ComplianceVerdict
from forge.core.solve.loop import Convergence, RiskSeverity, SolveConfig
from forge.engine.solve.requests import (
    AnalysisOutput,
    AuditOutput,
    CheckOut,
    ComplianceOutput,
    PlanOutput,
    RiskOut,
    TalkerOutput,
)
from forge.engine.solve.solve_problem import run_solve
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

ANALYSIS = AnalysisOutput(
    problem_analysis="Waits come from evening peaks.", hypothesis_assessments=[], evidence=[], cross_checks=[]
)
PLAN = PlanOutput(summary="Smooth the evening peak", steps=["Move elective admissions to mornings"])
TALK = TalkerOutput(
    direct_answer="Smooth the evening peak without more staff.",
    solution_markdown="1. Move elective admissions to mornings.",
)


class Scripted:
    """Answers each output type from its own queue (the last answer repeats); records every request."""

    label = "scripted"

    def __init__(self, answers: dict[type[BaseModel], Sequence[BaseModel | str]]) -> None:
        self.answers = {k: list(v) for k, v in answers.items()}
        self.requests: list[StructuredRequest[Any]] = []

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        queue = self.answers[request.output]
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, str):
            return StructuredFailure(answer, Usage(input_tokens=5), 1)
        return StructuredResult(answer, Usage(input_tokens=10, output_tokens=5), 1)

    def names(self) -> list[str]:
        return [r.name for r in self.requests]


def risks(*texts: str) -> AuditOutput:
    return AuditOutput(risks=[RiskOut(text=t, severity=RiskSeverity.HIGH) for t in texts])


def passing(verdict: ComplianceVerdict = ComplianceVerdict.PASS) -> ComplianceOutput:
    return ComplianceOutput(checks=[CheckOut(index=0, verdict=verdict, reason="step 1 keeps the staff as is")])


def scripted(audits: Sequence[AuditOutput], compliance: Sequence[ComplianceOutput | str] = ()) -> Scripted:
    return Scripted(
        {
            AnalysisOutput: [ANALYSIS],
            PlanOutput: [PLAN],
            AuditOutput: list(audits),
            TalkerOutput: [TALK],
            ComplianceOutput: list(compliance) or [passing()],
        }
    )


async def test_solve_converges_when_the_second_audit_finds_no_high_risk() -> None:
    model = scripted([risks("lab results arrive late"), AuditOutput(risks=[])])
    run = await run_solve(model, MATERIAL, (LIMIT,), SolveConfig(inner_max=3, outer_max=2))
    assert run.finished is not None and run.finished.status is Convergence.CONVERGED
    assert model.names() == [
        "record_reasoner_analysis",
        "record_solution_plan",
        "record_quality_audit",
        "record_solution_plan",
        "record_quality_audit",
        "record_solution",
        "record_compliance_audit",
    ]
    assert "lab results arrive late" in model.requests[3].input  # the re-plan carries the high risk
    assert run.compliance is not None and run.compliance.status is ComplianceStatus.COMPLIANT
    assert run.usage.input_tokens == 70 and run.calls == 7


async def test_every_prompt_opens_and_closes_with_the_hard_core() -> None:
    model = scripted([AuditOutput(risks=[])])
    await run_solve(model, MATERIAL, (LIMIT,))
    for request in model.requests[:-1]:  # the compliance audit lists the constraints itself
        head, _, tail = request.input.partition("REMINDER")
        assert "without more staff" in head and "without more staff" in tail, request.name


async def test_solve_exhausts_its_limits_and_reports_the_unresolved_high_risks() -> None:
    model = scripted(
        [risks(f"a distinct risk number {i} about {w}") for i, w in enumerate(("beds", "labs", "xray", "pharmacy"))]
    )
    run = await run_solve(model, MATERIAL, (LIMIT,), SolveConfig(inner_max=2, outer_max=2))
    assert run.finished is not None and run.finished.status is Convergence.LIMITS_REACHED
    assert run.finished.unresolved_high_risks == 1 and run.finished.outer_rounds == 2
    assert model.names().count("record_quality_audit") == 4
    assert run.answer is not None  # the best attempt is still answered, with its risks named


async def test_solve_stops_when_the_risks_give_no_new_constraint() -> None:
    model = scripted(
        [
            AuditOutput(
                risks=[RiskOut(text="staff burn out", severity=RiskSeverity.HIGH, mitigation="without more staff")]
            )
        ]
    )
    run = await run_solve(model, MATERIAL, (LIMIT,), SolveConfig(inner_max=1, outer_max=3))
    assert run.finished is not None and run.finished.status is Convergence.NO_NEW_CONSTRAINTS
    assert model.names().count("record_solution_plan") == 1


async def test_a_solution_that_keeps_violating_is_reported_after_two_revisions() -> None:
    violation = passing(ComplianceVerdict.VIOLATION)
    model = scripted([AuditOutput(risks=[])], [violation])
    run = await run_solve(model, MATERIAL, (LIMIT,))
    assert run.compliance is not None and run.compliance.status is ComplianceStatus.VIOLATION
    assert run.compliance.revisions == 2 and len(run.compliance.violations) == 1
    assert model.names().count("record_solution") == 3 and model.names().count("record_compliance_audit") == 3
    revision = [r for r in model.requests if r.name == "record_solution"][1]
    assert "violated these hard constraints" in revision.input and "without more staff" in revision.input


async def test_a_violation_keeps_what_relaxing_its_constraint_would_allow_and_a_pass_keeps_none() -> None:
    allows = "two evening nurses would halve the peak wait"
    violation = ComplianceOutput(
        checks=[CheckOut(index=0, verdict=ComplianceVerdict.VIOLATION, reason="step 2", relaxing_would_allow=allows)]
    )
    run = await run_solve(scripted([AuditOutput(risks=[])], [violation]), MATERIAL, (LIMIT,))
    assert run.compliance is not None and run.compliance.violations[0].relaxing_allows == allows
    stray = CheckOut(index=0, verdict=ComplianceVerdict.PASS, reason="keeps staff", relaxing_would_allow="nothing")
    run = await run_solve(scripted([AuditOutput(risks=[])], [ComplianceOutput(checks=[stray])]), MATERIAL, (LIMIT,))
    assert run.compliance is not None and run.compliance.checks[0].relaxing_allows == ""


async def test_a_revision_that_fixes_the_violation_is_compliant() -> None:
    model = scripted([AuditOutput(risks=[])], [passing(ComplianceVerdict.VIOLATION), passing()])
    run = await run_solve(model, MATERIAL, (LIMIT,))
    assert run.compliance is not None and run.compliance.status is ComplianceStatus.COMPLIANT
    assert run.compliance.revisions == 1


async def test_a_failed_compliance_call_leaves_the_constraint_unclear_not_passed() -> None:
    model = scripted([AuditOutput(risks=[])], ["the model is down"])
    run = await run_solve(model, MATERIAL, (LIMIT,))
    assert run.compliance is not None and run.compliance.status is ComplianceStatus.UNVERIFIED
    assert "the model is down" in run.compliance.checks[0].reason


async def test_a_failed_analysis_gives_no_answer_and_says_why() -> None:
    model = Scripted({AnalysisOutput: ["invalid output twice"]})
    run = await run_solve(model, MATERIAL, (LIMIT,))
    assert run.answer is None and "invalid output twice" in run.failure and run.calls == 1

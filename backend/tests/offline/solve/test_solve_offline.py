"""The offline Reasoner, auditor, Talker and compliance auditor: deterministic readings of the
record, labelled as offline, that converge on a plan holding every hard constraint, that catch (and
revise away) a sentence breaking one, quoting it as what relaxing the limit would allow, and that
read falsification results, VERIFY and the red team (a weakened claim is a HIGH risk)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

from support.solve_examples import LIMIT, MATERIAL

from forge.core.answer.pack import TalkerAnswer
from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, Phase
from forge.core.session.records import Claim
from forge.core.solve.compliance_audit import ComplianceCheck, ComplianceVerdict
from forge.core.solve.loop import Analysis, BeliefState, Convergence, QualityAudit, SolutionPlan, SolveConfig
from forge.core.solve.record import ClaimChecks, RedTeamFailure
from forge.engine.solve.requests import (
    AnalysisOutput,
    AuditOutput,
    ComplianceOutput,
    PlanOutput,
    TalkerOutput,
    analysis_request,
    audit_request,
    compliance_request,
    talker_request,
)
from forge.engine.solve.solve_problem import run_solve
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.offline.solve.solve_offline import (
    OFFLINE_LABEL,
    offline_analysis,
    offline_audit,
    offline_compliance,
    offline_plan,
    offline_talker,
)
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

MODEL = OfflineStructuredModel(
    {
        AnalysisOutput: offline_analysis,
        PlanOutput: offline_plan,
        AuditOutput: offline_audit,
        TalkerOutput: offline_talker,
        ComplianceOutput: offline_compliance,
    },
    label="offline model",
)


async def value_of(request: StructuredRequest[Any]) -> Any:
    outcome: StructuredResult[Any] | StructuredFailure = await MODEL.generate(request)
    assert isinstance(outcome, StructuredResult), outcome
    return outcome.value


async def test_offline_solve_with_no_claims_mitigates_its_risk_and_passes_the_hard_constraint() -> None:
    run = await run_solve(MODEL, MATERIAL, (LIMIT,), SolveConfig())
    assert run.finished is not None and run.finished.status is Convergence.CONVERGED
    assert run.finished.attempts == 2  # first audit: no claim supports the plan; the re-plan mitigates it
    assert run.answer is not None and OFFLINE_LABEL in run.answer.solution_markdown
    assert "No claim of this session survived validation" in run.answer.direct_answer
    assert run.compliance is not None and [c.verdict for c in run.compliance.checks] == [ComplianceVerdict.PASS]


async def test_the_offline_auditor_flags_a_violating_sentence_and_the_revision_removes_it() -> None:
    plan = SolutionPlan(
        "Cover the evening peak", ("Hire more staff for the evening peak.", "Move electives to mornings.")
    )
    belief = BeliefState(Analysis("a", (), (), ()), plan, QualityAudit(()), (LIMIT,))
    written = await value_of(talker_request(MATERIAL, belief))
    answer = TalkerAnswer(written.direct_answer, written.solution_markdown)
    (check,) = (await value_of(compliance_request((LIMIT,), answer))).checks
    assert check.verdict is ComplianceVerdict.VIOLATION and "Hire more staff" in check.reason
    assert (
        check.relaxing_would_allow
        == "the step the lexical check found breaking it: “Hire more staff for the evening peak.”"
    )

    violation = ComplianceCheck(LIMIT.text, LIMIT.origin, check.verdict, check.reason)
    revised = await value_of(talker_request(MATERIAL, belief, (violation,), answer))
    assert "Hire more staff" not in revised.solution_markdown and "Move electives" in revised.solution_markdown
    fixed = TalkerAnswer(revised.direct_answer, revised.solution_markdown)
    (again,) = (await value_of(compliance_request((LIMIT,), fixed))).checks
    assert again.verdict is ComplianceVerdict.PASS and again.relaxing_would_allow == ""


async def test_the_offline_reasoner_reads_falsification_verify_and_red_team_and_audits_a_weakened_claim() -> None:
    claim = Claim(
        ClaimId(UUID(int=1)), "Move electives to mornings", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE,
        status=ClaimStatus.VALIDATED, falsification_summary="no counter-case found in 3 searches",
    )  # fmt: skip
    failure = RedTeamFailure("CP-6", (str(claim.id),), "a flu surge refills the mornings")
    material = replace(MATERIAL, claims=(claim,), checks=(ClaimChecks(claim.id, None, (failure,)),))
    analysis = await value_of(analysis_request(material, (LIMIT,)))
    assert "Falsification of “Move electives to mornings”: no counter-case found in 3 searches" in analysis.cross_checks
    assert any("red team: a flu surge refills the mornings" in c for c in analysis.cross_checks)
    plan = SolutionPlan("Pilot", ("Pilot: Move electives to mornings", "Hold the limit: without more staff"))
    audit = await value_of(audit_request(material, plan, (LIMIT,)))
    weakened = [r for r in audit.risks if "is weakened" in r.text]
    assert [r.severity.value for r in weakened] == ["high"]
    assert "VERIFY: not run on this claim" in weakened[0].text and "a flu surge" in weakened[0].text

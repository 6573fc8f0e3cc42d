"""Solve (seed 000 §6) over any StructuredModel: the Reasoner's analysis, the pure dual loop
(`core.solve_loop`) driven call by call, the belief synthesis, the Talker, and the hard-constraint
compliance audit with its revisions (`core.compliance_audit`).

Invariants:
    - The loop's decisions are all made by the pure core; this module only performs the calls the
      core asks for and feeds the results back, so the same scripted answers give the same run.
    - A failed call never raises: the analysis or the Talker failing gives a run without an
      answer (`answer is None`, `failure` says why); a plan or audit failing finishes the loop as
      FAILED with the best attempt so far; a compliance call failing leaves every constraint
      UNCLEAR with the reason — never a pass.
    - A solution that still violates a hard constraint after MAX_REVISIONS revisions is returned
      with status VIOLATION, its violations listed with what relaxing each would allow; the
      AnswerPack then withholds it (`core.answer.withheld`).
    - `usage` sums every call, failed or not; progress only moves forward.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.answer.pack import TalkerAnswer
from forge.core.domain_types import EngineStage
from forge.core.llm.messages import Usage
from forge.core.solve.compliance_audit import (
    MAX_REVISIONS,
    ComplianceCheck,
    ComplianceResult,
    ComplianceVerdict,
    Decision,
    JudgedConstraint,
    complete_checks,
    compliance_result,
    decide,
)
from forge.core.solve.constraints import ConstraintSpec, Similarity, term_jaccard
from forge.core.solve.loop import (
    Analysis,
    AuditStep,
    BeliefState,
    Finished,
    PlanStep,
    QualityAudit,
    Risk,
    SolutionPlan,
    SolveConfig,
    next_action,
    record_audit,
    record_failure,
    record_plan,
    start_solve,
)
from forge.engine.solve.requests import (
    SolveMaterial,
    analysis_request,
    audit_request,
    compliance_request,
    plan_request,
    talker_request,
)
from forge.engine.structured_batch import EngineProgress, ProgressSink
from forge.ports import ModelUnavailableError, OutputT, StructuredFailure, StructuredModel, StructuredRequest

STAGE = EngineStage.SOLVE


@dataclass(frozen=True, slots=True)
class SolveRun:
    analysis: Analysis | None
    finished: Finished | None
    belief: BeliefState | None
    answer: TalkerAnswer | None
    compliance: ComplianceResult | None
    usage: Usage
    calls: int
    failure: str = ""


class _Caller:
    """Counts calls and usage, reports progress, turns outages into failures."""

    def __init__(self, model: StructuredModel, total: int, progress: ProgressSink | None) -> None:
        self.model, self.total, self.progress = model, total, progress
        self.usage, self.calls, self.failed = Usage(), 0, 0

    async def call(self, request: StructuredRequest[OutputT]) -> OutputT | str:
        try:
            outcome = await self.model.generate(request)
        except ModelUnavailableError as error:
            outcome = StructuredFailure(str(error), error.usage, attempts=1)
        self.usage, self.calls = self.usage + outcome.usage, self.calls + 1
        self.failed += isinstance(outcome, StructuredFailure)
        if self.progress is not None:
            self.progress(EngineProgress(STAGE, self.calls, max(self.total, self.calls), self.failed))
        return outcome.message if isinstance(outcome, StructuredFailure) else outcome.value


def _max_calls(config: SolveConfig) -> int:
    return 1 + 2 * config.inner_max * config.outer_max + 2 * (1 + MAX_REVISIONS)


async def run_solve(
    model: StructuredModel,
    material: SolveMaterial,
    constraints: tuple[ConstraintSpec, ...],
    config: SolveConfig | None = None,
    *,
    progress: ProgressSink | None = None,
    similarity: Similarity = term_jaccard,
) -> SolveRun:
    config = config or SolveConfig()
    caller = _Caller(model, _max_calls(config), progress)
    if progress is not None:
        progress(EngineProgress(STAGE, 0, caller.total, 0))
    out = await caller.call(analysis_request(material, constraints))
    if isinstance(out, str):
        return SolveRun(None, None, None, None, None, caller.usage, caller.calls, f"Reasoner analysis failed: {out}")
    analysis = Analysis(
        out.problem_analysis, tuple(out.hypothesis_assessments), tuple(out.evidence), tuple(out.cross_checks)
    )
    finished = await _dual_loop(caller, material, analysis, constraints, config, similarity)
    if finished.best is None:
        message = f"No plan survived: {finished.failure or 'the loop made no attempt'}"
        return SolveRun(analysis, finished, None, None, None, caller.usage, caller.calls, message)
    belief = BeliefState(analysis, finished.best.plan, finished.best.audit, finished.constraints)
    answered = await _answer_with_compliance(caller, material, belief)
    if isinstance(answered, str):
        return SolveRun(analysis, finished, belief, None, None, caller.usage, caller.calls, answered)
    answer, compliance = answered
    return SolveRun(analysis, finished, belief, answer, compliance, caller.usage, caller.calls)


async def _dual_loop(
    caller: _Caller,
    material: SolveMaterial,
    analysis: Analysis,
    constraints: tuple[ConstraintSpec, ...],
    config: SolveConfig,
    similarity: Similarity,
) -> Finished:
    loop = start_solve(constraints, config)
    while True:
        action = next_action(loop)
        if isinstance(action, Finished):
            return action
        if isinstance(action, PlanStep):
            plan = await caller.call(plan_request(material, analysis, action))
            loop = (
                record_failure(loop, f"plan: {plan}")
                if isinstance(plan, str)
                else record_plan(loop, SolutionPlan(plan.summary.strip(), tuple(s.strip() for s in plan.steps)))
            )
        elif isinstance(action, AuditStep):
            audit = await caller.call(audit_request(material, action.plan, action.constraints))
            if isinstance(audit, str):
                loop = record_failure(loop, f"audit: {audit}")
                continue
            risks = tuple(Risk(r.text.strip(), r.severity, r.mitigation.strip()) for r in audit.risks)
            loop = record_audit(loop, QualityAudit(risks), similarity)


async def _answer_with_compliance(
    caller: _Caller, material: SolveMaterial, belief: BeliefState
) -> tuple[TalkerAnswer, ComplianceResult] | str:
    hard = tuple(c for c in belief.constraints if c.is_hard)
    written = await caller.call(talker_request(material, belief))
    if isinstance(written, str):
        return f"Talker failed: {written}"
    answer = TalkerAnswer(written.direct_answer.strip(), written.solution_markdown.strip())
    revisions = 0
    while True:
        checks = await _audit(caller, hard, answer)
        decision = decide(checks, revisions)
        if decision is not Decision.REVISE:
            return answer, compliance_result(checks, revisions)
        violations = tuple(c for c in checks if c.verdict is ComplianceVerdict.VIOLATION)
        revised = await caller.call(talker_request(material, belief, violations, answer))
        if isinstance(revised, str):  # cannot revise: report the violations as they stand
            return answer, compliance_result(checks, revisions)
        answer = TalkerAnswer(revised.direct_answer.strip(), revised.solution_markdown.strip())
        revisions += 1


async def _audit(
    caller: _Caller, hard: tuple[ConstraintSpec, ...], answer: TalkerAnswer
) -> tuple[ComplianceCheck, ...]:
    if not hard:
        return ()
    out = await caller.call(compliance_request(hard, answer))
    if isinstance(out, str):
        reason = f"The compliance audit failed: {out}"
        judged = [JudgedConstraint(i, ComplianceVerdict.UNCLEAR, reason) for i in range(len(hard))]
    else:
        judged = [JudgedConstraint(c.index, c.verdict, c.reason, c.relaxing_would_allow) for c in out.checks]
    return complete_checks(hard, judged)

"""The Solve stage at CRYSTALLIZE (seed 000 §6, §7 stages 7–8): before the agent writes the
document, the Reasoner/Talker solve over the session's record, the person's hard constraints are
audited, and the AnswerPack is built and kept in the state.

Invariants:
    - Runs once per session: pending while the phase is CRYSTALLIZE, no AnswerPack exists and no
      document was written; a run resumed after a crash redoes it (nothing of it was committed).
    - Like every engine stage it changes the state in memory and returns its events (the
      `context_usage` of its calls and ONE stored `engine_stage` event); the driver commits them in
      one step transaction. Progress is live `engine_progress`, never stored.
    - A Solve that produced no answer (a call failed) stores no pack and says why in its event; the
      agent still writes the document.
    - Solve reads the record (`solve_material`): each standing claim with what its evidence says, its
      falsification and novelty results, VERIFY's verdict and the red-team challenges it failed.
    - Stage 6 before Solve (seed 000 §7): with a verifier (`ranking_verify`), VERIFY checks the pool
      hypotheses the AnswerPack would rank (`core.answer.build.session_ranking_candidates`) that have no
      verdict yet; only the ones it passed rank. Its calls, research and `engine_stage` `verify` event
      join this stage's step.

Design decision — where the AnswerPack lives: a field of ForgeState (`answer_pack`, encoded by
`state_codec`), not a table. There is exactly one pack per session, it is derived from the state
and read with it (the document renderer opens with its direct answer), and the state is already
the session's one persisted truth; a table would add a migration and a second write to keep in step
for no query we need. The hypotheses it ranks are read from the pool table, as SEARCH does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from forge.agent.call_model import account_usage
from forge.agent.tool_context import ToolContext
from forge.core.answer.build import (
    AnswerInputs,
    answer_title,
    build_answer_pack,
    kept_claims,
    session_ranking_candidates,
)
from forge.core.answer.pack import SolveSummary
from forge.core.domain_types import EngineStage, Phase, SessionId
from forge.core.hypotheses.pool import Hypothesis
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.solve.constraints import session_constraints
from forge.core.solve.loop import NoteKind, SolveConfig
from forge.core.solve.record import claim_checks, red_team_failures, unattached_failures
from forge.engine.solve.requests import SolveMaterial
from forge.engine.solve.solve_problem import SolveRun, run_solve
from forge.engine.structured_batch import ProgressSink
from forge.ports import LanguageModel, StructuredModel
from forge.services.stages.verify_claims import VerifyStage

PoolReader = Callable[[SessionId], Awaitable[Sequence[Hypothesis]]]
# The supervisor's hook (SAGA): its findings for the methodology appendix, read from the state.
FindingsReader = Callable[[ForgeState], Sequence[str]]


def is_offline_label(label: str) -> bool:
    """The offline model's label has no `provider:` prefix and starts with "offline"."""
    return ":" not in label and label.lower().startswith("offline")


def solve_material(state: ForgeState) -> SolveMaterial:
    frame = state.problem_frame.frame if state.problem_frame is not None else None
    claims = tuple(kept_claims(state))
    failures = red_team_failures(state.supervision)
    return SolveMaterial(
        problem=state.problem,
        objective=answer_title(state.problem, frame),
        claims=claims,
        negative=tuple(state.negative_knowledge),
        gaps=tuple(state.gaps),
        checks=claim_checks(claims, state.verifications, failures),
        red_team=unattached_failures(claims, failures),
    )


class SolveStage:
    def __init__(
        self,
        structured: StructuredModel,
        priced_as: LanguageModel,
        config: SolveConfig | None = None,
        read_pool: PoolReader | None = None,
        findings_of: FindingsReader | None = None,
        ranking_verify: VerifyStage | None = None,
    ) -> None:
        self._structured = structured
        self._ranking_verify = ranking_verify
        self._findings_of = findings_of
        self._priced_as = priced_as
        self._config = config or SolveConfig()
        self._read_pool = read_pool

    def pending(self, state: ForgeState) -> bool:
        return (
            state.current_phase is Phase.CRYSTALLIZE
            and state.answer_pack is None
            and state.knowledge_document_markdown is None
        )

    async def _verify_ranking(
        self, ctx: ToolContext, hypotheses: Sequence[Hypothesis], progress: ProgressSink
    ) -> tuple[SessionEvent, ...]:
        """Stage 6: VERIFY on the hypotheses the ranking would show (none without a verifier)."""
        if self._ranking_verify is None or not hypotheses:
            return ()
        candidates = session_ranking_candidates(ctx.state, hypotheses)
        return await self._ranking_verify.verify_hypotheses(ctx, candidates, progress)

    async def run(self, ctx: ToolContext, progress: ProgressSink) -> tuple[SessionEvent, ...]:
        state = ctx.state
        frame = state.problem_frame.frame if state.problem_frame is not None else None
        constraints = session_constraints(state.problem, frame)
        hypotheses = await self._read_pool(ctx.session_id) if self._read_pool is not None else ()
        verified = await self._verify_ranking(ctx, hypotheses, progress)
        run = await run_solve(self._structured, solve_material(state), constraints, self._config, progress=progress)
        usage = (account_usage(ctx, self._priced_as, run.usage),) if run.usage.total else ()
        if run.answer is None or run.compliance is None or run.finished is None:
            text = f"Solve produced no answer: {run.failure}"
            return (*verified, *usage, ev.engine_stage(EngineStage.SOLVE, text, {"calls": run.calls}))
        pack = build_answer_pack(
            AnswerInputs(
                state=state,
                hypotheses=hypotheses,
                answer=run.answer,
                risks=run.finished.best.audit.risks if run.finished.best is not None else (),
                compliance=run.compliance,
                solve=_summary(run),
                model_label=self._structured.label,
                offline=is_offline_label(self._structured.label),
                verifications=state.hypothesis_verifications,
                supervisor_findings=self._findings_of(state) if self._findings_of is not None else (),
                verifier_label=self._ranking_verify.verifier_label if self._ranking_verify is not None else None,
            )
        )
        state.answer_pack = pack
        return (*verified, *usage, ev.engine_stage(EngineStage.SOLVE, _text(run), _counts(run)))


def _summary(run: SolveRun) -> SolveSummary:
    assert run.finished is not None  # checked by the caller
    f = run.finished
    added = tuple(n.text for n in f.notes if n.kind is NoteKind.ADDED)
    return SolveSummary(f.status, f.unresolved_high_risks, f.outer_rounds, f.attempts, added, f.notes, f.failure)


def _text(run: SolveRun) -> str:
    assert run.finished is not None and run.compliance is not None
    f, c = run.finished, run.compliance
    return (
        f"Solve: {f.attempts} plan/audit attempt(s) over {f.outer_rounds} outer round(s), {f.status.value.replace('_', ' ')}, "
        f"{f.unresolved_high_risks} unresolved high risk(s); compliance {c.status.value} on {len(c.checks)} hard "
        f"constraint(s) after {c.revisions} revision(s)."
    )


def _counts(run: SolveRun) -> dict[str, int]:
    assert run.finished is not None and run.compliance is not None
    f, c = run.finished, run.compliance
    return {
        "calls": run.calls,
        "attempts": f.attempts,
        "outer_rounds": f.outer_rounds,
        "unresolved_high_risks": f.unresolved_high_risks,
        "constraints_added": sum(1 for n in f.notes if n.kind is NoteKind.ADDED),
        "reframes": sum(1 for n in f.notes if n.kind is NoteKind.REFRAME),
        "hard_constraints": len(c.checks),
        "violations": len(c.violations),
        "revisions": c.revisions,
    }

"""The engine's stages that open a phase, before the agent's step loop — one ordered list,
`ENGINE_STAGES` (name, the phases it opens, when it is due, what it does), which the runner walks: the
frame at DECOMPOSE, domain selection + BISO at EXPLORE (seed 000 §7 stages 1–4), `search_depth` SEARCH
rounds at SYNTHESIZE (§4.2.1; each its own stage and step), VERIFY at VALIDATE (§4.3,
`verify_claims.py`), Solve and the AnswerPack at CRYSTALLIZE (§6, §7 stages 7–8; `solve_stage.py`).

Invariants:
    - A stage runs only when the state lacks its result for the current round (`problem_frame`;
      `biso.round`; `search.round` and `search.depth`), so a run resumed after a crash redoes at most the stage that had not committed.
    - A stage changes the state in memory and returns what the driver commits with it in ONE step
      transaction: its stored `engine_stage` event, the `context_usage` of its model calls, and the
      hypotheses for the pool. Progress is published live while it works, never stored.
    - New hypotheses (before SEARCH: any unscored) are scored, and held against the hard constraints
      when CP-4/5 reads them, before SAGA does (`judge_new_hypotheses`; at BISO during the mapping review).
    - After the stage (or when a phase opens without one) the supervisor, if any, runs the due SAGA
      checkpoints; their events join the stage's step. SEARCH expands only what SAGA's directives
      leave expandable, under the quotas they set.
    - A stage that cannot produce its result (the model gives no valid frame; every domain failed)
      does not stop the phase: it records an `engine_stage` event saying so, and the agent works on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Protocol

from forge.agent.call_model import account_usage
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import EngineStage as CoreStage
from forge.core.domain_types import Phase, SessionId
from forge.core.explore.library_records import SourceDomain
from forge.core.explore.suggested_domains import describe_outcomes, pending_suggestions
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.judged_scores import model_scores
from forge.core.hypotheses.pool import Hypothesis, summarize_pool
from forge.core.hypotheses.pool_candidates import top_candidates
from forge.core.llm.messages import Usage
from forge.core.saga.observe import open_finding_lines
from forge.core.search.candidates import search_candidates
from forge.core.search.concept_space import ConceptSpace, resolve_concept_space
from forge.core.search.plan import PROFILES, RuntimeProfile
from forge.core.search.summary import after_round
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.engine.explore.biso import run_biso
from forge.engine.explore.choose_source_domains import choose_judged_source_domains
from forge.engine.explore.suggested_domains import explore_suggested_domains
from forge.engine.frame.frame_problem import Framed, frame_problem
from forge.engine.search.search_round import run_search_round
from forge.engine.structured_batch import DEFAULT_CONCURRENCY, EngineProgress, ProgressSink
from forge.ports import LanguageModel, StructuralGrounding, StructuredModel
from forge.services.stages.judge_new_hypotheses import NewHypothesisJudges
from forge.services.stages.score_stage import ScoreStage
from forge.services.stages.search_stage_report import search_counts, search_text, summarize_search
from forge.services.stages.solve_stage import SolveStage
from forge.services.stages.supervision import Supervisor, supervised_pool, supervised_quotas, supervised_weights
from forge.services.stages.verify_claims import VerifyStage

LiveSink = Callable[[SessionEvent], None]
PoolReader = Callable[[SessionId], Awaitable[Sequence[Hypothesis]]]


@dataclass(frozen=True, slots=True)
class EngineConfig:
    concurrency: int = DEFAULT_CONCURRENCY
    hypotheses_per_domain: int = 3
    search_profile: RuntimeProfile = RuntimeProfile.INTERACTIVE
    search_depth: int = 0  # SEARCH rounds per session round; 0: the profile's own (interactive 1, research 2)

    @property
    def search_rounds(self) -> int:
        return self.search_depth if self.search_depth > 0 else PROFILES[self.search_profile].search_depth


@dataclass(frozen=True, slots=True)
class StageOutput:
    events: tuple[SessionEvent, ...]
    hypotheses: tuple[Hypothesis, ...] = field(default=())


class StageName(str, Enum):
    """The stages that open a phase, spelled as the core's EngineStage (their events' `stage`)."""

    FRAME = CoreStage.FRAME.value
    BISO = CoreStage.BISO.value
    SUGGESTED_DOMAINS = CoreStage.SUGGESTED_DOMAINS.value
    SEARCH = CoreStage.SEARCH.value
    VERIFY = CoreStage.VERIFY.value
    SOLVE = CoreStage.SOLVE.value


class DelegateStage(Protocol):
    """A stage that lives in a module of its own (`solve_stage.py`, `verify_claims.py`)."""

    def pending(self, state: ForgeState) -> bool: ...

    async def run(self, ctx: ToolContext, progress: ProgressSink) -> tuple[SessionEvent, ...]: ...


@dataclass(frozen=True, slots=True)
class EngineStage:
    """One stage that opens a phase: when it is due (its run key, or None) and what it does."""

    name: StageName
    opens: frozenset[Phase]  # the phases it opens
    due: Callable[[EngineStages, ForgeState], str | None]
    run: Callable[[EngineStages, ToolContext, LiveSink], Awaitable[StageOutput]]


class EngineStages:
    def __init__(
        self,
        structured: StructuredModel,
        priced_as: LanguageModel,
        domains: tuple[SourceDomain, ...],
        config: EngineConfig = EngineConfig(),
        read_pool: PoolReader | None = None,
        supervisor: Supervisor | None = None,
        verify: VerifyStage | None = None,
        grounding: StructuralGrounding | None = None,
        concept_spaces: tuple[ConceptSpace, ...] = (),
        verifier: StructuredModel | None = None,
        domain_judge: StructuredModel | None = None,
        scorer: ScoreStage | None = None,
    ) -> None:
        self._domain_judge, self._scorer = domain_judge, scorer  # Stage B's judge; the verifier's scores
        self._judges = NewHypothesisJudges(scorer, supervisor, slots=config.concurrency)
        self._supervisor = supervisor  # SAGA's checkpoints after each stage (run_supervision)
        self._structured = structured
        self._verifier = verifier  # the Transform Gate's logic check (None: the generator)
        self._grounding = grounding  # the HKG for hyperpath_expand / hyperbridge and structural grounding
        self._concept_spaces = concept_spaces  # shipped target-domain spaces for transform_space
        self._read_pool = read_pool  # SEARCH runs at SYNTHESIZE only when the pool can be read
        self._priced_as = priced_as  # the model whose label and prices account the stage's calls
        self._domains = domains
        self._config = config
        # Stages whose work is an object of its own module (`delegated` entries), by name; VERIFY runs
        # at VALIDATE only with a verifier's structured model.
        self._delegates: dict[StageName, DelegateStage] = {
            StageName.SOLVE: SolveStage(
                structured, priced_as, read_pool=read_pool, findings_of=open_finding_lines, ranking_verify=verify
            )
        }
        if verify is not None:
            self._delegates[StageName.VERIFY] = verify

    def pending(self, state: ForgeState) -> bool:
        return self.pending_stage(state) is not None

    def pending_stage(self, state: ForgeState) -> str | None:
        """The key of the next stage that opens the current phase and has not run yet (its name; a
        SEARCH round after the first is `search_round_<k>`), walking `ENGINE_STAGES` in order."""
        due = self._due(state)
        return due[1] if due is not None else None

    def _due(self, state: ForgeState) -> tuple[EngineStage, str] | None:
        for stage in ENGINE_STAGES:
            if state.current_phase in stage.opens and (key := stage.due(self, state)) is not None:
                return stage, key
        return None

    def _search_stage(self, state: ForgeState) -> str | None:
        """The due SEARCH round — "search" for the first of the session round, "search_round_<k>" for
        the k-th — when fewer than search_depth ran and the latest still expanded something. Each
        round is its own stage (named apart, so the driver runs each once per run) and its own step."""
        done = state.search
        if done is None or done.round != state.current_round:
            return StageName.SEARCH.value
        if done.depth < self._config.search_rounds and not done.stalled:
            return f"search_round_{done.depth + 1}"
        return None

    async def run(self, ctx: ToolContext, live: LiveSink) -> StageOutput | None:
        """The pending stage's output with the supervisor's checkpoint events (the state in `ctx`
        is updated), or None when nothing is pending."""
        output = await self._stage(ctx, live)
        if output is not None and output.hypotheses:  # judged before SAGA reads them (at BISO: already)
            judged = await self._judges.judge(ctx, output.hypotheses, _progress_to(live))
            output = StageOutput((*output.events, *judged), output.hypotheses)
        if self._supervisor is None:
            return output
        saga = await self._supervisor.supervise(ctx, output.hypotheses if output else ())
        if not saga:
            return output
        return StageOutput((*(output.events if output else ()), *saga), output.hypotheses if output else ())

    async def _stage(self, ctx: ToolContext, live: LiveSink) -> StageOutput | None:
        due = self._due(ctx.state)
        return await due[0].run(self, ctx, live) if due is not None else None

    # When each stage is due (its run key, or None) — read by ENGINE_STAGES.

    def _frame_due(self, state: ForgeState) -> str | None:
        return StageName.FRAME.value if state.problem_frame is None else None

    def _biso_due(self, state: ForgeState) -> str | None:
        done = state.biso is not None and state.biso.round == state.current_round
        return None if done else StageName.BISO.value

    def _suggested_due(self, state: ForgeState) -> str | None:
        return StageName.SUGGESTED_DOMAINS.value if self._unexplored(state) else None

    def _search_due(self, state: ForgeState) -> str | None:
        return self._search_stage(state) if self._read_pool is not None else None

    def delegate(self, name: StageName) -> DelegateStage | None:
        """The object that does a `delegated` stage's work, None when this engine has none."""
        return self._delegates.get(name)

    @staticmethod
    def _unexplored(state: ForgeState) -> list[str]:
        return pending_suggestions(state.suggested_domains, state.suggestion_outcomes)

    async def _suggested(self, ctx: ToolContext, live: LiveSink) -> StageOutput:
        state = ctx.state
        frame, framing_cost = await self._frame_of(ctx)
        this_round = state.biso.domains if state.biso is not None and state.biso.round == state.current_round else ()
        run = await explore_suggested_domains(
            self._structured,
            state.problem,
            frame,
            self._domains,
            self._unexplored(state),
            explored_this_round={y.domain_id: y.hypotheses for y in this_round},
            per_domain=self._config.hypotheses_per_domain,
            round_=state.current_round,
            concurrency=self._config.concurrency,
            progress=_progress_to(live),
        )
        state.suggestion_outcomes.extend(run.outcomes)
        counts = {"suggestions": len(run.outcomes), "hypotheses": len(run.hypotheses), "calls": run.calls}
        events = (*framing_cost, *self._account(ctx, run.usage))
        return StageOutput(
            (*events, ev.engine_stage(CoreStage.SUGGESTED_DOMAINS, describe_outcomes(run.outcomes), counts)),
            run.hypotheses,
        )

    async def _frame(self, ctx: ToolContext, _live: LiveSink) -> StageOutput:
        framed = await frame_problem(self._structured, ctx.state.problem)
        usage_events = self._account(ctx, framed.usage)
        if not isinstance(framed, Framed):
            return StageOutput(
                (*usage_events, ev.engine_stage(CoreStage.FRAME, f"No problem frame: {framed.message}", {}))
            )
        ctx.state.problem_frame = framed.audited
        frame, findings = framed.audited.frame, framed.audited.audit.findings
        counts = {"hard_constraints": len(frame.hard_constraints), "findings": len(findings)}
        summary = f"Framed: {frame.objective}. {len(frame.hard_constraints)} hard constraint(s), {len(findings)} audit finding(s)."
        return StageOutput((*usage_events, ev.engine_stage(CoreStage.FRAME, summary, counts)))

    async def _biso(self, ctx: ToolContext, live: LiveSink) -> StageOutput:
        state = ctx.state
        frame, framing_cost = await self._frame_of(ctx)
        choice = await choose_judged_source_domains(
            self._domain_judge, state.problem, frame, self._domains, state.suggested_domains
        )
        by_id = {d.id: d for d in self._domains}
        chosen = [by_id[c.domain_id] for c in choice.selection.chosen]

        judged: list[SessionEvent] = []  # scores and CP-4's constraint check, asked during the mapping review
        run = await run_biso(
            self._structured,
            state.problem,
            frame,
            chosen,
            per_domain=self._config.hypotheses_per_domain,
            round_=state.current_round,
            concurrency=self._config.concurrency,
            progress=_progress_to(live),
            alongside_review=self._judges.alongside(ctx, _progress_to(live), judged),
        )
        failures = {f.domain_id: f.message for f in run.failed_domains}
        declines = {d.domain_id: d.reason for d in run.declined}
        state.domain_selection = choice.selection
        state.pool_candidates = list(top_candidates(run.hypotheses))  # EXPLORE's brief offers them
        state.biso = summarize_pool(
            state.current_round, run.generated, run.hypotheses, failures, {d.id: d.name for d in chosen}, declines
        )
        summary = (
            f"BISO over {len(chosen)} source domains: {run.generated} hypotheses, {len(run.hypotheses)} kept after "
            f"merging near-duplicates, {state.biso.passed} passed the mapping gate"
            + (f" ({len(run.padding_suspected)} suspected of padding by the unpack audit)" if run.reviewed else "")
            + (f"; {len(declines)} domain(s) declined as not fitting" if declines else "")
            + (f"; {len(failures)} domain(s) failed" if failures else "")
            + (f"; not in the library: {', '.join(choice.unknown_suggestions)}" if choice.unknown_suggestions else "")
            + f". Stage B: {choice.feasibility_note}."
        )
        counts = {
            "domains": len(chosen),
            "generated": run.generated,
            "kept": len(run.hypotheses),
            "passed": state.biso.passed,
            "reviewed": run.reviewed,
            "padding_suspected": len(run.padding_suspected),
            "declined": len(declines),
            "repeated_structures": run.repeated_structures,
        }
        usage = (*framing_cost, *self._account(ctx, choice.usage + run.usage))
        events = (*usage, ev.engine_stage(CoreStage.BISO, summary, counts), *judged)
        return StageOutput(events, run.hypotheses)

    async def _search(self, ctx: ToolContext, live: LiveSink) -> StageOutput:
        assert self._read_pool is not None  # pending() said so
        state = ctx.state
        pool = supervised_pool(state, await self._read_pool(ctx.session_id))  # SAGA: no flagged seeds
        frame, framing_cost = await self._frame_of(ctx)
        earlier = state.search if state.search is not None and state.search.round == state.current_round else None
        depth = earlier.depth if earlier is not None else 0
        profile = self._config.search_profile
        scoring = await self._scorer.score(ctx, pool, _progress_to(live)) if self._scorer is not None else ()
        run = await run_search_round(
            self._structured,
            pool,
            frame,
            profile,
            supervised_quotas(state, profile),  # SAGA's ADJUST_SEARCH_PARAMS
            problem=state.problem,
            round_=state.current_round,
            depth=depth,
            expanded=earlier.seeds if earlier is not None else (),
            weights=supervised_weights(state),  # SAGA's ADJUST_WEIGHTS
            judged=model_scores(state.hypothesis_scores),  # the verifier's five scores
            concurrency=self._config.concurrency,
            progress=_progress_to(live),
            grounding=self._grounding,
            space=resolve_concept_space(frame, state.problem, self._concept_spaces),
            verifier=self._verifier,
        )
        latest = summarize_search(run, state.current_round, profile)
        state.search = after_round(earlier, replace(latest, candidates=search_candidates(run.children, pool)))
        rounds = (depth + 1, self._config.search_rounds)
        events = (
            *framing_cost,
            *scoring,
            *self._account(ctx, run.usage),
            ev.engine_stage(CoreStage.SEARCH, search_text(run, len(pool), rounds), search_counts(run, rounds)),
        )
        return StageOutput(events, run.children)

    async def _frame_of(self, ctx: ToolContext) -> tuple[ProblemFrame, tuple[SessionEvent, ...]]:
        """The session's frame, and the cost events of framing it now when a session framed before
        the engine existed has none (that call is charged like every other)."""
        cost: tuple[SessionEvent, ...] = ()
        if ctx.state.problem_frame is None:
            framed = await frame_problem(self._structured, ctx.state.problem)
            cost = self._account(ctx, framed.usage)
            if isinstance(framed, Framed):
                ctx.state.problem_frame = framed.audited
        if ctx.state.problem_frame is not None:
            return ctx.state.problem_frame.frame, cost
        return ProblemFrame(objective=ctx.state.problem.splitlines()[0], target_object="", target_outcome=""), cost

    def _account(self, ctx: ToolContext, usage: Usage) -> tuple[SessionEvent, ...]:
        return (account_usage(ctx, self._priced_as, usage),) if usage.total else ()


def delegated(name: StageName, opens: frozenset[Phase]) -> EngineStage:
    """The entry of a stage whose work is `EngineStages.delegate(name)`: due while that object is
    pending, its events the stage's output (no object: never due)."""

    def due(stages: EngineStages, state: ForgeState) -> str | None:
        stage = stages.delegate(name)
        return name.value if stage is not None and stage.pending(state) else None

    async def run(stages: EngineStages, ctx: ToolContext, live: LiveSink) -> StageOutput:
        stage = stages.delegate(name)
        assert stage is not None  # due() said so
        return StageOutput(await stage.run(ctx, _progress_to(live)))

    return EngineStage(name, opens, due, run)


# The stages in the order they run; `EngineStages` walks this list, nothing else names a stage.
ENGINE_STAGES: tuple[EngineStage, ...] = (
    EngineStage(StageName.FRAME, frozenset({Phase.DECOMPOSE}), EngineStages._frame_due, EngineStages._frame),
    EngineStage(StageName.BISO, frozenset({Phase.EXPLORE}), EngineStages._biso_due, EngineStages._biso),
    EngineStage(
        StageName.SUGGESTED_DOMAINS,
        frozenset({Phase.EXPLORE, Phase.SYNTHESIZE}),  # the person's domains, after BISO and before SEARCH
        EngineStages._suggested_due,
        EngineStages._suggested,
    ),
    EngineStage(StageName.SEARCH, frozenset({Phase.SYNTHESIZE}), EngineStages._search_due, EngineStages._search),
    delegated(StageName.VERIFY, frozenset({Phase.VALIDATE})),
    delegated(StageName.SOLVE, frozenset({Phase.CRYSTALLIZE})),
)


def _progress_to(live: LiveSink) -> ProgressSink:
    """Engine progress as live `engine_progress` events (never stored)."""

    def progress(p: EngineProgress) -> None:
        live(ev.engine_progress(p.stage, p.done, p.total, p.failed))

    return progress

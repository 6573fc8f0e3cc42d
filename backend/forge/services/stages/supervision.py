"""SAGA's slow agent beside the phases (seed 000 §5, §7.3): after an engine stage produced its batch
(or when a phase opens with nothing to produce), the checkpoints that are due observe the session,
the red team challenges the top-N at CP-5 and CP-6, directives are derived and taken, and every
finding, directive and checkpoint audit is returned as stored events with the stage's own.

Invariants:
    - Read → pure → write: the pool is read, `saga_observe` / `saga_supervise` decide, the state's
      `supervision` is replaced in memory; the driver commits it with the events in ONE step.
    - Where the generator is another model than the verifier (`generator_label`), CP-6 compares
      their scores of the session's claims (`core.saga.preference_gaming`, no model call).
    - Layers 1 and 3 and CP-1..3 cost no model call; each pass still debits its stage's bucket of
      the cognitive budget (`core/saga/supervise`). Layer 2 costs one structured call per up to
      `RED_TEAM_BATCH` targets on the red-team model (the verifier's family), each target's units paid
      from the ADVERSARIAL bucket; an empty bucket skips the red team and the audit says so.
    - Layer 4's hard-constraint check asks the constraint judge (the red-team model when a real
      model serves the verifier role), several texts per call (CP-4..7, when the frame has hard
      constraints); offline there is no judge and the offline word rule judges, as it does the texts
      a judge did not; the audit's summary says which judged how many.
    - CP-6 reads the pool too: its Layer 1 runs on VERIFY's scores of the pool's ranking candidates
      and the claims (`observe_verified`).
    - The C-K coordinator steps at each checkpoint (`_move_ck`): at CP-5 a SEARCH round whose
      children left the MOME coverage flat is a plateau (C→K) and a hyperpath_expand / hyperbridge
      child a found structure (K→C); at CP-4/5 a new pattern is a new mechanism; at CP-6 an evidence
      gap, a non-operationalisable red-team verdict, or new research.
    - A checkpoint already recorded for the round is never observed again (resume-safe).
    - The red team is never sent a request it already answered (same target, same content, same depth:
      `SupervisionState.challenged` keeps the fingerprints): a later CP-5 pass or round whose top-N is
      unchanged pays for nothing new, and the earlier findings stand.
    - Layer 3 reads other sessions' pattern sightings and remembers this session's (`PatternMemory`,
      each in its own short transaction, idempotent per hypothesis) when a store is given.
    - The fast path reads the directives through `supervised_pool` / `supervised_quotas`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from forge.agent.call_model import account_usage
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import SessionId
from forge.core.explore.library_records import SourceDomain
from forge.core.hypotheses.judged_scores import model_scores
from forge.core.hypotheses.pool import Hypothesis
from forge.core.saga.budget import Bucket, BudgetLedger, spend
from forge.core.saga.ck import CKTrigger, coverage_plateau, run_triggers
from forge.core.saga.domain_profile import ConstraintFlag, ProfiledText, flags_by_word_rule
from forge.core.saga.observe import (
    Observed,
    claim_texts,
    due_checkpoints,
    frame_of,
    hard_constraints_of,
    observe_answer,
    observe_frame,
    observe_pool_batch,
    observe_sources,
    observe_target,
    observe_verified,
    pool_texts,
    search_round_of,
    supervision_of,
)
from forge.core.saga.patterns import PatternSighting
from forge.core.saga.policy import expandable, search_quotas
from forge.core.saga.preference_gaming import claim_pairs, detect_preference_gaming
from forge.core.saga.records import Checkpoint, FastEvent, Finding
from forge.core.saga.state import SupervisionState
from forge.core.saga.supervise import run_checkpoint
from forge.core.search.plan import PROFILES, RuntimeProfile, SearchOperator
from forge.core.search.seeds import pool_coverage
from forge.core.selection.composite_score import COMPOSITE_WEIGHTS
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.engine.saga.constraint_check import ConstraintCheckRun, run_constraint_check
from forge.engine.saga.red_team import request_fingerprint, run_red_team
from forge.ports import LanguageModel, StructuredModel
from forge.services.pattern_memory import PatternMemory
from forge.services.stages.red_team_targets import choose_targets

_PATTERN_CPS = frozenset({Checkpoint.CP4, Checkpoint.CP5, Checkpoint.CP7})
PoolReader = Callable[[SessionId], Awaitable[Sequence[Hypothesis]]]
TOP_N = 3
_ANSWERS_KEPT = 1024
_ASKED_AHEAD = "asked ahead of this checkpoint, while the verifier scored them"  # judge_constraints_ahead


@dataclass(frozen=True, slots=True)
class RedTeamOutcome:
    findings: tuple[Finding, ...] = ()
    non_operational: tuple[str, ...] = ()
    note: str = ""
    events: tuple[SessionEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class ConstraintCheckOutcome:
    flags: tuple[ConstraintFlag, ...] | None = None  # None: the detector's offline word rule judges
    note: str = ""
    events: tuple[SessionEvent, ...] = ()


class Supervisor:
    def __init__(
        self,
        red_team: StructuredModel | None,
        priced_as: LanguageModel,
        domains: tuple[SourceDomain, ...],
        read_pool: PoolReader | None = None,
        top_n: int = TOP_N,
        patterns: PatternMemory | None = None,
        generator_label: str | None = None,
        constraint_judge: StructuredModel | None = None,
    ) -> None:
        # the generator's label where it is another model than the verifier (the preference-gaming
        # check at CP-6 compares their scores); None: the verifier is the generator itself
        self._generator = generator_label
        self._constraint_judge = constraint_judge  # Layer 4 by a model; None: the offline word rule
        self._patterns = patterns  # Layer 3 across sessions; None: this session's rounds only
        self._red_team = red_team  # None: Layer 2 is off (e.g. a scripted test model)
        self._priced_as = priced_as  # the red-team model's label and prices
        self._domains = domains
        self._read_pool = read_pool
        self._top_n = top_n
        # Layer 4's answered constraint-check batches, by request fingerprint (this process only, bounded):
        # an identical request (CP-7 re-reading CP-6's claims, a resumed checkpoint) is not paid for twice.
        self._constraint_answers: OrderedDict[str, tuple[ConstraintFlag, ...]] = OrderedDict()

    async def supervise(self, ctx: ToolContext, batch: Sequence[Hypothesis]) -> tuple[SessionEvent, ...]:
        """The due checkpoints' events; `ctx.state.supervision` is updated in memory."""
        events: list[SessionEvent] = []
        for checkpoint in due_checkpoints(ctx.state):
            events += await self._checkpoint(ctx, checkpoint, batch)
        return tuple(events)

    async def _checkpoint(self, ctx: ToolContext, cp: Checkpoint, batch: Sequence[Hypothesis]) -> list[SessionEvent]:
        state = ctx.state
        history = await self._patterns.history(ctx.session_id) if self._patterns and cp in _PATTERN_CPS else []
        observed, pool, checked = await self._observe(ctx, cp, batch, history)
        if self._patterns is not None and observed.sightings:
            await self._patterns.remember(ctx.session_id, list(zip(observed.sighted, observed.sightings, strict=True)))
        red = RedTeamOutcome()
        if cp in (Checkpoint.CP5, Checkpoint.CP6) and self._red_team is not None:
            red = await self._challenge(ctx, cp, pool, observed)
        sup = supervision_of(state)
        sup = replace(sup, patterns=(*sup.patterns, *observed.sightings))
        findings = (*observed.findings, *red.findings, *self._gaming(state, cp))
        result = run_checkpoint(
            sup,
            cp,
            state.current_round,
            findings,
            observed.batch_size,
            observed.fast_events,
            search_round_of(state, cp),
        )
        paused = (
            f" SEARCH was paused by {sup.paused_by}: nothing was expanded."
            if cp is Checkpoint.CP5 and sup.paused
            else ""
        )
        audit = replace(result.audit, summary=result.audit.summary + paused + checked.note + red.note)
        sup = replace(result.state, checkpoints=(*result.state.checkpoints[:-1], audit))
        state.supervision = _move_ck(ctx, sup, CKSignals(cp, observed, red.non_operational, pool, tuple(batch)))
        return [
            *checked.events,
            *red.events,
            *(ev.saga_finding(f) for f in result.findings),
            *(ev.saga_directive(d) for d in result.directives),
            ev.saga_checkpoint(audit),
        ]

    async def _observe(
        self, ctx: ToolContext, cp: Checkpoint, batch: Sequence[Hypothesis], history: Sequence[PatternSighting]
    ) -> tuple[Observed, list[Hypothesis], ConstraintCheckOutcome]:
        state = ctx.state
        simple: Mapping[Checkpoint, Callable[[], Observed]] = {
            Checkpoint.CP1: lambda: observe_frame(state),
            Checkpoint.CP2: lambda: observe_target(state),
            Checkpoint.CP3: lambda: observe_sources(state, self._domains),
        }
        if cp in simple:
            return simple[cp](), [], ConstraintCheckOutcome()
        if cp is Checkpoint.CP7:
            checked = await self._check_constraints(ctx, claim_texts(state, cp))
            return observe_answer(state, history, checked.flags), [], checked
        stored = list(await self._read_pool(ctx.session_id)) if self._read_pool else []
        pool = _union(stored, batch)
        if cp is Checkpoint.CP6:
            checked = await self._check_constraints(ctx, claim_texts(state, cp))
            return observe_verified(state, self._domains, pool, checked.flags), pool, checked
        searching = cp is Checkpoint.CP5
        round_batch = list(batch) or _round_batch(pool, state.current_round, searching)
        mine = {h.id for h in round_batch}
        parents = [h for h in pool if h.id not in mine] if searching else []
        checked = await self._check_constraints(ctx, pool_texts(round_batch), reused_from=_ASKED_AHEAD)
        observed = observe_pool_batch(state, cp, round_batch, parents, self._domains, history, checked.flags)
        return observed, pool, checked

    async def _check_constraints(
        self, ctx: ToolContext, texts: Sequence[ProfiledText], reused_from: str = "answered at an earlier checkpoint"
    ) -> ConstraintCheckOutcome:
        """Layer 4 by the judge (the red-team model, the verifier's family): every text against every hard
        constraint, batched; texts it did not judge go to the offline word rule (said so). No judge
        (offline): the word rule judges them all, said so."""
        constraints, judge = hard_constraints_of(ctx.state), self._constraint_judge
        if not constraints or not texts:
            return ConstraintCheckOutcome()
        if judge is None:
            return ConstraintCheckOutcome(
                note=f" Hard constraints: {len(texts)} text(s) judged by the offline word rule."
            )
        run = await self._ask_constraint_judge(judge, constraints, texts)
        flags = (*run.flags, *flags_by_word_rule(constraints, run.unjudged))
        usage = (account_usage(ctx, self._priced_as, run.usage),) if run.usage.total else ()
        fallback = f"; {len(run.unjudged)} it did not judge, by the offline word rule" if run.unjudged else ""
        flagged = len({f.id for f in flags})
        note = f" Hard constraints ({judge.label}): {run.judged} text(s) judged in {_calls_said(run, reused_from)}{fallback}; {flagged} flagged."
        return ConstraintCheckOutcome(flags, note, usage)

    async def judge_constraints_ahead(
        self, ctx: ToolContext, hypotheses: Sequence[Hypothesis]
    ) -> tuple[SessionEvent, ...]:
        """Layer 4's judgments of a stage's new hypotheses, asked before the checkpoint that reads them
        (CP-4 after BISO, CP-5 after a SEARCH round) while the scorer works: that checkpoint finds the
        batches answered and asks nothing. Only the usage events; nothing is flagged here."""
        constraints, judge = hard_constraints_of(ctx.state), self._constraint_judge
        if judge is None or not constraints or not hypotheses:
            return ()
        run = await self._ask_constraint_judge(judge, constraints, pool_texts(hypotheses))
        return (account_usage(ctx, self._priced_as, run.usage),) if run.usage.total else ()

    async def _ask_constraint_judge(
        self, judge: StructuredModel, constraints: Sequence[str], texts: Sequence[ProfiledText]
    ) -> ConstraintCheckRun:
        run = await run_constraint_check(judge, constraints, texts, answered=self._constraint_answers)
        self._constraint_answers.update(run.answered)
        while len(self._constraint_answers) > _ANSWERS_KEPT:
            self._constraint_answers.popitem(last=False)
        return run

    async def _challenge(
        self, ctx: ToolContext, cp: Checkpoint, pool: Sequence[Hypothesis], observed: Observed
    ) -> RedTeamOutcome:
        assert self._red_team is not None
        sup = supervision_of(ctx.state)
        chosen = choose_targets(ctx.state, cp, sup, pool, observed.findings, self._top_n)
        # A target the red team already answered, unchanged, is not asked again: its findings stand.
        targets = [t for t in chosen if request_fingerprint(t) not in sup.challenged]
        if not targets:
            return RedTeamOutcome(note=" Red team: its targets were challenged before, unchanged." if chosen else "")
        paid = spend(sup.budget, Bucket.ADVERSARIAL, float(sum(t.units for t in targets)))
        if not isinstance(paid, BudgetLedger):
            return RedTeamOutcome(note=" Red team skipped: its budget is spent.")
        run = await run_red_team(self._red_team, targets)
        answered = tuple(request_fingerprint(t) for t in targets if t.id in run.answered)
        ctx.state.supervision = replace(sup, budget=paid, challenges=(), challenged=(*sup.challenged, *answered))
        usage = (account_usage(ctx, self._priced_as, run.usage),) if run.usage.total else ()
        failed = f"; {run.failed} left unanswered" if run.failed else ""
        note = (
            f" Red team ({self._red_team.label}) challenged {len(targets)} in {run.calls} call(s)"
            f" for {run.units} units{failed}."
        )
        return RedTeamOutcome(run.findings, run.non_operational, note, usage)

    def _gaming(self, state: ForgeState, cp: Checkpoint) -> tuple[Finding, ...]:
        """CP-6: the generator's claim scores against the verifier's (`preference_gaming`)."""
        if cp is not Checkpoint.CP6 or self._generator is None:
            return ()
        pairs = claim_pairs(state.all_claims, state.verifications)
        found = detect_preference_gaming(pairs, self._generator, self._priced_as.label)
        return (found,) if found is not None else ()


def _calls_said(run: ConstraintCheckRun, reused_from: str) -> str:
    """How the judgements were asked: in calls now, reused from earlier (`reused_from` says when), or both."""
    if not run.reused:
        return f"{run.calls} call(s)"
    earlier = f"{run.reused} call(s) {reused_from}"
    return earlier if not run.calls else f"{run.calls} call(s) and {earlier}"


def _union(stored: Sequence[Hypothesis], batch: Sequence[Hypothesis]) -> list[Hypothesis]:
    seen = {h.id for h in batch}
    return [*(h for h in stored if h.id not in seen), *batch]


def _round_batch(pool: Sequence[Hypothesis], round_: int, searching: bool) -> list[Hypothesis]:
    """A batch read back from the pool (a session whose stage committed before supervision ran)."""
    return [h for h in pool if h.round == round_ and (h.operator != "biso") == searching]


@dataclass(frozen=True, slots=True)
class CKSignals:
    """What a checkpoint saw that the C-K coordinator reads."""

    cp: Checkpoint
    observed: Observed
    non_operational: Sequence[str]
    pool: Sequence[Hypothesis]  # CP-4/5: the pool with the batch in it
    batch: Sequence[Hypothesis]


def _move_ck(ctx: ToolContext, sup: SupervisionState, seen: CKSignals) -> SupervisionState:
    """The C-K coordinator's step at a checkpoint, from the signals the checkpoint saw."""
    state, cp, triggers = ctx.state, seen.cp, []
    if cp is Checkpoint.CP5 and state.search is not None and state.search.coverage_ratio is not None:
        after = pool_coverage(seen.pool, frame_of(state), sup.weights, model_scores(state.hypothesis_scores))
        sup = replace(sup, coverage=(*sup.coverage, round(after, 4)))
        if coverage_plateau(state.search.coverage_ratio, after):
            triggers.append(CKTrigger.COVERAGE_PLATEAU)
    if cp is Checkpoint.CP5 and FastEvent.HKG_PATH_FOUND in seen.observed.fast_events:
        triggers.append(CKTrigger.STRUCTURE_FOUND)
    if cp in (Checkpoint.CP4, Checkpoint.CP5):
        sightings = seen.observed.sightings
        earlier = {s.label for s in sup.patterns[: len(sup.patterns) - len(sightings)]}
        if any(s.label not in earlier for s in sightings):
            triggers.append(CKTrigger.NEW_MECHANISM)
    if cp is Checkpoint.CP6:
        scored = [c for c in state.all_claims if c.scores is not None]
        if any(not c.evidence for c in scored):
            triggers.append(CKTrigger.EVIDENCE_GAP)
        if seen.non_operational:
            triggers.append(CKTrigger.NON_OPERATIONALIZABLE)
        if state.research_log:
            triggers.append(CKTrigger.NEW_EVIDENCE)
    if not triggers:
        return sup
    ck, _ = run_triggers(sup.ck, triggers, ctx.clock.now().timestamp())
    return replace(sup, ck=ck)


def supervised_pool(state: ForgeState, pool: Sequence[Hypothesis]) -> list[Hypothesis]:
    """The pool SEARCH may expand: no flagged hypothesis, nothing while the pipeline is paused."""
    keep = set(expandable([h.id for h in pool], supervision_of(state)))
    return [h for h in pool if h.id in keep]


def supervised_weights(state: ForgeState) -> dict[str, float] | None:
    """SAGA's composite weights for SEARCH's seed selection (None: no supervisor, or unchanged)."""
    sup = state.supervision
    if sup is None or sup.weights == COMPOSITE_WEIGHTS:
        return None
    return dict(sup.weights)


def supervised_quotas(state: ForgeState, profile: RuntimeProfile) -> dict[SearchOperator, int] | None:
    """The SEARCH quotas after the directives taken (None: the profile's own, nothing changed)."""
    sup = state.supervision
    if sup is None:
        return None
    quotas = search_quotas(PROFILES[profile].quotas, sup)
    return None if quotas == dict(PROFILES[profile].quotas) else quotas

"""Driving one run of the agent for a session: load, run the step loop, commit every step.

Invariants:
    - The run holds the session's lease (taken by the command that started it). Every step is ONE
      transaction under the session's write lock: the messages it appended, its tool calls, the
      state, its events (seqs allocated there) and the lease's renewal commit together or not at
      all. A crash mid-step loses only that step: the next run redoes it from the last commit, so
      no tool call is run-and-shown twice and no `tool_call` is left without its result.
    - A step commits only while the run still holds the lease (not cancelled, deleted or taken
      over); otherwise the run stops without writing.
    - The last step of a run (pause, document, failure) clears the lease in its transaction; the
      registry forgets the run right after that commit, before its events are published, so a
      client that sees `done` can post its review at once and never reads "running".
    - Committed events are published to the broadcaster after the commit; live text (never
      stored) is published as it streams, and through the live relay (PostgreSQL) to the other
      processes' followers, flushed before each step commits so a step's deltas precede it.
    - The generator runs every phase but VALIDATE, which the verifier runs (the same model unless
      configured otherwise).
    - The observer (metrics) hears of each committed step and of the run's duration; it never
      changes the run. Log lines of the run carry the session id (`logging_setup.bind_session`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from uuid import UUID

from forge.agent.call_model import Live
from forge.agent.curate_request import LiveCurationSettings, RequestCurator
from forge.agent.phase_briefs import refreshed_conversation
from forge.agent.runner import AgentRunner, Step, ToolExecuted
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.explore.library_records import TrizKnowledge
from forge.core.hypotheses.pool import Hypothesis
from forge.core.llm.messages import Message
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import RunLease, SessionRecord, StoredEvent, ToolCallEntry
from forge.core.session.spend import SpendBudget
from forge.observability.logging_setup import bind_session
from forge.ports import (
    Clock,
    HkgNeighbourhoodSource,
    LanguageModel,
    LiveEventRelay,
    ResearchProvider,
    RunEventSink,
    RunObserver,
    StructuredModel,
    UnitOfWorkFactory,
)
from forge.services.runs.finish_before_cancel import finish_before_cancelling
from forge.services.runs.registry import RunRegistry
from forge.services.stages.engine_stages import EngineStages

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RunModels:
    generator: LanguageModel
    verifier: LanguageModel
    research: ResearchProvider
    relevance_judge: StructuredModel | None = None  # the claim gates' judge of research results (None: words)


class NoRunObserver:
    def events_committed(self, provider: str, events: Sequence[StoredEvent]) -> None:
        pass

    def run_ended(self, phase: Phase, seconds: float) -> None:
        pass


def provider_of(label: str) -> str:
    """`anthropic:claude-…` -> `anthropic`; a label without a provider prefix (the offline model) -> its first word."""
    return label.partition(":")[0] if ":" in label else (label.split() or ["unknown"])[0]


def _holds(record: SessionRecord | None, lease: RunLease) -> bool:
    return (
        record is not None
        and not record.cancelled
        and record.run_lease is not None
        and record.run_lease.owner == lease.owner
    )


class PhaseRunDriver:
    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        broadcaster: RunEventSink,
        registry: RunRegistry,
        models: RunModels,
        clock: Clock,
        new_id: Callable[[], UUID],
        max_iterations: int,
        budget: SpendBudget | None = None,
        observer: RunObserver | None = None,
        stages: EngineStages | None = None,
        triz: TrizKnowledge | None = None,
        curation: LiveCurationSettings | None = None,
        hkg: HkgNeighbourhoodSource | None = None,
        live_relay: LiveEventRelay | None = None,
        queries: UnitOfWorkFactory | None = None,
    ):
        self._live_relay = live_relay
        self._queries = queries or uow_factory  # the run's reads of its state (no writes)
        self._triz = triz
        self._hkg = hkg
        curation = curation or LiveCurationSettings()
        self._observer = observer or NoRunObserver()
        self._uow_factory = uow_factory
        self._broadcaster = broadcaster
        self._registry = registry
        self._models = models
        self._clock = clock
        self._new_id = new_id
        self._stages = stages
        self._runner = self._agent(models.generator, max_iterations, budget, curation)
        self._verifier_runner = (
            self._runner
            if models.verifier is models.generator
            else self._agent(models.verifier, max_iterations, budget, curation)
        )

    @staticmethod
    def _agent(
        model: LanguageModel, max_iterations: int, budget: SpendBudget | None, curation: LiveCurationSettings
    ) -> AgentRunner:
        """A runner whose curator reads the shared live settings at every call."""
        curator = RequestCurator(model.label, model.context_window, curation)
        return AgentRunner(model, max_iterations=max_iterations, budget=budget, curator=curator)

    async def run(self, session_id: SessionId, lease: RunLease) -> None:
        bind_session(session_id)  # this task's log lines name the session
        started = asyncio.get_running_loop().time()
        phase: Phase | None = None
        # Renewing between steps only matters where another process judges the lease by its expiry;
        # in a single-process (SQLite) deployment it would be a write per run for nothing.
        keeper = (
            asyncio.get_running_loop().create_task(self._keep_lease(session_id, lease))
            if self._registry.other_processes_read_leases
            else None
        )
        ended = False
        try:
            loaded = await self._load(session_id, lease)
            if loaded is None:
                return
            phase = loaded[0].current_phase
            ended = await self._drive(session_id, lease, *loaded)
        except Exception as error:
            log.exception("run of session %s failed", session_id)
            ended = await self.fail(session_id, lease, error)
        finally:
            if keeper is not None:
                keeper.cancel()
            self._registry.release(lease.owner)
            if phase is not None:
                self._observer.run_ended(phase, asyncio.get_running_loop().time() - started)
        if not ended:
            log.info("run %s of session %s stopped without its last step (lease lost)", lease.owner, session_id)

    async def fail(self, session_id: SessionId, lease: RunLease, error: Exception) -> bool:
        """End the run as failed (RUN_FAILED, recoverable, then done with error) and clear its lease,
        if it still holds the session; whether that committed. Also for a run whose process died."""
        failure = Step(
            events=(
                ev.error("RUN_FAILED", str(error), recoverable=True),
                ev.done(error=True, awaiting_input=False),
            ),
            ends_run=True,
        )
        return await self._commit(session_id, lease, None, failure)

    async def _load(self, session_id: SessionId, lease: RunLease) -> tuple[ForgeState, list[Message]] | None:
        async with self._queries() as uow:
            if not _holds(await uow.sessions.get(session_id), lease):
                return None
            return await uow.sessions.load_state(session_id), await uow.sessions.load_messages(session_id)

    async def _drive(self, session_id: SessionId, lease: RunLease, state: ForgeState, messages: list[Message]) -> bool:
        """Run the step loop; True once the run's last step is committed."""
        # VALIDATE is the verifier's phase: claims are falsified and scored by the verifier model,
        # which may be another model family than the generator that proposed them (000 §4.3).
        verifying = state.current_phase == Phase.VALIDATE
        runner, model = (
            (self._verifier_runner, self._models.verifier) if verifying else (self._runner, self._models.generator)
        )
        ctx = ToolContext(
            session_id,
            state,
            self._models.research,
            self._clock,
            self._new_id,
            model.label,
            self._triz,
            self._hkg,
            relevance_judge=self._models.relevance_judge,
        )
        if not await self._run_stage(session_id, lease, ctx, messages):
            return False
        async for output in runner.run(ctx, messages):
            if isinstance(output, Live):
                self._publish_live(session_id, output.event)
                continue
            if not await self._commit(session_id, lease, state, output, provider_of(model.label)):
                return False
            if output.ends_run:
                return True
        unfinished = Step(
            events=(
                ev.error(
                    "RUN_INCOMPLETE", "The run stopped without pausing; POST /run to resume it.", recoverable=True
                ),
                ev.done(error=True, awaiting_input=False),
            ),
            ends_run=True,
        )
        return await self._commit(session_id, lease, state, unfinished)

    async def _run_stage(
        self, session_id: SessionId, lease: RunLease, ctx: ToolContext, messages: list[Message]
    ) -> bool:
        """The engine stages that open this phase and have not run yet, in order, each committed as
        its own step (a crash redoes at most the stage in flight); False when the lease was lost.
        A stage that did not mark itself done (say, the frame the model could not produce) is not
        retried in this run: the agent works on, and a later run tries again. With no stage left,
        one more pass lets the supervisor run the checkpoints due when a phase opens. A stage that
        changed what the phase's unanswered brief says replaces it in `messages` and in the store, in
        the stage's step, so the model reads the brief with the stage's results."""
        if self._stages is None:
            return True
        provider = provider_of(self._models.generator.label)
        ran: set[str | None] = set()
        while (stage := self._stages.pending_stage(ctx.state)) not in ran:
            ran.add(stage)
            output = await self._stages.run(ctx, lambda event: self._publish_live(session_id, event))
            if output is None:
                return True
            refreshed = refreshed_conversation(ctx.state, messages)
            if refreshed is not None:
                messages[:] = refreshed
            step = Step(events=output.events, replaced_history=tuple(refreshed) if refreshed is not None else None)
            if not await self._commit(session_id, lease, ctx.state, step, provider, hypotheses=output.hypotheses):
                return False
            if stage is None:
                return True
        return True

    def _publish_live(self, session_id: SessionId, event: SessionEvent) -> None:
        """To this process's followers, and through the relay to the other processes' followers."""
        self._broadcaster.publish_live(session_id, event)
        if self._live_relay is not None:
            self._live_relay.send(session_id, event)

    def _tool_entries(self, phase: Phase, executed: tuple[ToolExecuted, ...]) -> list[ToolCallEntry]:
        now = self._clock.now()
        return [ToolCallEntry(t.name, t.arguments, t.output, t.error_code, phase, now) for t in executed]

    async def _commit(
        self,
        session_id: SessionId,
        lease: RunLease,
        state: ForgeState | None,
        step: Step,
        provider: str = "",
        hypotheses: tuple[Hypothesis, ...] = (),
    ) -> bool:
        """Commit one step (the state is None after a crash: the in-memory state is not trusted)."""
        if self._live_relay is not None:
            await self._live_relay.flush()  # the step's live events reach other processes before it
        # A cancel (the user's, or shutdown) waits for the commit and its publishing: never half a step.
        with self._broadcaster.committing(session_id):
            stored = await finish_before_cancelling(
                self._write_step(session_id, lease, state, step, hypotheses),
                then=lambda stored: self._step_committed(session_id, lease, step, provider, stored),
            )
        return stored is not None

    def _step_committed(
        self, session_id: SessionId, lease: RunLease, step: Step, provider: str, stored: list[StoredEvent] | None
    ) -> None:
        if stored is None:
            return  # the lease was lost: nothing was written
        if step.ends_run:
            self._registry.release(lease.owner)
        self._broadcaster.published(session_id, stored)
        self._observer.events_committed(provider, stored)

    async def _write_step(
        self,
        session_id: SessionId,
        lease: RunLease,
        state: ForgeState | None,
        step: Step,
        hypotheses: tuple[Hypothesis, ...],
    ) -> list[StoredEvent] | None:
        """The step's transaction; its events, or None when the lease is no longer ours."""
        now = self._clock.now()
        async with self._uow_factory() as uow:
            if not _holds(await uow.sessions.lock(session_id), lease):
                return None
            await uow.hypotheses.add_all(session_id, hypotheses, now)
            if step.replaced_history is not None:
                await uow.sessions.replace_messages(session_id, step.replaced_history)
            await uow.sessions.append_messages(session_id, step.appended)
            # Before the row's UPDATE, which then carries the seq counters both appends moved.
            stored = await uow.events.append_all(session_id, step.events, now)
            lease_after = None if step.ends_run else self._registry.renewed(lease)
            if state is not None:
                await uow.tool_calls.record_all(session_id, self._tool_entries(state.current_phase, step.tool_calls))
                if step.ends_run:  # before the row's UPDATE, which then carries the projection's digest
                    await uow.sessions.refresh_projection(session_id, state)
                await uow.sessions.save_state(session_id, state, at=now, cancelled=False, run_lease=lease_after)
            else:
                await uow.sessions.set_run_lease(session_id, lease_after)
            await uow.commit()
        return stored

    async def _renew(self, session_id: SessionId, lease: RunLease) -> bool:
        async with self._uow_factory() as uow:
            held = await uow.sessions.renew_run_lease(session_id, self._registry.renewed(lease))
            await uow.commit()
        return held

    async def _keep_lease(self, session_id: SessionId, lease: RunLease) -> None:
        """Renew the lease while a long model call runs (steps renew it too)."""
        interval = max(0.05, self._registry.lease_seconds / 3)
        while True:
            await asyncio.sleep(interval)
            if not await finish_before_cancelling(self._renew(session_id, lease)):
                return

"""Driving one run of the agent for a session: load, run the loop, persist every step.

Invariants:
    - The generator runs every phase but VALIDATE, which the verifier runs (the same model unless
      configured otherwise).
    - Read -> process -> write: state and conversation are loaded once, the loop mutates them in
      memory, and every Checkpoint persists both (plus token totals) in one transaction.
    - The state is persisted *before* a review or document event is published, so a client that
      sees `done(awaiting_input=true)` can post its review at once.
    - The session's `running` flag is cleared whatever happens (finally), so a crash leaves a
      session that can be resumed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from uuid import UUID

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner, Checkpoint, ToolExecuted
from forge.agent.tool_context import ToolContext
from forge.core import session_events as ev
from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message
from forge.core.session_events import EventType
from forge.core.session_record import ToolCallEntry
from forge.core.session_spend import SpendBudget, total_spend
from forge.ports import Clock, LanguageModel, ResearchProvider, UnitOfWorkFactory
from forge.services.session_event_feed import SessionEventFeed

log = logging.getLogger(__name__)

PERSIST_STATE_BEFORE = frozenset({EventType.DONE, EventType.KNOWLEDGE_DOCUMENT, *ev.REVIEW_EVENT.values()})


class PhaseRunDriver:
    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        feed: SessionEventFeed,
        model: LanguageModel,
        research: ResearchProvider,
        clock: Clock,
        new_id: Callable[[], UUID],
        max_iterations: int,
        budget: SpendBudget | None = None,
        verifier: LanguageModel | None = None,
    ):
        self._uow_factory = uow_factory
        self._feed = feed
        self._model = model
        self._research = research
        self._clock = clock
        self._new_id = new_id
        self._runner = AgentRunner(model, max_iterations=max_iterations, budget=budget)
        self._verifier = verifier or model
        self._verifier_runner = (
            AgentRunner(verifier, max_iterations=max_iterations, budget=budget) if verifier else self._runner
        )

    async def run(self, session_id: SessionId, *, kickoff: bool) -> None:
        try:
            state, messages = await self._load(session_id)
            if kickoff:
                # Persist the brief before the first model call: a run that fails on that call
                # must resume with the brief, not with the previous phase's last message.
                messages.append(phase_kickoff(state))
                await self._save_messages(session_id, messages)
                await self._feed.publish(session_id, ev.phase_change(state.current_phase, state.current_round))
            await self._drive(session_id, state, messages)
        except Exception as error:
            log.exception("run of session %s failed", session_id)
            await self._feed.publish(session_id, ev.error("RUN_FAILED", str(error), recoverable=True))
            await self._feed.publish(session_id, ev.done(error=True, awaiting_input=False))
        finally:
            await self._set_running(session_id, False)

    async def _load(self, session_id: SessionId) -> tuple[ForgeState, list[Message]]:
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
            if record is None:
                raise LookupError(f"session {session_id} does not exist")
            await uow.sessions.update(replace(record, running=True))
            state = await uow.sessions.load_state(session_id)
            messages = await uow.sessions.load_messages(session_id)
            await uow.commit()
        return state, messages

    async def _drive(self, session_id: SessionId, state: ForgeState, messages: list[Message]) -> None:
        # VALIDATE is the verifier's phase: claims are falsified and scored by the verifier model,
        # which may be another model family than the generator that proposed them (000 §4.3).
        verifying = state.current_phase == Phase.VALIDATE
        runner, model = (self._verifier_runner, self._verifier) if verifying else (self._runner, self._model)
        ctx = ToolContext(session_id, state, self._research, self._clock, self._new_id, model.label)
        executed: list[ToolCallEntry] = []
        async for output in runner.run(ctx, messages):
            if isinstance(output, ToolExecuted):
                executed.append(
                    ToolCallEntry(
                        output.name,
                        output.arguments,
                        output.output,
                        output.error_code,
                        state.current_phase,
                        self._clock.now(),
                    )
                )
                continue
            if isinstance(output, Checkpoint):
                await self._checkpoint(session_id, state, output, executed)
                executed = []
                continue
            if output.type in PERSIST_STATE_BEFORE:
                await self._save_state(session_id, state)
            await self._feed.publish(session_id, output)

    async def _checkpoint(
        self, session_id: SessionId, state: ForgeState, checkpoint: Checkpoint, executed: list[ToolCallEntry]
    ) -> None:
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
            if record is None:
                return
            for entry in executed:
                await uow.tool_calls.record(session_id, entry)
            await uow.sessions.save_state(session_id, state)
            await uow.sessions.save_messages(session_id, checkpoint.messages)
            spent = total_spend(state.spend_by_phase)
            await uow.sessions.update(
                replace(
                    record,
                    total_tokens_used=spent.tokens,
                    total_cost_usd=spent.cost_usd,
                    current_round=state.current_round,
                )
            )
            await uow.commit()

    async def _save_state(self, session_id: SessionId, state: ForgeState) -> None:
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
            if record is None:
                return
            await uow.sessions.save_state(session_id, state)
            awaiting = state.awaiting_input_type.value if state.awaiting_input_type else None
            updated = replace(record, awaiting_input_type=awaiting)
            if state.knowledge_document_markdown is not None and state.current_phase == Phase.CRYSTALLIZE:
                resolved = record.resolved_at or self._clock.now()
                updated = replace(updated, status=SessionStatus.CRYSTALLIZED, resolved_at=resolved)
            await uow.sessions.update(updated)
            await uow.commit()

    async def _save_messages(self, session_id: SessionId, messages: list[Message]) -> None:
        async with self._uow_factory() as uow:
            await uow.sessions.save_messages(session_id, messages)
            await uow.commit()

    async def _set_running(self, session_id: SessionId, running: bool) -> None:
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
            if record is not None:
                await uow.sessions.update(replace(record, running=running))
                await uow.commit()

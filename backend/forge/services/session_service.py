"""Session commands and queries: what the API and the CLI call.

Invariants:
    - Every command validates before it writes: a rejected review, a cancel of a finished session
      or a duplicate run leaves the session exactly as it was.
    - Failures are values (`ServiceFailure`), mapped to HTTP status codes at the edge.
    - Runs happen in background tasks (InProcessRuns); commands only start them.
    - A review from the autopilot takes the same path as a person's (read -> pure policy and
      `apply_review` -> write); its `user_input` summary starts with "autopilot: ".
    - Constraints given at creation are stored in the problem text, as a trailing "Constraints:" list
      every model reads as part of the problem; the whole text stays within MAX_PROBLEM_CHARS.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from uuid import UUID

from forge.core import session_events as ev
from forge.core.apply_review import ReviewApplied, apply_review
from forge.core.autopilot_policy import AutopilotPolicy
from forge.core.domain_types import Phase, ReviewType, SessionId, SessionStatus
from forge.core.forge_state import ForgeState
from forge.core.problem_constraints import CONSTRAINTS_HEADING, join_constraints, normalise_constraint
from forge.core.project_graph_to_flow import FlowGraph, project_graph_to_flow
from forge.core.records import SessionDocument
from forge.core.review_inputs import REVIEW_TYPE_OF, RejectionKind, ReviewInput
from forge.core.review_payloads import build_review_payload
from forge.core.rule_verdicts import RuleViolation
from forge.core.session_documents import new_session_document
from forge.core.session_record import MAX_PROBLEM_CHARS, MIN_PROBLEM_CHARS, SessionPage, SessionRecord, StoredEvent
from forge.ports import Clock, UnitOfWork, UnitOfWorkFactory
from forge.services.drive_phase_run import PhaseRunDriver
from forge.services.in_process_runs import InProcessRuns
from forge.services.session_event_feed import Heartbeat, SessionEventFeed


class FailureKind(str, Enum):
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class ServiceFailure:
    kind: FailureKind
    message: str


FINISHED = (SessionStatus.CRYSTALLIZED, SessionStatus.CANCELLED)
AUTOPILOT_PREFIX = "autopilot: "


def problem_with_constraints(problem: str, constraints: Sequence[str]) -> str | ServiceFailure:
    """The problem followed by a "Constraints:" list of `- item` lines (unchanged without constraints),
    or why it cannot be stored (a blank item, or more than MAX_PROBLEM_CHARS in all)."""
    blank = next((i for i, c in enumerate(constraints) if not normalise_constraint(c)), None)
    if blank is not None:
        return ServiceFailure(FailureKind.INVALID, f"constraints[{blank}] is blank; remove it or write the constraint.")
    text = join_constraints(problem, constraints)
    if len(text) > MAX_PROBLEM_CHARS:
        return ServiceFailure(
            FailureKind.INVALID,
            f"problem and constraints together take {len(text)} characters (with the '{CONSTRAINTS_HEADING}' list); "
            f"the limit is {MAX_PROBLEM_CHARS}: cut {len(text) - MAX_PROBLEM_CHARS} characters.",
        )
    return text


def _finished_message(status: SessionStatus) -> str:
    if status == SessionStatus.CRYSTALLIZED:
        return "The session is finished (crystallized, its knowledge document is ready); no review is expected."
    return f"The session is {status.value}; no review is expected."


def _not_found(session_id: SessionId) -> ServiceFailure:
    return ServiceFailure(FailureKind.NOT_FOUND, f"Session {session_id} does not exist.")


class SessionService:
    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        feed: SessionEventFeed,
        runs: InProcessRuns,
        driver: PhaseRunDriver,
        clock: Clock,
        new_id: Callable[[], UUID],
        model_label: str,
    ):
        self._uow_factory = uow_factory
        self._feed = feed
        self._runs = runs
        self._driver = driver
        self._clock = clock
        self._new_id = new_id
        self._model_label = model_label

    # ---- queries ---------------------------------------------------------------------------
    async def get(self, session_id: SessionId) -> SessionRecord | ServiceFailure:
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
        return record or _not_found(session_id)

    async def list_page(self, limit: int, offset: int, status: SessionStatus | None) -> SessionPage:
        async with self._uow_factory() as uow:
            return await uow.sessions.list_page(limit=limit, offset=offset, status=status)

    async def describe(self, session_id: SessionId) -> tuple[SessionRecord, ForgeState] | ServiceFailure:
        """The session row and its state, read in one transaction."""
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
            if record is None:
                return _not_found(session_id)
            return record, await uow.sessions.load_state(session_id)

    async def state(self, session_id: SessionId) -> ForgeState | ServiceFailure:
        described = await self.describe(session_id)
        return described if isinstance(described, ServiceFailure) else described[1]

    async def graph(self, session_id: SessionId) -> FlowGraph | ServiceFailure:
        state = await self.state(session_id)
        if isinstance(state, ServiceFailure):
            return state
        return project_graph_to_flow(state.knowledge_graph_nodes, state.knowledge_graph_edges)

    async def document(self, session_id: SessionId) -> str | ServiceFailure:
        state = await self.state(session_id)
        if isinstance(state, ServiceFailure):
            return state
        if state.knowledge_document_markdown is None:
            return ServiceFailure(
                FailureKind.CONFLICT,
                f"No document yet: the session is in "
                f"{state.current_phase.value.upper()}; it is generated in CRYSTALLIZE.",
            )
        return state.knowledge_document_markdown

    async def events(self, session_id: SessionId, after: int, limit: int) -> list[StoredEvent] | ServiceFailure:
        found = await self.get(session_id)
        if isinstance(found, ServiceFailure):
            return found
        return await self._feed.read_after(session_id, after, limit)

    async def documents(self, session_id: SessionId) -> list[SessionDocument] | ServiceFailure:
        state = await self.state(session_id)
        return state if isinstance(state, ServiceFailure) else list(state.session_documents)

    # ---- commands --------------------------------------------------------------------------
    async def add_document(self, session_id: SessionId, title: str, text: str) -> SessionDocument | ServiceFailure:
        """Add the person's document to the session's research sources (not while the agent runs:
        the run holds the state in memory and would overwrite the change at its next checkpoint)."""
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
            if record is None:
                return _not_found(session_id)
            if record.status in FINISHED:
                return ServiceFailure(
                    FailureKind.CONFLICT, f"The session is {record.status.value}; it takes no documents."
                )
            if self._runs.is_running(session_id):
                return ServiceFailure(
                    FailureKind.CONFLICT, "The agent is working; add documents when it pauses for review."
                )
            state = await uow.sessions.load_state(session_id)
            document = new_session_document(state.session_documents, session_id, title, text, self._clock.now())
            if isinstance(document, RuleViolation):
                return ServiceFailure(FailureKind.INVALID, document.message)
            state.session_documents.append(document)
            await uow.sessions.save_state(session_id, state)
            await uow.commit()
        return document

    async def create(self, problem: str, constraints: Sequence[str] = ()) -> SessionRecord | ServiceFailure:
        """A new session; `constraints` are appended to the problem as a "Constraints:" list."""
        text = problem.strip()
        if not MIN_PROBLEM_CHARS <= len(text) <= MAX_PROBLEM_CHARS:
            return ServiceFailure(
                FailureKind.INVALID,
                f"problem must be {MIN_PROBLEM_CHARS}..{MAX_PROBLEM_CHARS} characters after trimming; got {len(text)}.",
            )
        combined = problem_with_constraints(text, constraints)
        if isinstance(combined, ServiceFailure):
            return combined
        text = combined
        record = SessionRecord(
            SessionId(self._new_id()),
            text,
            SessionStatus.DECOMPOSING,
            Phase.DECOMPOSE,
            0,
            self._clock.now(),
            self._model_label,
        )
        async with self._uow_factory() as uow:
            await uow.sessions.add(record, ForgeState(problem=text))
            await uow.commit()
        return record

    async def delete(self, session_id: SessionId) -> ServiceFailure | None:
        await self._runs.cancel(session_id)
        async with self._uow_factory() as uow:
            deleted = await uow.sessions.delete(session_id)
            await uow.commit()
        return None if deleted else _not_found(session_id)

    async def cancel(self, session_id: SessionId) -> SessionRecord | ServiceFailure:
        record = await self.get(session_id)
        if isinstance(record, ServiceFailure):
            return record
        if record.status in FINISHED:
            return ServiceFailure(FailureKind.CONFLICT, f"The session is already {record.status.value}.")
        await self._runs.cancel(session_id)
        async with self._uow_factory() as uow:
            cancelled = replace(record, status=SessionStatus.CANCELLED, running=False, resolved_at=self._clock.now())
            await uow.sessions.update(cancelled)
            await uow.commit()
        await self._feed.publish(
            session_id, ev.error("CANCELLED", "The session was cancelled.", recoverable=False, severity="info")
        )
        await self._feed.publish(session_id, ev.done(error=False, awaiting_input=False))
        return cancelled

    def _needs_run(self, record: SessionRecord, state: ForgeState) -> bool:
        if record.status in FINISHED or state.awaiting_user_input:
            return False
        return not self._runs.is_running(record.id)

    async def start_or_resume(self, session_id: SessionId) -> SessionRecord | ServiceFailure:
        """Start the agent when the session has work to do and nothing runs it (new, or interrupted)."""
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
            if record is None:
                return _not_found(session_id)
            state = await uow.sessions.load_state(session_id)
            # A phase's brief is persisted (and announced) before its first model call, so a session
            # with events has a conversation to resume; only a brand-new one needs its first brief.
            never_started = await uow.events.last_seq(session_id) == 0
        if self._needs_run(record, state):
            self._runs.start(session_id, lambda: self._driver.run(session_id, kickoff=never_started))
        return record

    async def submit_review(self, session_id: SessionId, review: ReviewInput) -> int | ServiceFailure:
        """Apply a review and start the next phase; returns the event cursor to stream from."""
        return await self._submit(session_id, lambda _state: review, by_autopilot=False)

    async def submit_autopilot_review(self, session_id: SessionId, policy: AutopilotPolicy) -> int | ServiceFailure:
        """Answer the review the session waits for with the policy's review, then as `submit_review`.

        Refused (conflict) unless the session waits for a review; the message says what it does instead."""

        def choose(state: ForgeState) -> ReviewInput | ServiceFailure:
            if not state.awaiting_user_input or state.awaiting_input_type is None:
                return ServiceFailure(
                    FailureKind.CONFLICT,
                    f"The session is not waiting for a review: it is in {state.current_phase.value.upper()} with "
                    "nothing running (not started yet, or interrupted); open its stream to start or resume it.",
                )
            return policy.review_for(state, state.awaiting_input_type)

        return await self._submit(session_id, choose, by_autopilot=True)

    async def _submit(
        self,
        session_id: SessionId,
        choose: Callable[[ForgeState], ReviewInput | ServiceFailure],
        *,
        by_autopilot: bool,
    ) -> int | ServiceFailure:
        """Read -> choose the review from the state -> pure `apply_review` -> write; then publish and run."""
        async with self._uow_factory() as uow:
            record = await uow.sessions.get(session_id)
            if record is None:
                return _not_found(session_id)
            if record.status in FINISHED:
                return ServiceFailure(FailureKind.CONFLICT, _finished_message(record.status))
            if self._runs.is_running(session_id):
                return ServiceFailure(
                    FailureKind.CONFLICT,
                    f"The agent is still running the {record.current_phase.value.upper()} phase; wait for its review.",
                )
            state = await uow.sessions.load_state(session_id)
            review = choose(state)
            if isinstance(review, ServiceFailure):
                return review
            outcome = apply_review(state, review, self._new_id)
            if not isinstance(outcome, ReviewApplied):
                kind = FailureKind.CONFLICT if outcome.kind == RejectionKind.CONFLICT else FailureKind.INVALID
                return ServiceFailure(kind, outcome.message)
            cursor = await uow.events.last_seq(session_id)
            await self._persist_review(uow, record, outcome)
            await uow.commit()
        summary = AUTOPILOT_PREFIX + outcome.summary if by_autopilot else outcome.summary
        await self._after_review(session_id, REVIEW_TYPE_OF[type(review)], summary, outcome)
        return cursor

    async def _persist_review(self, uow: UnitOfWork, record: SessionRecord, outcome: ReviewApplied) -> None:
        state = outcome.state
        status = SessionStatus.for_phase(state.current_phase)
        awaiting = state.awaiting_input_type.value if state.awaiting_input_type else None
        await uow.sessions.save_state(record.id, state)
        await uow.sessions.update(
            replace(
                record,
                status=status,
                current_phase=state.current_phase,
                current_round=state.current_round,
                awaiting_input_type=awaiting,
            )
        )

    async def _after_review(
        self, session_id: SessionId, review_type: ReviewType, summary: str, outcome: ReviewApplied
    ) -> None:
        await self._feed.publish(session_id, ev.user_input(review_type, summary))
        if outcome.next_phase is None:
            waiting = outcome.state.awaiting_input_type
            if waiting is not None:
                await self._feed.publish(session_id, ev.review(waiting, build_review_payload(outcome.state, waiting)))
            await self._feed.publish(session_id, ev.done(error=False, awaiting_input=True))
            return
        self._runs.start(session_id, lambda: self._driver.run(session_id, kickoff=True))

    def follow(self, session_id: SessionId, after_seq: int) -> AsyncIterator[StoredEvent | Heartbeat]:
        return self._feed.follow(session_id, after_seq, lambda: self._runs.is_running(session_id))

"""Session commands and queries: what the API and the CLI call.

Invariants:
    - Every command on a session runs in one transaction that starts by taking the session's write
      lock (`sessions.lock`), so commands on one session are serialised across requests and API
      processes: the loser of a race sees the winner's commit and gets a conflict (never a 500),
      and its effect is never applied. Event seqs are allocated inside that transaction.
    - Every command validates before it writes: a rejected review, a cancel of a finished session
      or a duplicate run leaves the session exactly as it was.
    - A command that starts a run takes the run's lease in its own transaction (with the events and
      the phase's brief), so a crash right after it leaves a session whose next `start_run` (POST
      /run) resumes the phase; the run itself happens in a background task (RunRegistry), or, with
      workers on, in a worker process: the job is enqueued in that same transaction (`RunLauncher`).
    - Only commands start model work: `start_run`, and a review that opens the next phase. `follow`
      (GET /stream) only reads; when it finds the session with work and no live run (a run whose
      process died, once its lease expired), it ends the stream with RUN_NOT_RUNNING so the client
      POSTs /run and reconnects.
    - `start_run` is idempotent: a live run is reported (`started=False`), never doubled.
    - A review is accepted as soon as the pause is visible: the pause's step commits the awaited
      review and clears the lease together, and a review needs only "awaiting" under the lock.
    - Failures are values (`ServiceFailure`), mapped to HTTP status codes at the edge.
    - A review from the autopilot takes the same path as a person's (read -> pure policy and
      `apply_review` -> write); its `user_input` summary starts with "autopilot: ".
    - Constraints given at creation are stored in the problem text, as a trailing "Constraints:" list
      every model reads as part of the problem; the whole text stays within MAX_PROBLEM_CHARS.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from uuid import UUID

from forge.agent.phase_briefs import phase_kickoff
from forge.core.accounts.users import LOCAL_USER_ID, UserId
from forge.core.domain_types import Phase, ReviewType, SessionId, SessionStatus
from forge.core.frame.problem_constraints import CONSTRAINTS_HEADING, join_constraints, normalise_constraint
from forge.core.graph.project_to_flow import FlowGraph, project_graph_to_flow
from forge.core.hypotheses.star_from_pool import resolve_pool_stars
from forge.core.research.session_documents import new_session_document
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.review.inputs import REVIEW_TYPE_OF, ExploreReview, RejectionKind, ReviewInput, ReviewRejection
from forge.core.review.payloads import build_review_payload
from forge.core.rules.verdicts import RuleViolation
from forge.core.session import events as ev
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.position import FINISHED_STATUSES
from forge.core.session.record import (
    MAX_PROBLEM_CHARS,
    MIN_PROBLEM_CHARS,
    RunLease,
    SessionPage,
    SessionRecord,
    StoredEvent,
)
from forge.core.session.records import SessionDocument
from forge.ports import Clock, UnitOfWork, UnitOfWorkFactory
from forge.services.broadcast.messages import RUN_NOT_RUNNING, FollowItem, Heartbeat, StreamClosed
from forge.services.broadcast.session_broadcast import SessionBroadcaster
from forge.services.hypothesis_memory_service import HypothesisMemory
from forge.services.runs.launcher import RunLauncher
from forge.services.runs.registry import RunRegistry
from forge.services.service_results import FailureKind, RunStarted, ServiceFailure, not_found

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


class SessionService:
    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        broadcaster: SessionBroadcaster,
        registry: RunRegistry,
        launcher: RunLauncher,
        clock: Clock,
        new_id: Callable[[], UUID],
        model_label: str,
        memory: HypothesisMemory | None = None,
        *,
        queries: UnitOfWorkFactory | None = None,
        refuse_suggestions: Callable[[Sequence[str]], str | None] | None = None,
    ):
        self._refuse_suggestions = refuse_suggestions  # domains the engine cannot explore, refused at the review
        self._uow_factory = uow_factory
        self._queries = queries or uow_factory  # reads only (`SqlAlchemyUnitOfWork.query_only`)
        self._memory = memory
        self._broadcaster = broadcaster
        self._registry = registry
        self._launcher = launcher
        self._clock = clock
        self._new_id = new_id
        self._model_label = model_label

    def _with_running(self, record: SessionRecord) -> SessionRecord:
        return replace(record, running=self._registry.is_live(record.run_lease))

    def _needs_run(self, record: SessionRecord) -> bool:
        has_work = record.status not in FINISHED_STATUSES and record.awaiting_input_type is None
        return has_work and not self._registry.is_live(record.run_lease)

    # ---- queries ---------------------------------------------------------------------------
    async def get(self, session_id: SessionId) -> SessionRecord | ServiceFailure:
        async with self._queries() as uow:
            record = await uow.sessions.get(session_id)
        return self._with_running(record) if record else not_found(session_id)

    async def list_page(
        self, limit: int, offset: int, status: SessionStatus | None, owner: UserId | None = None
    ) -> SessionPage:
        async with self._queries() as uow:
            page = await uow.sessions.list_page(limit=limit, offset=offset, status=status, owner=owner)
        return replace(page, items=tuple(self._with_running(r) for r in page.items))

    async def describe(self, session_id: SessionId) -> tuple[SessionRecord, ForgeState] | ServiceFailure:
        """The session row and its state (each read sees the latest commit)."""
        async with self._queries() as uow:
            record = await uow.sessions.get(session_id)
            if record is None:
                return not_found(session_id)
            return self._with_running(record), await uow.sessions.load_state(session_id)

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
        async with self._queries() as uow:
            if await uow.sessions.get(session_id) is None:
                return not_found(session_id)
            return await uow.events.after(session_id, after, limit)

    async def documents(self, session_id: SessionId) -> list[SessionDocument] | ServiceFailure:
        state = await self.state(session_id)
        return state if isinstance(state, ServiceFailure) else list(state.session_documents)

    async def follow(self, session_id: SessionId, after_seq: int) -> AsyncIterator[FollowItem]:
        """Committed events after `after_seq` (then live ones) until the run pauses or finishes.

        Never starts a run. At every heartbeat (a quiet stream) it checks whether the session has
        work that no live run holds (not started, or a run whose process died, once its lease
        expired); then it ends with RUN_NOT_RUNNING, so the client POSTs /run and reconnects instead
        of waiting on a run that will not come back."""
        async for batch in self.follow_batches(session_id, after_seq):
            for item in batch:
                yield item

    async def follow_batches(self, session_id: SessionId, after_seq: int) -> AsyncIterator[list[FollowItem]]:
        """As `follow`, grouped per wake-up (a stream writes each batch at once)."""
        async for batch in self._broadcaster.follow_batches(session_id, after_seq):
            yield batch
            if isinstance(batch[-1], Heartbeat) and await self._has_work_but_no_run(session_id):
                yield [
                    StreamClosed(
                        RUN_NOT_RUNNING,
                        f"Nothing is running session {session_id}: POST /api/v1/sessions/{session_id}/run "
                        "to start or resume it, then reopen the stream.",
                    )
                ]
                return

    async def _has_work_but_no_run(self, session_id: SessionId) -> bool:
        if self._registry.runs_here(session_id):
            return False  # the common case for followers of a live run: no database read at all
        async with self._queries() as uow:
            found = await uow.sessions.get(session_id)
            return found is not None and self._needs_run(found) and not await self._launcher.pending(uow, session_id)

    # ---- commands --------------------------------------------------------------------------
    async def create(
        self, problem: str, constraints: Sequence[str] = (), owner: UserId = LOCAL_USER_ID
    ) -> SessionRecord | ServiceFailure:
        """A new session of `owner`, with DECOMPOSE's brief and `phase_change` stored; `start_run` starts it."""
        text = problem.strip()
        if not MIN_PROBLEM_CHARS <= len(text) <= MAX_PROBLEM_CHARS:
            return ServiceFailure(
                FailureKind.INVALID,
                f"problem must be {MIN_PROBLEM_CHARS}..{MAX_PROBLEM_CHARS} characters after trimming; got {len(text)}.",
            )
        combined = problem_with_constraints(text, constraints)
        if isinstance(combined, ServiceFailure):
            return combined
        state = ForgeState(problem=combined)
        now = self._clock.now()
        first = (SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0)
        record = SessionRecord(SessionId(self._new_id()), combined, *first, now, self._model_label, owner_id=owner)
        if self._memory is not None:  # what earlier sessions learned, offered in DECOMPOSE (seed 004)
            state.remembered_hypotheses = await self._memory.recall(self._uow_factory, combined, owner)
        async with self._uow_factory() as uow:
            await uow.sessions.add(record, state, [phase_kickoff(state)])
            if self._memory is not None:  # the question retrieved them: §10.2 query match
                await self._memory.note_retrieved(uow, record.id, state.remembered_hypotheses, combined, now, owner)
            stored = await uow.events.append_all(record.id, [ev.phase_change(Phase.DECOMPOSE, 0)], now)
            await self._commit_and_publish(uow, record.id, stored)
        return record

    async def add_document(self, session_id: SessionId, title: str, text: str) -> SessionDocument | ServiceFailure:
        """Add the person's document to the session's research sources (not while a run holds the
        state in memory: it would overwrite the change at its next step)."""
        async with self._uow_factory() as uow:
            record = await uow.sessions.lock(session_id)
            if record is None:
                return not_found(session_id)
            if record.status in FINISHED_STATUSES:
                return ServiceFailure(
                    FailureKind.CONFLICT, f"The session is {record.status.value}; it takes no documents."
                )
            if self._registry.is_live(record.run_lease):
                return ServiceFailure(
                    FailureKind.CONFLICT, "The agent is working; add documents when it pauses for review."
                )
            state = await uow.sessions.load_state(session_id)
            document = new_session_document(state.session_documents, session_id, title, text, self._clock.now())
            if isinstance(document, RuleViolation):
                return ServiceFailure(FailureKind.INVALID, document.message)
            state.session_documents.append(document)
            await uow.sessions.save_state(session_id, state, at=self._clock.now())
            await uow.commit()
        return document

    async def delete(self, session_id: SessionId) -> ServiceFailure | None:
        async with self._uow_factory() as uow:
            deleted = await uow.sessions.lock(session_id) is not None and await uow.sessions.delete(session_id)
            await uow.commit()
        if not deleted:
            return not_found(session_id)
        self._broadcaster.session_deleted(session_id)
        await self._registry.cancel(session_id)
        return None

    async def cancel(self, session_id: SessionId) -> SessionRecord | ServiceFailure:
        now = self._clock.now()
        async with self._uow_factory() as uow:
            record = await uow.sessions.lock(session_id)
            if record is None:
                return not_found(session_id)
            if record.status in FINISHED_STATUSES:
                return ServiceFailure(FailureKind.CONFLICT, f"The session is already {record.status.value}.")
            await uow.sessions.set_cancelled(session_id, now)
            await uow.sessions.set_run_lease(session_id, None)
            cancelled_events = [
                ev.error("CANCELLED", "The session was cancelled.", recoverable=False, severity="info"),
                ev.done(error=False, awaiting_input=False),
            ]
            stored = await uow.events.append_all(session_id, cancelled_events, now)
            await self._commit_and_publish(uow, session_id, stored)
        await self._registry.cancel(session_id)
        status = SessionStatus.CANCELLED
        return replace(record, status=status, cancelled=True, run_lease=None, awaiting_input_type=None, resolved_at=now)

    def _cannot_run(self, record: SessionRecord) -> ServiceFailure | None:
        if record.status in FINISHED_STATUSES:
            return ServiceFailure(
                FailureKind.CONFLICT, f"The session is {record.status.value}; there is nothing left to run."
            )
        if record.awaiting_input_type is not None:
            return ServiceFailure(
                FailureKind.CONFLICT,
                f"The session waits for its {record.awaiting_input_type}; answer it with POST .../user-input "
                "or .../autopilot, which starts the next phase.",
            )
        return None

    async def start_run(self, session_id: SessionId) -> RunStarted | ServiceFailure:
        """Start the agent on the session's current phase, or resume it after a crash or an error.
        Idempotent: a session a live run holds is reported as it is (`started=False`). A conflict when
        the session is finished or waits for a review; serialised with every other command."""
        async with self._uow_factory() as uow:
            record = await uow.sessions.lock(session_id)
            if record is None:
                return not_found(session_id)
            refused = self._cannot_run(record)
            if refused is not None:
                return refused
            if self._registry.is_live(record.run_lease):
                return RunStarted(self._with_running(record), started=False)
            lease = self._launcher.new_lease()
            await uow.sessions.set_run_lease(session_id, lease)
            await self._launcher.enqueue(uow, session_id, lease)
            last = await uow.events.last(session_id)
            # A phase whose run started before (and stopped: a crash, an error) is marked as resumed,
            # so the stream shows it and a follower at a `done` knows a new run is under way.
            fresh = last is not None and last.type == EventType.PHASE_CHANGE
            marker = [] if fresh else [ev.phase_change(record.current_phase, record.current_round, resumed=True)]
            stored = await uow.events.append_all(session_id, marker, self._clock.now())
            await self._commit_and_publish(uow, session_id, stored, starting=lease)
        return RunStarted(replace(record, run_lease=lease, running=True), started=True)

    async def _commit_and_publish(
        self, uow: UnitOfWork, session_id: SessionId, stored: list[StoredEvent], starting: RunLease | None = None
    ) -> None:
        """Commit, then hand the committed events to this process's followers (a notification of
        them in between waits for this: `SessionBroadcaster.committing`), then start the run the
        transaction took the lease `starting` for.

        The run counts as live in this process from before the commit: on PostgreSQL the commit
        releases the row lock, and a command waiting for it may resume before this coroutine does;
        it must find the run live, or it would start a second one."""
        if starting is not None:
            self._launcher.reserve(session_id, starting)
        try:
            with self._broadcaster.committing(session_id):
                await uow.commit()
                self._broadcaster.published(session_id, stored)
        except BaseException:
            if starting is not None:
                self._launcher.abandon(starting)
            raise
        if starting is not None:
            self._launcher.start(session_id, starting)

    async def submit_review(self, session_id: SessionId, review: ReviewInput) -> int | ServiceFailure:
        """Apply a review and start the next phase; returns the event cursor to stream from."""
        return await self._submit(session_id, lambda _state: review, by_autopilot=False)

    async def submit_autopilot_review(self, session_id: SessionId, policy: AutopilotPolicy) -> int | ServiceFailure:
        """Answer the review the session waits for with the policy's review, then as `submit_review`."""

        def choose(state: ForgeState) -> ReviewInput | ServiceFailure:
            assert state.awaiting_input_type is not None  # _submit checked that a review is awaited
            stop = policy.stop_reason(state, state.awaiting_input_type)
            if stop is not None:  # a decision only the person may make (a CP-1 conflict)
                return ServiceFailure(FailureKind.CONFLICT, stop)
            return policy.review_for(state, state.awaiting_input_type)

        return await self._submit(session_id, choose, by_autopilot=True)

    def _not_awaiting(self, record: SessionRecord, state: ForgeState) -> ServiceFailure:
        phase = state.current_phase.value.upper()
        if self._registry.is_live(record.run_lease):
            return ServiceFailure(
                FailureKind.CONFLICT, f"The agent is still running the {phase} phase; wait for its review."
            )
        return ServiceFailure(
            FailureKind.CONFLICT,
            f"The session is not waiting for a review: it is in {phase} with nothing running (not started yet, "
            "or interrupted); POST /run to start or resume it.",
        )

    async def _submit(
        self,
        session_id: SessionId,
        choose: Callable[[ForgeState], ReviewInput | ServiceFailure],
        *,
        by_autopilot: bool,
    ) -> int | ServiceFailure:
        """Lock -> read -> choose the review -> pure `apply_review` -> write; then publish and run."""
        async with self._uow_factory() as uow:
            record = await uow.sessions.lock(session_id)
            if record is None:
                return not_found(session_id)
            if record.status in FINISHED_STATUSES:
                return ServiceFailure(FailureKind.CONFLICT, _finished_message(record.status))
            state = await uow.sessions.load_state(session_id)
            if not state.awaiting_user_input or state.awaiting_input_type is None:
                return self._not_awaiting(record, state)
            review = choose(state)
            if isinstance(review, ServiceFailure):
                return review
            if isinstance(review, ExploreReview):
                with_stars = await self._explore_review(uow, session_id, review)
                if isinstance(with_stars, ServiceFailure):
                    return with_stars
                review = with_stars
            # The state was read for this review alone: it is applied in place (a rejection rolls the
            # transaction back), so the memory takes what it needs of the state before, first.
            verdicts = self._memory.verdicts_of(state, review) if self._memory is not None else None
            outcome = apply_review(state, review, self._new_id, keep=False)
            if not isinstance(outcome, ReviewApplied):
                kind = FailureKind.CONFLICT if outcome.kind == RejectionKind.CONFLICT else FailureKind.INVALID
                return ServiceFailure(kind, outcome.message)
            summary = AUTOPILOT_PREFIX + outcome.summary if by_autopilot else outcome.summary
            if self._memory is not None and verdicts is not None:  # remembered C-values move, in this transaction
                await self._memory.record_verdicts(uow, session_id, verdicts, self._clock.now(), record.owner_id)
            cursor = await uow.events.last_seq(session_id)
            review_type = REVIEW_TYPE_OF[type(review)]
            lease, stored = await self._persist_review(uow, record, review_type, summary, outcome)
            await self._commit_and_publish(uow, session_id, stored, starting=lease)
        return cursor

    async def _explore_review(
        self, uow: UnitOfWork, session_id: SessionId, review: ExploreReview
    ) -> ExploreReview | ServiceFailure:
        """The review with the pool hypotheses it stars read from the pool; refused (in plain words,
        nothing applied) for a suggested domain the engine cannot explore."""
        refusal = self._refuse_suggestions(review.suggested_domains) if self._refuse_suggestions else None
        if refusal is not None:
            return ServiceFailure(FailureKind.INVALID, refusal)
        if not review.starred_hypotheses:
            return review
        with_stars = resolve_pool_stars(review, await uow.hypotheses.by_ids(session_id, review.starred_hypotheses))
        return (
            ServiceFailure(FailureKind.INVALID, with_stars.message)
            if isinstance(with_stars, ReviewRejection)
            else with_stars
        )

    async def _persist_review(
        self, uow: UnitOfWork, locked: SessionRecord, review_type: ReviewType, summary: str, outcome: ReviewApplied
    ) -> tuple[RunLease | None, list[StoredEvent]]:
        """Write the reviewed state and its events (the session `locked` in this transaction); a review
        that opens a phase also stores the phase's brief and takes the run's lease, so a crash after
        this commit resumes that phase."""
        session_id, state, now = locked.id, outcome.state, self._clock.now()
        events = [ev.user_input(review_type, summary)]
        lease: RunLease | None = None
        if outcome.next_phase is None:
            waiting = state.awaiting_input_type
            if waiting is not None:
                events.append(ev.review(waiting, build_review_payload(state, waiting)))
            events.append(ev.done(error=False, awaiting_input=True))
        else:
            lease = self._launcher.new_lease()
            await uow.sessions.append_messages(session_id, [phase_kickoff(state)])
            await uow.sessions.set_run_lease(session_id, lease)
            await self._launcher.enqueue(uow, session_id, lease)
            events.append(ev.phase_change(state.current_phase, state.current_round))
        stored = await uow.events.append_all(session_id, events, now)  # counted; the state's UPDATE writes the counter
        await uow.sessions.refresh_projection(session_id, state)  # its digest rides the state's UPDATE
        await uow.sessions.save_state(session_id, state, at=now, cancelled=locked.cancelled)
        return lease, stored

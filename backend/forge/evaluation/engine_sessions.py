"""The engine arm for MacGyver and MOOSE-Chem: one full autopilot session per item through the same
SessionService as `forge answer`, its AnswerPack's direct answer and solution as the answer.

Invariants:
    - The sessions live in the evaluation folder's own SQLite database (`DIR/sessions.db`), never in
      the user's; the composition root builds the container as for any session.
    - The answer shown to the judge is the pack's direct answer and solution only (no methodology,
      no model label), so the judge stays blind to the arm.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.events import EventType
from forge.core.session.spend import total_spend
from forge.services.broadcast.messages import Heartbeat, LiveEvent, StreamClosed
from forge.services.service_results import ServiceFailure
from forge.services.session_service import SessionService

MAX_TURNS = 40  # reviews and runs per session: 6 phases x 5 rounds is far below this


@dataclass(frozen=True, slots=True)
class SessionAnswer:
    answer: str
    cost_usd: float
    model: str
    error: str = ""


async def _follow_to_close(service: SessionService, sid: SessionId, after: int) -> tuple[int, bool]:
    """Follow the run's events until its stream closes; (cursor, the run ended in an error)."""
    failed = False
    async for item in service.follow(sid, after):
        if isinstance(item, LiveEvent | Heartbeat):
            continue
        if isinstance(item, StreamClosed):
            break
        after = item.seq
        failed = item.type == EventType.DONE and bool(item.data.get("error"))
    return after, failed


async def drive_session(service: SessionService, sid: SessionId, policy: AutopilotPolicy) -> str:
    """Run the session to its document, the policy answering each review; "" or why it stopped."""
    cursor = 0
    for _ in range(MAX_TURNS):
        state = await service.state(sid)
        if isinstance(state, ServiceFailure):
            return state.message
        if state.knowledge_document_markdown is not None:
            return ""
        reviewing = state.awaiting_input_type is not None and state.awaiting_user_input
        step = await (service.submit_autopilot_review(sid, policy) if reviewing else service.start_run(sid))
        if isinstance(step, ServiceFailure):
            return step.message
        cursor, failed = await _follow_to_close(service, sid, cursor)
        if failed:
            return "the run ended in an error"
    return f"no document after {MAX_TURNS} turns"


class EngineSessions:
    """Autopilot sessions in a container of their own (`open`: in `folder/sessions.db`, migrated)."""

    def __init__(self, container: Container) -> None:
        self._container = container

    @classmethod
    async def open(cls, settings: Settings, folder: Path) -> EngineSessions:
        from forge.db.migrate import upgrade_database

        url = f"sqlite+aiosqlite:///{(folder / 'sessions.db').resolve()}"
        await upgrade_database(url)
        return cls(build_container(replace(settings, database_url=url, run_processes=0)))

    @property
    def label(self) -> str:
        return self._container.model.label

    async def answer(self, problem: str) -> SessionAnswer:
        service = self._container.service
        record = await service.create(problem)
        if isinstance(record, ServiceFailure):
            return SessionAnswer("", 0.0, self.label, record.message)
        stopped = await drive_session(service, record.id, AutopilotPolicy())
        state = await service.state(record.id)
        if isinstance(state, ServiceFailure):
            return SessionAnswer("", 0.0, self.label, state.message)
        cost = total_spend(state.spend_by_phase).cost_usd
        pack = state.answer_pack
        if pack is None:
            return SessionAnswer("", cost, self.label, stopped or "the session built no AnswerPack")
        return SessionAnswer(f"{pack.direct_answer}\n\n{pack.solution_markdown}".strip(), cost, self.label, stopped)

    async def close(self) -> None:
        await self._container.close()

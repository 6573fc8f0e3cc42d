"""Ports: the Protocols the agent and services depend on; adapters implement them.

Invariants:
    - Nothing here imports an adapter (SQLAlchemy, an SDK, httpx); adapters import this module.
    - Only `UnitOfWork.commit` makes writes durable, and only the service layer calls it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from types import TracebackType
from typing import Literal, Protocol

from forge.core.domain_types import EventSeq, Phase, SessionId, SessionStatus
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message, ModelRequest, ModelResponse, StreamReset, TextDelta, Usage
from forge.core.records import ResearchHit, SessionDocument
from forge.core.session_events import SessionEvent
from forge.core.session_record import RunLease, SessionPage, SessionRecord, StoredEvent, ToolCallEntry


class Clock(Protocol):
    def now(self) -> datetime: ...


class ModelUnavailableError(Exception):
    """The provider could not answer (retries exhausted, bad key, outage). The run ends recoverably.

    `usage` is what the failed attempts were charged (input counted from the stream's start event),
    so a failed call still shows up in the session's cost."""

    def __init__(self, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()


class ContextOverflowError(Exception):
    """The request does not fit the model's context window; the caller may compact and retry."""


class LanguageModel(Protocol):
    """A model that answers a request with one assistant message (text and/or tool calls).

    Providers raise ModelUnavailableError / ContextOverflowError, never SDK exceptions."""

    @property
    def label(self) -> str: ...

    @property
    def context_window(self) -> int: ...

    async def complete(self, request: ModelRequest) -> ModelResponse: ...


class StreamingLanguageModel(LanguageModel, Protocol):
    """A model that can also stream: text deltas as they arrive, then exactly one final ModelResponse.

    A `StreamReset` between deltas says the text so far is abandoned (the call restarted after a cut);
    the final ModelResponse holds only the text of the attempt that completed."""

    def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | StreamReset | ModelResponse]: ...


class RunObserver(Protocol):
    """What runs report for operations (metrics). Never raises into the run, never changes it."""

    def events_committed(self, provider: str, events: Sequence[StoredEvent]) -> None:
        """A step of a run whose model is of `provider` committed `events` (model calls are among them)."""
        ...

    def run_ended(self, phase: Phase, seconds: float) -> None: ...


class ResearchProvider(Protocol):
    @property
    def name(self) -> str: ...

    async def search(
        self,
        query: str,
        *,
        session_id: SessionId | None,
        limit: int = 5,
        session_documents: Sequence[SessionDocument] = (),
    ) -> Sequence[ResearchHit]:
        """Search; `session_documents` (the person's own documents) are searched along with the
        provider's sources. Passing them on every call keeps providers stateless across restarts."""
        ...


class Embedder(Protocol):
    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class SessionRepository(Protocol):
    async def add(self, record: SessionRecord, state: ForgeState, messages: Sequence[Message] = ()) -> None: ...

    async def get(self, session_id: SessionId) -> SessionRecord | None: ...

    async def lock(self, session_id: SessionId) -> SessionRecord | None:
        """Take the session's write lock until this transaction ends (and bump its version); the
        first statement of every command or step transaction. None if the session does not exist."""
        ...

    async def list_page(self, *, limit: int, offset: int, status: SessionStatus | None) -> SessionPage: ...

    async def delete(self, session_id: SessionId) -> bool: ...

    async def load_state(self, session_id: SessionId) -> ForgeState: ...

    async def save_state(
        self,
        session_id: SessionId,
        state: ForgeState,
        *,
        at: datetime,
        cancelled: bool | None = None,
        run_lease: RunLease | Literal["keep"] | None = "keep",
    ) -> None:
        """Persist the state and the status columns derived from it (`derive_session_position`);
        `cancelled` as read under the lock (None: read it), and optionally the run lease, in one write."""
        ...

    async def set_cancelled(self, session_id: SessionId, at: datetime) -> None: ...

    async def set_run_lease(self, session_id: SessionId, lease: RunLease | None) -> None: ...

    async def renew_run_lease(self, session_id: SessionId, lease: RunLease) -> bool: ...

    async def refresh_projection(self, session_id: SessionId, state: ForgeState) -> None:
        """Rebuild the session's claim/evidence/edge/... tables from the state."""
        ...

    async def load_messages(self, session_id: SessionId) -> list[Message]: ...

    async def append_messages(self, session_id: SessionId, messages: Sequence[Message]) -> None: ...

    async def replace_messages(self, session_id: SessionId, messages: Sequence[Message]) -> None: ...


class EventLog(Protocol):
    async def append(self, session_id: SessionId, event: SessionEvent, at: datetime) -> StoredEvent: ...

    async def append_all(
        self, session_id: SessionId, events: Sequence[SessionEvent], at: datetime
    ) -> list[StoredEvent]: ...

    async def after(self, session_id: SessionId, after_seq: int, limit: int = 500) -> list[StoredEvent]: ...

    async def last(self, session_id: SessionId) -> StoredEvent | None: ...

    async def last_seq(self, session_id: SessionId) -> EventSeq: ...


class ToolCallLog(Protocol):
    async def record_all(self, session_id: SessionId, entries: Sequence[ToolCallEntry]) -> None: ...

    async def list_for(self, session_id: SessionId) -> list[ToolCallEntry]: ...


class UnitOfWork(Protocol):
    sessions: SessionRepository
    events: EventLog
    tool_calls: ToolCallLog

    async def __aenter__(self) -> UnitOfWork: ...

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Roll back anything not committed."""
        ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...


UnitOfWorkFactory = Callable[[], UnitOfWork]

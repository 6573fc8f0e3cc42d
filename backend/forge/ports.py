"""Ports: the Protocols the agent and services depend on; adapters implement them.

Invariants:
    - Nothing here imports an adapter (SQLAlchemy, an SDK, httpx); adapters import this module.
    - Only `UnitOfWork.commit` makes writes durable, and only the service layer calls it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import Generic, Literal, Protocol, TypeVar, runtime_checkable
from uuid import UUID

from pydantic import BaseModel

from forge.core.accounts.users import LOCAL_USER_ID, ApiToken, ApiTokenId, Role, User, UserId
from forge.core.curation.graph_gaps import HkgNeighbourhood
from forge.core.domain_types import EventSeq, Phase, SessionId, SessionStatus
from forge.core.hkg.structural_grounding import GroundingRequest
from forge.core.hypotheses.memory import HypothesisEpisode
from forge.core.hypotheses.pool import GateStatus, Hypothesis
from forge.core.llm.messages import Message, ModelRequest, ModelResponse, StreamReset, TextDelta, Usage
from forge.core.saga.pattern_history import StoredSighting
from forge.core.saga.patterns import PatternSighting
from forge.core.search.hyperpath_trace import HyperpathTrace
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import RunLease, SessionPage, SessionRecord, StoredEvent, ToolCallEntry
from forge.core.session.records import ResearchHit, SessionDocument


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


@runtime_checkable
class ServerFittedModel(Protocol):
    """A model served by a server it learns before use (reachability, context window, tokenizer).

    `learn_server` is called before the first request of a run (cheap: it learns once); afterwards
    `context_window` is the server's, and `token_margin` (None: the provider's default) scales
    local token estimates so they are not below the server's own count."""

    async def learn_server(self) -> None: ...

    @property
    def token_margin(self) -> float | None: ...


class StreamingLanguageModel(LanguageModel, Protocol):
    """A model that can also stream: text deltas as they arrive, then exactly one final ModelResponse.

    A `StreamReset` between deltas says the text so far is abandoned (the call restarted after a cut);
    the final ModelResponse holds only the text of the attempt that completed."""

    def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | StreamReset | ModelResponse]: ...


OutputT = TypeVar("OutputT", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class StructuredRequest(Generic[OutputT]):
    """Ask for one value of `output`: `instructions` say what to produce and how, `input` is the
    material to work on. `name` names the result (a tool name: letters, digits, `_`), `purpose` is a
    one-sentence description of it for the model."""

    name: str
    purpose: str
    instructions: str
    input: str
    output: type[OutputT]
    max_tokens: int = 4096
    # What a deterministic (offline) generator works from, e.g. the source-domain record; providers
    # that call a real model never send it (the model reads `input`).
    offline_context: object | None = None


@dataclass(frozen=True, slots=True)
class StructuredResult(Generic[OutputT]):
    value: OutputT
    usage: Usage
    attempts: int


@dataclass(frozen=True, slots=True)
class StructuredFailure:
    """No valid value: the model kept answering outside the schema, or cannot produce this output."""

    message: str
    usage: Usage
    attempts: int


class StructuredModel(Protocol):
    """A model that turns a StructuredRequest into a validated value of its output type.

    Invalid output is retried with the validation errors as feedback; what is still invalid after
    the retries is a StructuredFailure (a value, not an exception). Outages raise
    ModelUnavailableError as `LanguageModel.complete` does."""

    @property
    def label(self) -> str: ...

    async def generate(self, request: StructuredRequest[OutputT]) -> StructuredResult[OutputT] | StructuredFailure: ...


class RunObserver(Protocol):
    """What runs report for operations (metrics). Never raises into the run, never changes it."""

    def events_committed(self, provider: str, events: Sequence[StoredEvent]) -> None:
        """A step of a run whose model is of `provider` committed `events` (model calls are among them)."""
        ...

    def run_ended(self, phase: Phase, seconds: float) -> None: ...


class RunEventSink(Protocol):
    """Where a run's events go: this process's broadcaster, or (in a run process of `forge serve`)
    the socket to the parent, whose broadcaster has the followers."""

    def committing(self, session_id: SessionId) -> AbstractContextManager[None]:
        """Around a commit of the session's events and their `published` call."""
        ...

    def published(self, session_id: SessionId, events: Sequence[StoredEvent]) -> None:
        """`events` (ascending seq) were committed; called right after the commit."""
        ...

    def publish_live(self, session_id: SessionId, event: SessionEvent) -> None: ...


class LiveEventRelay(Protocol):
    """Live (never stored) events to the followers in other processes; best effort, in order."""

    def send(self, session_id: SessionId, event: SessionEvent) -> None: ...

    async def flush(self) -> None:
        """Return once everything sent before is out (a step commits after its live events)."""
        ...


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


class EnglishGlossary(Protocol):
    """Word-by-word English glosses of Chinese or Japanese text from a bilingual dictionary: no model,
    no network. A gloss is not a translation; results found by one say so (`rendered_by`)."""

    @property
    def label(self) -> str: ...

    def english_gloss(self, text: str) -> str:
        """The English glosses of `text`'s words ("" for English text or when none is known)."""
        ...


class Embedder(Protocol):
    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...

    async def warm(self) -> None:
        """Load now, off the event loop, whatever the first `embed` would load (a server starting)."""
        ...


class StructuralGrounding(Protocol):
    """The HKG as SEARCH sees it (seed 000 §4.2.2): terms in, a hyperpath trace out. A trace without
    a path (PATH_NOT_FOUND, NO_MATCH, or no usable hypergraph) carries no evidence."""

    async def trace(self, request: GroundingRequest) -> HyperpathTrace: ...


class HkgNeighbourhoodSource(Protocol):
    """The part of the HKG around a query (nodes matched by its terms and their hyperedges), for the
    path navigator; empty when no hypergraph is usable."""

    async def neighbourhood(self, query: str, limit: int) -> HkgNeighbourhood: ...


class TokenCounter(Protocol):
    """Counts the tokens a provider will bill for a text, rounded up by a safety margin (never under)."""

    def count_tokens(self, text: str) -> int: ...


class SessionRepository(Protocol):
    async def add(self, record: SessionRecord, state: ForgeState, messages: Sequence[Message] = ()) -> None: ...

    async def get(self, session_id: SessionId) -> SessionRecord | None: ...

    async def lock(self, session_id: SessionId) -> SessionRecord | None:
        """Take the session's write lock until this transaction ends (and bump its version); the
        first statement of every command or step transaction. None if the session does not exist."""
        ...

    async def list_page(
        self, *, limit: int, offset: int, status: SessionStatus | None, owner: UserId | None = None
    ) -> SessionPage: ...

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


@dataclass(frozen=True, slots=True)
class HypothesisFilter:
    domain_id: str | None = None
    gate_status: GateStatus | None = None
    min_score: float | None = None
    round: int | None = None


@dataclass(frozen=True, slots=True)
class HypothesisPage:
    items: list[Hypothesis]
    total: int  # matching the filter, over all pages


class HypothesisRepository(Protocol):
    async def add_all(self, session_id: SessionId, hypotheses: Sequence[Hypothesis], at: datetime) -> None: ...

    async def page(self, session_id: SessionId, where: HypothesisFilter, *, limit: int, offset: int) -> HypothesisPage:
        """Best first: mapping score descending, then the order they were added."""
        ...

    async def by_ids(self, session_id: SessionId, ids: Sequence[str]) -> dict[str, Hypothesis]:
        """The session's hypotheses among `ids`, by id (ids not in the pool are absent)."""
        ...


class HypothesisMemoryRepository(Protocol):
    """Remembered hypotheses (seed 004), across sessions."""

    async def all(self, *, min_c: float = 0.0, owner: UserId | None = None) -> list[HypothesisEpisode]:
        """Episodes with C ≥ min_c (of `owner` only, when given), oldest first."""
        ...

    async def upsert_all(
        self, episodes: Sequence[HypothesisEpisode], at: datetime, owner: UserId = LOCAL_USER_ID
    ) -> None: ...


@dataclass(frozen=True, slots=True)
class StoredUsage:
    """One user's stored usage: sessions (all, and created since a time), recorded cost (since a
    time, and in all), and the run leases their sessions hold (live or not: the service judges)."""

    sessions_total: int
    sessions_since: int
    spend_since_usd: float
    spend_total_usd: float
    leases: tuple[tuple[SessionId, RunLease], ...]


class AccountRepository(Protocol):
    """Users, API tokens (by digest), login sessions (by digest), session ownership, usage."""

    async def add_user(self, user: User, password_hash: str | None) -> None: ...
    async def user(self, user_id: UserId) -> User | None: ...
    async def user_by_email(self, email: str) -> User | None: ...
    async def password_hash_of(self, user_id: UserId) -> str | None: ...
    async def users(self) -> list[User]: ...
    async def update_user(self, user_id: UserId, *, role: Role | None = None, disabled: bool | None = None) -> bool: ...
    async def set_password_hash(self, user_id: UserId, password_hash: str) -> None: ...
    async def add_token(self, token: ApiToken, digest: str) -> None: ...
    async def token(self, token_id: ApiTokenId) -> ApiToken | None: ...
    async def tokens_of(self, user_id: UserId) -> list[ApiToken]: ...
    async def active_token_by_digest(self, digest: str) -> tuple[ApiToken, User] | None: ...
    async def revoke_token(self, token_id: ApiTokenId, at: datetime) -> None: ...
    async def touch_token(self, token_id: ApiTokenId, at: datetime) -> None: ...
    async def add_login(self, digest: str, user_id: UserId, created_at: datetime, expires_at: datetime) -> None: ...
    async def login_user(self, digest: str, now: datetime) -> User | None: ...
    async def delete_logins(self, *, digest: str | None = None, user_id: UserId | None = None) -> None: ...
    async def delete_expired_logins(self, now: datetime) -> None: ...
    async def session_owner(self, session_id: SessionId) -> UserId | None: ...
    async def usage(self, user_id: UserId, *, sessions_since: datetime, spend_since: datetime) -> StoredUsage: ...
    async def token_counts(self, user_ids: Sequence[UUID]) -> dict[UserId, int]: ...


class PasswordHasher(Protocol):
    """Slow, salted password hashing (argon2id through pwdlib in production)."""

    def hash(self, password: str) -> str: ...
    def verify(self, password: str, password_hash: str) -> bool: ...


class SagaPatternRepository(Protocol):
    """SAGA's Layer 3 pattern sightings (seed 000 §5.3), across sessions."""

    async def recent(self, *, exclude: SessionId, limit: int = 5000) -> list[PatternSighting]:
        """Other sessions' sightings, newest first; each one's place is its session id."""
        ...

    async def newest(self, *, since: datetime | None, limit: int) -> list[StoredSighting]:
        """Every session's sightings stored at or after `since` (None: all), newest first."""
        ...

    async def counts_since(self, since: datetime | None, later: datetime | None) -> tuple[int, int]:
        """How many sightings (every session's) were stored at or after `since`, and at or after
        `later` (None: all)."""
        ...

    async def add_all(
        self, session_id: SessionId, sightings: Sequence[tuple[str, PatternSighting]], at: datetime
    ) -> list[StoredSighting]:
        """Store (hypothesis id, sighting) pairs not yet stored for the session; returns the rows stored."""
        ...


class RunJobQueue(Protocol):
    """The task engine's queue of session runs (FORGE_RUNNER=workers, PostgreSQL only)."""

    async def enqueue_run(self, session_id: SessionId, ticket: str) -> None:
        """Enqueue a run job for the session in this unit of work's transaction (it exists once committed)."""
        ...

    async def has_pending_run(self, session_id: SessionId) -> bool:
        """A run job of the session waits in the queue or is held by a worker (maybe a dead one, not yet retried)."""
        ...


class UnitOfWork(Protocol):
    sessions: SessionRepository
    events: EventLog
    tool_calls: ToolCallLog
    hypotheses: HypothesisRepository
    memory: HypothesisMemoryRepository
    patterns: SagaPatternRepository
    accounts: AccountRepository
    run_jobs: RunJobQueue

    async def __aenter__(self) -> UnitOfWork: ...

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Roll back anything not committed."""
        ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...


UnitOfWorkFactory = Callable[[], UnitOfWork]

"""Response models of session events: one model per event type, a union discriminated on `type`.

Invariants:
    - Every `EventType` has exactly one event model here (`EVENT_MODELS`), whose `data` describes the
      payload exactly as `core.session_events` builds it; payload models forbid unknown fields.
    - `GET /sessions/{id}/events` validates every event through `SessionEventOut`, so the log and the
      documented contract cannot drift apart silently; the SSE stream carries the same `data`
      (as the message's `data`, with `event` = `type` and `id` = `id`).

Design decisions:
    - The union is a named type alias, so OpenAPI has one `SessionEventOut` component (a `oneOf`
      with a `type` discriminator) that a generated client can narrow on.
    - Error codes of run-level errors that are not rule codes are listed in `RunErrorCode`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from typing_extensions import TypeAliasType

from forge.api.schemas.engine_names import EngineStage
from forge.api.schemas.review_payloads import (
    BuildReviewData,
    ClaimsReviewData,
    DecomposeReviewData,
    ExploreReviewData,
    Payload,
    VerdictsReviewData,
)
from forge.api.schemas.saga_events import SagaCheckpointData, SagaDirectiveData, SagaFindingData
from forge.core.domain_types import Phase, ReviewType
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.events import EventType
from forge.core.session.record import StoredEvent

RunErrorCode = Literal[
    "CANCELLED",
    "RUN_FAILED",
    "RUN_INCOMPLETE",
    "MAX_ITERATIONS",
    "CONTEXT_OVERFLOW",
    "MODEL_ERROR",
    "MODEL_LOOPING",
    "MODEL_CALLED_NO_TOOL",
    "MODEL_INVALID_CALLS",
    "SERVER_SHUTDOWN",
    "SESSION_DELETED",
    "EVENTS_UNAVAILABLE",
    "RUN_NOT_RUNNING",
]


class ToolCallData(Payload):
    """The agent called a tool; `input_preview` is its arguments as JSON, shortened."""

    tool: str
    input_preview: str


class SourceRef(Payload):
    """A research result: where it is (a URL or a corpus reference) and its title."""

    source: str
    title: str


class ToolResultData(Payload):
    """A tool call succeeded; `summary` says what it did, `sources` what a research call found."""

    tool: str
    summary: str
    sources: list[SourceRef] = Field(default_factory=list)  # absent in logs written before it existed


class ToolErrorData(Payload):
    """A tool call was refused by a rule or failed; the agent sees the same message and may retry."""

    tool: str
    error_code: ErrorCode
    message: str


class PhaseChangeData(Payload):
    """A phase starts; `round` counts from 0. `resumed`: the phase's run restarts after an
    interruption (a crash, an error) — the same phase, not a new one."""

    phase: Phase
    round: int
    resumed: bool = False  # absent in events logged before the field existed


class CurationUnitData(Payload):
    """One unit of the conversation (an assistant message and the user messages after it) and what
    the context curator did with it for this call: sent in `full`, as a `digest` (an earlier phase's
    brief: marker, hard constraints, reviewer decisions) or `dropped`, and why."""

    key: str
    kind: Literal["head", "exchange", "phase_boundary", "current_phase"]
    phase: str
    tools: list[str]
    tokens_full: int
    tokens_sent: int
    outcome: Literal["full", "digest", "dropped"]
    reason: Literal["must_keep", "selected", "stop_rule", "over_budget", "deferred"]
    relevance: float
    redundancy: float


class CurationData(Payload):
    """What the context curator put into the call: curated (`tokens_sent`) vs available tokens,
    the budget, whether the shaped-utility stop rule ended the selection, and each unit's provenance
    (the latest 60 units; the counts cover all)."""

    tokens_available: int
    tokens_sent: int
    must_keep_tokens: int
    optional_tokens: int
    budget_tokens: int
    carry_budget_tokens: int
    stop_rule_triggered: bool
    fell_back: bool
    units_full: int
    units_digest: int
    units_dropped: int
    units: list[CurationUnitData]


class ContextUsageData(Payload):
    """After each model call: the context window's use, the call's cost, and the phase's and the
    session's running totals (costs in USD, rounded to 6 places; `usage_percentage` to 2)."""

    tokens_used: int
    tokens_limit: int
    tokens_remaining: int
    usage_percentage: float
    model: str
    cost_usd: float
    phase: Phase
    phase_cost_usd: float
    phase_tokens: int
    session_cost_usd: float
    session_tokens: int
    cache_read_tokens: int
    cache_creation_tokens: int
    curation: CurationData | None = None  # absent for engine-stage calls and in events logged before curation
    price_known: bool = (
        True  # False: no price for `model` (genai-prices, FORGE_PRICES_FILE), cost unknown; absent before
    )


class DoneData(Payload):
    """The run paused: waiting for a review (`awaiting_input`), finished, or stopped on an error."""

    error: bool
    awaiting_input: bool


class ErrorData(Payload):
    """A run-level error or notice; `recoverable` means POST /run (which the app sends when it reconnects) resumes the run."""

    code: ErrorCode | RunErrorCode
    message: str
    severity: Literal["error", "warning", "info"]
    recoverable: bool


class KnowledgeDocumentData(Payload):
    """The finished knowledge document (CRYSTALLIZE), as Markdown."""

    markdown: str


class UserInputData(Payload):
    """A review was accepted; `summary` says what it changed ("autopilot: ..." when the autopilot chose it)."""

    type: ReviewType
    summary: str


class HeartbeatData(Payload):
    """Empty: a heartbeat carries no data."""


class AgentTextDeltaData(Payload):
    """A piece of the reply the model is writing, while it streams (coalesced)."""

    text: str


class AgentTextDiscardedData(Payload):
    """The draft shown so far is abandoned (the model's stream was cut and the call restarts)."""

    reason: str


class EngineProgressData(Payload):
    """How far an engine stage is: model calls done of total (failed ones included in done)."""

    stage: EngineStage
    done: int = Field(ge=0)
    total: int = Field(ge=0)
    failed: int = Field(ge=0)


class EngineStageData(Payload):
    """An engine stage finished: what it produced, in words and counts."""

    stage: EngineStage
    summary: str
    counts: dict[str, int]


class InjectionFindingData(Payload):
    source: str = Field(
        description="Where the text came from: `problem`, `claim 1 evidence …`, `document:<source>`, `research:<source>`, `insight:<n>`."
    )
    pattern: str = Field(description="Which injection pattern matched, e.g. `ignore_instructions`.")
    excerpt: str = Field(description="The normalised text around the match.")


class VerifyInjectionData(Payload):
    """Text that reached the verifier for a claim looks like a prompt injection; its verdict is escalated."""

    claim_id: str
    claim_index: int
    findings: list[InjectionFindingData]


class ResearchWarningData(Payload):
    """Research did not go as configured (a search API failed; the local corpus answered instead)."""

    provider: str
    message: str


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int = Field(description="The event's per-session sequence number (the SSE id; resume after it).")
    created_at: datetime


class AgentTextEvent(_Event):
    """Text the agent wrote (its reasoning and summaries between tool calls)."""

    type: Literal["agent_text"]
    data: str


class ToolCallEvent(_Event):
    """The agent called a tool."""

    type: Literal["tool_call"]
    data: ToolCallData


class ToolErrorEvent(_Event):
    """A tool call was refused or failed."""

    type: Literal["tool_error"]
    data: ToolErrorData


class ToolResultEvent(_Event):
    """A tool call succeeded."""

    type: Literal["tool_result"]
    data: ToolResultData


class ReviewDecomposeEvent(_Event):
    """The session waits for the decompose review (answer with a `decompose_review` user input)."""

    type: Literal["review_decompose"]
    data: DecomposeReviewData


class ReviewExploreEvent(_Event):
    """The session waits for the explore review (answer with an `explore_review` user input)."""

    type: Literal["review_explore"]
    data: ExploreReviewData


class ReviewClaimsEvent(_Event):
    """The session waits for the claims review (answer with a `claims_review` user input)."""

    type: Literal["review_claims"]
    data: ClaimsReviewData


class ReviewVerdictsEvent(_Event):
    """The session waits for verdicts on the round's claims (answer with a `verdicts` user input)."""

    type: Literal["review_verdicts"]
    data: VerdictsReviewData


class ReviewBuildEvent(_Event):
    """The session waits for the build decision (answer with a `build_decision` user input)."""

    type: Literal["review_build"]
    data: BuildReviewData


class KnowledgeDocumentEvent(_Event):
    """The knowledge document is ready; the session is crystallized."""

    type: Literal["knowledge_document"]
    data: KnowledgeDocumentData


class PhaseChangeEvent(_Event):
    """A phase starts."""

    type: Literal["phase_change"]
    data: PhaseChangeData


class ContextUsageEvent(_Event):
    """Tokens and cost of one model call."""

    type: Literal["context_usage"]
    data: ContextUsageData


class DoneEvent(_Event):
    """The run paused or ended; the SSE stream closes after it."""

    type: Literal["done"]
    data: DoneData


class EngineStageEvent(_Event):
    """An engine stage (the problem frame, BISO over the chosen source domains, SEARCH, Solve) finished."""

    type: Literal["engine_stage"]
    data: EngineStageData


class SagaFindingEvent(_Event):
    """The supervisor (SAGA) found an anomaly."""

    type: Literal["saga_finding"]
    data: SagaFindingData


class SagaDirectiveEvent(_Event):
    """The supervisor told the fast path to change course."""

    type: Literal["saga_directive"]
    data: SagaDirectiveData


class SagaCheckpointEvent(_Event):
    """An Answer Engine checkpoint (CP-1..7) audited the session."""

    type: Literal["saga_checkpoint"]
    data: SagaCheckpointData


class VerifyInjectionDetectedEvent(_Event):
    """VERIFY's prompt-injection scan flagged text about a claim (seed 000 §4.3.3)."""

    type: Literal["verify_injection_detected"]
    data: VerifyInjectionData


class ResearchWarningEvent(_Event):
    """A research provider failed and research degraded (to the local corpus, or to nothing found)."""

    type: Literal["research_warning"]
    data: ResearchWarningData


class ErrorEvent(_Event):
    """A run-level error (or the notice that the session was cancelled)."""

    type: Literal["error"]
    data: ErrorData


class UserInputEvent(_Event):
    """A review was accepted and applied."""

    type: Literal["user_input"]
    data: UserInputData


class HeartbeatEvent(_Event):
    """Keeps an idle SSE stream open; only on the stream, never in the log. Its `id` repeats the last
    event's id, so resuming from it loses nothing."""

    type: Literal["heartbeat"]
    data: HeartbeatData


class _LiveEvent(BaseModel):
    """Only on the SSE stream, never in the log, and without an SSE id (resuming misses nothing)."""

    model_config = ConfigDict(extra="forbid")


class AgentTextDeltaEvent(_LiveEvent):
    """Live text of the reply being written; the step's stored `agent_text` supersedes the draft."""

    type: Literal["agent_text_delta"]
    data: AgentTextDeltaData


class AgentTextDiscardedEvent(_LiveEvent):
    """Drop the live draft: the model's stream was cut and the call restarts."""

    type: Literal["agent_text_discarded"]
    data: AgentTextDiscardedData


class EngineProgressEvent(_LiveEvent):
    """Progress of an engine stage's model calls (draw it as a bar); the stage's stored
    `engine_stage` event reports the result."""

    type: Literal["engine_progress"]
    data: EngineProgressData


EVENT_MODELS: dict[EventType, type[_Event] | type[_LiveEvent]] = {
    EventType.AGENT_TEXT: AgentTextEvent,
    EventType.TOOL_CALL: ToolCallEvent,
    EventType.TOOL_ERROR: ToolErrorEvent,
    EventType.TOOL_RESULT: ToolResultEvent,
    EventType.REVIEW_DECOMPOSE: ReviewDecomposeEvent,
    EventType.REVIEW_EXPLORE: ReviewExploreEvent,
    EventType.REVIEW_CLAIMS: ReviewClaimsEvent,
    EventType.REVIEW_VERDICTS: ReviewVerdictsEvent,
    EventType.REVIEW_BUILD: ReviewBuildEvent,
    EventType.KNOWLEDGE_DOCUMENT: KnowledgeDocumentEvent,
    EventType.PHASE_CHANGE: PhaseChangeEvent,
    EventType.CONTEXT_USAGE: ContextUsageEvent,
    EventType.DONE: DoneEvent,
    EventType.ERROR: ErrorEvent,
    EventType.USER_INPUT: UserInputEvent,
    EventType.HEARTBEAT: HeartbeatEvent,
    EventType.AGENT_TEXT_DELTA: AgentTextDeltaEvent,
    EventType.AGENT_TEXT_DISCARDED: AgentTextDiscardedEvent,
    EventType.ENGINE_PROGRESS: EngineProgressEvent,
    EventType.ENGINE_STAGE: EngineStageEvent,
    EventType.SAGA_FINDING: SagaFindingEvent,
    EventType.SAGA_DIRECTIVE: SagaDirectiveEvent,
    EventType.SAGA_CHECKPOINT: SagaCheckpointEvent,
    EventType.VERIFY_INJECTION_DETECTED: VerifyInjectionDetectedEvent,
    EventType.RESEARCH_WARNING: ResearchWarningEvent,
}

SessionEventOut = TypeAliasType(
    "SessionEventOut",
    Annotated[
        Union[  # noqa: UP007 — the members are listed one per line; `|` would need a parenthesised chain
            AgentTextEvent,
            ToolCallEvent,
            ToolErrorEvent,
            ToolResultEvent,
            ReviewDecomposeEvent,
            ReviewExploreEvent,
            ReviewClaimsEvent,
            ReviewVerdictsEvent,
            ReviewBuildEvent,
            KnowledgeDocumentEvent,
            PhaseChangeEvent,
            ContextUsageEvent,
            DoneEvent,
            ErrorEvent,
            UserInputEvent,
            HeartbeatEvent,
            AgentTextDeltaEvent,
            AgentTextDiscardedEvent,
            EngineProgressEvent,
            EngineStageEvent,
            SagaFindingEvent,
            SagaDirectiveEvent,
            SagaCheckpointEvent,
            VerifyInjectionDetectedEvent,
            ResearchWarningEvent,
        ],
        Field(discriminator="type"),
    ],
)
SESSION_EVENT: TypeAdapter[SessionEventOut] = TypeAdapter(SessionEventOut)


def event_out(event: StoredEvent) -> SessionEventOut:
    """The stored event as its typed model; a payload that does not match its model is a bug (raises)."""
    return SESSION_EVENT.validate_python(
        {"id": event.seq, "type": event.type.value, "data": event.data, "created_at": event.created_at}
    )

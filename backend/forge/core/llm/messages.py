"""The typed conversation exchanged with a LanguageModel, independent of any provider's SDK.

Invariants:
    - A conversation alternates user and assistant messages; tool results travel in a user message
      right after the assistant message that asked for them (the Anthropic convention, which the
      OpenAI-compatible adapter maps to its own roles).
    - A ToolCall whose arguments could not be parsed carries `parse_error` (quoting the start of the
      raw text), so the loop returns a tool error to the model instead of dropping the call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from forge.core.domain_types import ToolCallId
from forge.core.session.records import ResearchHit


class Role(str, Enum):
    USER = "user"
    ASSISTANT = "assistant"


class StopReason(str, Enum):
    END_TURN = "end_turn"
    TOOL_USE = "tool_use"
    MAX_TOKENS = "max_tokens"
    PAUSE_TURN = "pause_turn"


@dataclass(frozen=True, slots=True)
class TextPart:
    text: str


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: ToolCallId
    name: str
    arguments: Mapping[str, Any]
    parse_error: str | None = None


@dataclass(frozen=True, slots=True)
class ToolResult:
    """What a tool call returned. `citable` are the research hits behind it, which a provider may
    offer the model for native citation (Anthropic `search_result` blocks); `content` names them too,
    so a provider that cannot cite natively loses nothing."""

    call_id: ToolCallId
    content: str
    is_error: bool = False
    citable: tuple[ResearchHit, ...] = ()


@dataclass(frozen=True, slots=True)
class ProviderPart:
    """A provider-specific block kept verbatim in the conversation (e.g. Anthropic's `server_tool_use`
    and `web_search_tool_result`). Sent back only to the provider named here; others skip it.

    `shown` is what a person may read of it (a thinking block's displayed text: the model's notes
    between tool calls); it is never sent, the payload goes back unchanged."""

    provider: str
    payload: Mapping[str, Any]
    shown: str = ""


MessagePart = TextPart | ToolCall | ToolResult | ProviderPart


@dataclass(frozen=True, slots=True)
class Message:
    role: Role
    parts: tuple[MessagePart, ...]

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.parts if isinstance(p, TextPart))

    @property
    def shown_text(self) -> str:
        """The text and the provider blocks' shown text (notes between tool calls), in order, for the
        activity feed; `text` stays the model's answer alone."""
        pieces = [
            p.text if isinstance(p, TextPart) else p.shown for p in self.parts if isinstance(p, TextPart | ProviderPart)
        ]
        return "\n\n".join(piece.strip() for piece in pieces if piece.strip())

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        return tuple(p for p in self.parts if isinstance(p, ToolCall))

    @property
    def tool_results(self) -> tuple[ToolResult, ...]:
        return tuple(p for p in self.parts if isinstance(p, ToolResult))


@dataclass(frozen=True, slots=True)
class ToolDefinition:
    name: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0
    web_searches: int = 0  # server-side web searches run (billed per search, not per token)
    web_fetches: int = 0  # server-side web fetches run (billed by the tokens they bring, no fee)
    # A sum's calls, one Usage each (empty: this is one call's): a price tier set by a call's prompt
    # length applies per call, never to a sum of calls (`pricing.cost_of`).
    calls: tuple[Usage, ...] = field(default=(), compare=False, repr=False)

    @property
    def total(self) -> int:
        return self.input_tokens + self.output_tokens + self.cache_creation_tokens + self.cache_read_tokens

    def _as_calls(self) -> tuple[Usage, ...]:
        return self.calls or ((self,) if self.total or self.web_searches or self.web_fetches else ())

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_creation_tokens + other.cache_creation_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.web_searches + other.web_searches,
            self.web_fetches + other.web_fetches,
            (*self._as_calls(), *other._as_calls()),
        )


@dataclass(frozen=True, slots=True)
class ModelRequest:
    system: str
    messages: tuple[Message, ...]
    tools: tuple[ToolDefinition, ...]
    max_tokens: int = 4096
    server_research: bool = False  # the provider may run its own search tool (e.g. web search) this turn
    thinking_budget: int = 0  # tokens the model may think before answering, where only a budget is accepted; 0: none
    required_tool: str | None = None  # the reply must be a call of this tool (structured output)
    # What the call is for (a phase name, or `engine`): the model's effort level is the deployment's
    # level for this scope (`core.llm.effort`), where the model takes one; "" leaves the model's default.
    effort_scope: str = ""
    # The reply must be one JSON value of this schema (structured outputs); `output_name` names it.
    output_schema: Mapping[str, Any] | None = None
    output_name: str = ""
    # The first `cache_anchor` messages are a prefix the next calls will send unchanged (the context
    # curator's settled part: the problem and the compacted finished phases); a provider with a
    # prompt cache marks its end, so the call after a phase change reads it however far back it is.
    cache_anchor: int = 0
    # Where the calls before this one had their `cache_anchor`, when this call's compaction moved it on
    # (0: nowhere else): marked too, so the call reads what they wrote beyond the cache's look-back.
    previous_anchor: int = 0


@dataclass(frozen=True, slots=True)
class ServerResearch:
    """Research a provider ran on its side during the turn (query and what came back)."""

    query: str
    hits: tuple[ResearchHit, ...]
    tool: str = "web_search"  # the server tool that ran it: web_search, or web_fetch (query: the url)


@dataclass(frozen=True, slots=True)
class CitedQuote:
    """Text the model's reply cited from a web page a server search returned (this turn or earlier)."""

    url: str
    text: str


@dataclass(frozen=True, slots=True)
class TextDelta:
    """A piece of assistant text, streamed as it arrives."""

    text: str


@dataclass(frozen=True, slots=True)
class StreamReset:
    """The text streamed so far in this call is abandoned (the stream was cut and the call is retried
    from the start): whoever shows deltas discards its draft. Only the final ModelResponse is kept."""

    reason: str


@dataclass(frozen=True, slots=True)
class ModelResponse:
    message: Message
    stop_reason: StopReason
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    server_research: tuple[ServerResearch, ...] = ()
    cited_quotes: tuple[CitedQuote, ...] = ()  # what the reply's text cited from web search results


def user_text(text: str) -> Message:
    return Message(Role.USER, (TextPart(text),))

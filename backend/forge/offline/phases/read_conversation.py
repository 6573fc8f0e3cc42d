"""ConversationView: what the offline model can read from a ModelRequest, and nothing more.

Invariants: built only from `request.messages`; phase and round come from the last `[forge phase=…
round=…]` marker, the context from its ```json block, outcomes from later tool calls and results
(non-JSON results become {"raw": text}); "Not done yet (CODE)" messages are nudges that restart retry
budgets; `history` holds every outcome of the conversation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from forge.core.llm.messages import Message, Role, ToolCall
from forge.core.rules.verdicts import ErrorCode

MARKER = re.compile(r"^\[forge phase=([a-z_]+) round=(\d+)\]")
CONTEXT_BLOCK = re.compile(r"```json\s*\n(.*?)\n```", re.DOTALL)
NUDGE = re.compile(r"^Not done yet \(([A-Z_]+)\):\s*(.*)", re.DOTALL)
IDENTITY_FIELDS = ("query", "source_domain", "claim_index", "thesis")


def call_identity(name: str, arguments: Mapping[str, Any]) -> str:
    """What makes two calls "the same work": the tool plus its distinguishing argument, if any."""
    for field_name in IDENTITY_FIELDS:
        if field_name in arguments:
            return f"{name}:{arguments[field_name]}"
    return name


def error_code_of(code: object) -> ErrorCode | None:
    if not code:
        return None
    try:
        return ErrorCode(str(code))
    except ValueError:
        return ErrorCode.TOOL_FAILED


@dataclass(frozen=True, slots=True)
class CallOutcome:
    call: ToolCall
    payload: Mapping[str, Any]
    answered: bool

    @property
    def error_code(self) -> ErrorCode | None:
        """The agent's ErrorCode of an error result (the shared protocol); TOOL_FAILED for a code it does
        not define."""
        return error_code_of(self.payload.get("error_code"))

    @property
    def ok(self) -> bool:
        return self.answered and self.error_code is None

    @property
    def identity(self) -> str:
        return call_identity(self.call.name, self.call.arguments)


@dataclass(frozen=True, slots=True)
class Nudge:
    code: ErrorCode | None
    message: str
    after_outcomes: int


@dataclass(frozen=True, slots=True)
class ConversationView:
    phase: str | None
    round: int
    context: Mapping[str, Any]
    outcomes: tuple[CallOutcome, ...]
    nudges: tuple[Nudge, ...]
    history: tuple[CallOutcome, ...]
    contexts: tuple[Mapping[str, Any], ...]
    assistant_turns: int

    @property
    def problem(self) -> str:
        return str(self.context.get("problem", ""))

    def done(self, identity: str) -> CallOutcome | None:
        """The latest successful outcome of that work in this phase."""
        return next((o for o in reversed(self.outcomes) if o.ok and o.identity == identity), None)

    def attempts(self, identity: str) -> list[CallOutcome]:
        """Outcomes of that work since the last nudge (the retry budget restarts after a nudge)."""
        start = self.nudges[-1].after_outcomes if self.nudges else 0
        return [o for o in self.outcomes[start:] if o.identity == identity]

    def research(self, query: str) -> CallOutcome | None:
        return self.done(call_identity("research", {"query": query}))

    def position(self, outcome: CallOutcome) -> int:
        return next(i for i, o in enumerate(self.outcomes) if o is outcome)

    def latest_call(self, name: str) -> CallOutcome | None:
        """The latest successful call of `name` anywhere in the conversation."""
        return next((o for o in reversed(self.history) if o.ok and o.call.name == name), None)

    def latest_context_with(self, key: str) -> Mapping[str, Any] | None:
        return next((c for c in reversed(self.contexts) if key in c), None)


def _parse_result(content: str) -> dict[str, Any]:
    try:
        parsed = json.loads(content)
    except ValueError:
        return {"raw": content}
    return parsed if isinstance(parsed, dict) else {"raw": parsed}


def _parse_context(text: str) -> dict[str, Any]:
    block = CONTEXT_BLOCK.search(text)
    if not block:
        return {}
    parsed = _parse_result(block.group(1))
    return {} if "raw" in parsed else parsed


def _outcomes(messages: Sequence[Message]) -> list[tuple[int, CallOutcome]]:
    """(message index of the call, outcome) for every tool call, matched to its result by id."""
    results = {r.call_id: r for m in messages if m.role == Role.USER for r in m.tool_results}
    found = []
    for index, message in enumerate(messages):
        for call in message.tool_calls if message.role == Role.ASSISTANT else ():
            result = results.get(call.id)
            payload = _parse_result(result.content) if result else {}
            if result and result.is_error and "error_code" not in payload:
                payload = {"error_code": ErrorCode.TOOL_FAILED.value, **payload}
            found.append((index, CallOutcome(call, payload, result is not None)))
    return found


def _nudges(messages: Sequence[Message], start: int, outcomes: list[tuple[int, CallOutcome]]) -> list[Nudge]:
    nudges = []
    for index in range(start + 1, len(messages)):
        message = messages[index]
        match = NUDGE.match(message.text) if message.role == Role.USER else None
        if match:
            before = sum(1 for i, _ in outcomes if start < i < index)
            nudges.append(Nudge(error_code_of(match.group(1)), match.group(2).strip(), before))
    return nudges


def read_conversation(messages: Sequence[Message]) -> ConversationView:
    markers = [(i, match) for i, m in enumerate(messages) if m.role == Role.USER and (match := MARKER.match(m.text))]
    contexts = tuple(_parse_context(messages[i].text) for i, _ in markers)
    everything = _outcomes(messages)
    turns = sum(1 for m in messages if m.role == Role.ASSISTANT)
    if not markers:
        return ConversationView(None, 1, {}, (), (), tuple(o for _, o in everything), contexts, turns)
    start, match = markers[-1]
    mine = [(i, o) for i, o in everything if i > start]
    return ConversationView(
        phase=match.group(1),
        round=int(match.group(2)),
        context=contexts[-1],
        outcomes=tuple(o for _, o in mine),
        nudges=tuple(_nudges(messages, start, mine)),
        history=tuple(o for _, o in everything),
        contexts=contexts,
        assistant_turns=turns,
    )

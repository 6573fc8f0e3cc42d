"""The context of one model call, curated: which parts of the conversation it carries, and why.

A conversation is cut into units: the head (everything before the first assistant message — the
problem's first brief), then one unit per assistant message with the user messages that follow it
(its tool results, a nudge, or the next phase's brief). Dropping whole units keeps the roles
alternating and every tool_use next to its tool_result.

Invariants:
    - Must-keep, always sent in full: the system prompt and tools (counted by the caller as
      `fixed_tokens`), the head, the current phase's work (every unit from the one holding the
      first brief with the current marker to the end: its brief carries the hard constraints and
      the reviewer's decisions for this phase) and the last unit.
    - An earlier phase's brief is never dropped: its unit is sent at least as a digest — the
      marker line, its HARD CONSTRAINTS and YOUR REVIEWER DECIDED paragraphs, the reply before it
      cut to DIGEST_REPLY_CHARS — and in full when the listwise selection picks it.
    - Every other unit of an earlier phase is sent in full or not at all, as `select_listwise`
      decides for the current brief under the budget; the order of the conversation is kept.
    - Pairing is checked on the result (`pairing_intact`); should it ever fail, the call gets the
      whole conversation and the summary says so (`fell_back`).
    - Every unit has one provenance entry (kind, phase, message range, tools, tokens, decision and
      reason). Tokens are the caller's counter over `message_text` plus MESSAGE_OVERHEAD.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from forge.core.curation.listwise_selection import Candidate, CurationBudget, Decision, Reason, select_listwise
from forge.core.model_messages import Message, ProviderPart, Role, TextPart, ToolCall, ToolResult

MESSAGE_OVERHEAD = 4
DIGEST_REPLY_CHARS = 600
BRIEF_MARKER = re.compile(r"^\[forge phase=([a-z_]+) round=(\d+)\]")
KEPT_PARAGRAPHS = ("HARD CONSTRAINTS", "YOUR REVIEWER DECIDED")
DIGEST_NOTE = "[Brief of an earlier phase, shortened by the context curator: the current brief supersedes its context.]"

TokenCount = Callable[[str], int]


class UnitKind(StrEnum):
    HEAD = "head"
    EXCHANGE = "exchange"
    PHASE_BOUNDARY = "phase_boundary"
    CURRENT_PHASE = "current_phase"


class Outcome(StrEnum):
    FULL = "full"
    DIGEST = "digest"
    DROPPED = "dropped"


@dataclass(frozen=True, slots=True)
class UnitProvenance:
    key: str
    kind: UnitKind
    phase: str
    first_message: int
    last_message: int
    tools: tuple[str, ...]
    tokens_full: int
    tokens_sent: int
    outcome: Outcome
    reason: Reason
    relevance: float
    redundancy: float


@dataclass(frozen=True, slots=True)
class CurationSummary:
    tokens_available: int
    tokens_sent: int
    must_keep_tokens: int
    optional_tokens: int
    room: int
    budget: CurationBudget
    stop_rule_triggered: bool
    fell_back: bool
    units: tuple[UnitProvenance, ...]

    def count(self, outcome: Outcome) -> int:
        return sum(1 for u in self.units if u.outcome == outcome)


@dataclass(frozen=True, slots=True)
class CuratedContext:
    messages: tuple[Message, ...]
    summary: CurationSummary


@dataclass(frozen=True, slots=True)
class _Unit:
    start: int
    messages: tuple[Message, ...]
    kind: UnitKind
    phase: str

    @property
    def key(self) -> str:
        return f"m{self.start}-{self.start + len(self.messages) - 1}"


def message_text(message: Message) -> str:
    """What a message costs and is about: its text, tool calls (name and arguments), results, provider blocks."""
    texts: list[str] = []
    for part in message.parts:
        if isinstance(part, TextPart):
            texts.append(part.text)
        elif isinstance(part, ToolCall):
            texts.append(f"{part.name} {json.dumps(dict(part.arguments), ensure_ascii=False, default=str)}")
        elif isinstance(part, ToolResult):
            texts.append(part.content)
        elif isinstance(part, ProviderPart):
            texts.append(json.dumps(dict(part.payload), ensure_ascii=False, default=str))
    return "\n".join(texts)


def _is_brief(message: Message) -> bool:
    return message.role == Role.USER and BRIEF_MARKER.match(message.text) is not None


def _units(messages: Sequence[Message], current_marker: str) -> list[_Unit]:
    starts = [0] + [i for i, m in enumerate(messages) if m.role == Role.ASSISTANT and i > 0]
    current = next((i for i, m in enumerate(messages) if _is_brief(m) and m.text.startswith(current_marker)), 0)
    units, phase = [], ""
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(messages)
        chunk = tuple(messages[start:end])
        brief = next((m for m in chunk if _is_brief(m)), None)
        if brief is not None:
            match = BRIEF_MARKER.match(brief.text)
            phase = f"{match.group(1)}/{match.group(2)}" if match else phase
        if start == 0:
            kind = UnitKind.HEAD
        elif end > current or n == len(starts) - 1:
            kind = UnitKind.CURRENT_PHASE
        else:
            kind = UnitKind.PHASE_BOUNDARY if brief is not None else UnitKind.EXCHANGE
        units.append(_Unit(start, chunk, kind, phase))
    return units


def _digest_message(message: Message) -> Message:
    if _is_brief(message):
        lines = message.text.split("\n", 1)
        paragraphs = lines[1].split("\n\n") if len(lines) > 1 else []
        kept = [p for p in paragraphs if p.startswith(KEPT_PARAGRAPHS)]
        return Message(Role.USER, (TextPart("\n\n".join([lines[0] + "\n" + DIGEST_NOTE, *kept])),))
    if message.role != Role.ASSISTANT or len(message.text) <= DIGEST_REPLY_CHARS:
        return message
    cut = f"{message.text[:DIGEST_REPLY_CHARS]} … [shortened by the context curator]"
    return Message(message.role, (TextPart(cut), *(p for p in message.parts if not isinstance(p, TextPart))))


def pairing_intact(messages: Sequence[Message]) -> bool:
    """Roles alternate (starting with the user) and every tool call is answered in the very next message
    (the last message's calls excepted), every tool result answers a call of the message before it."""
    for i, m in enumerate(messages):
        if m.role != (Role.USER if i % 2 == 0 else Role.ASSISTANT):
            return False
        calls = {c.id for c in m.tool_calls}
        answered = {r.call_id for r in messages[i + 1].tool_results} if i + 1 < len(messages) else calls
        asked = {c.id for c in messages[i - 1].tool_calls} if i > 0 else set()
        if not calls <= answered or not {r.call_id for r in m.tool_results} <= asked:
            return False
    return True


class _Counter:
    def __init__(self, count: TokenCount) -> None:
        self._count = count

    def message(self, message: Message) -> int:
        return self._count(message_text(message)) + MESSAGE_OVERHEAD

    def unit(self, messages: Sequence[Message]) -> int:
        return sum(self.message(m) for m in messages)


def _candidates(units: Sequence[_Unit], digests: dict[str, tuple[Message, ...]], counter: _Counter) -> list[Candidate]:
    found = []
    for u in units:
        full, text = counter.unit(u.messages), "\n".join(message_text(m) for m in u.messages)
        if u.key in digests:
            digest = counter.unit(digests[u.key])
            found.append(Candidate(f"{u.key}:digest", "", digest, must_keep=True))
            found.append(Candidate(u.key, text, max(0, full - digest)))
        else:
            found.append(Candidate(u.key, text, full, must_keep=u.kind in (UnitKind.HEAD, UnitKind.CURRENT_PHASE)))
    return found


def _provenance(u: _Unit, decision: Decision, full: int, digest: tuple[Message, ...] | None, counter: _Counter) -> UnitProvenance:
    if decision.kept:
        outcome, sent = Outcome.FULL, full
    elif digest is not None:
        outcome, sent = Outcome.DIGEST, counter.unit(digest)
    else:
        outcome, sent = Outcome.DROPPED, 0
    tools = tuple(c.name for m in u.messages for c in m.tool_calls)
    end = u.start + len(u.messages) - 1
    return UnitProvenance(
        u.key, u.kind, u.phase, u.start, end, tools, full, sent, outcome, decision.reason,
        decision.relevance, decision.redundancy,
    )  # fmt: skip


def curate_conversation(
    messages: Sequence[Message],
    *,
    current_marker: str,
    fixed_tokens: int,
    count: TokenCount,
    budget: CurationBudget,
) -> CuratedContext:
    """The messages this call carries (see the module invariants) and the provenance of each unit."""
    counter = _Counter(count)
    units = _units(messages, current_marker)
    digests = {u.key: tuple(_digest_message(m) for m in u.messages) for u in units if u.kind == UnitKind.PHASE_BOUNDARY}
    query = next((m.text for m in messages if _is_brief(m) and m.text.startswith(current_marker)), "")
    fixed = Candidate("system+tools", "", fixed_tokens, must_keep=True)
    selection = select_listwise(query, [fixed, *_candidates(units, digests, counter)], budget)
    by_key = {d.key: d for d in selection.decisions}
    sent: list[Message] = []
    provenance = []
    for u in units:
        decision, full = by_key[u.key], counter.unit(u.messages)
        digest = digests.get(u.key)
        provenance.append(_provenance(u, decision, full, digest, counter))
        if decision.kept:
            sent += u.messages
        elif digest is not None:
            sent += digest
    available = fixed_tokens + sum(p.tokens_full for p in provenance)
    fell_back = not pairing_intact(sent)
    chosen = tuple(messages) if fell_back else tuple(sent)
    tokens_sent = available if fell_back else fixed_tokens + sum(p.tokens_sent for p in provenance)
    summary = CurationSummary(
        available, tokens_sent, selection.must_keep_tokens, selection.optional_tokens, selection.room, budget,
        selection.stop_rule_triggered, fell_back, tuple(provenance),
    )  # fmt: skip
    return CuratedContext(chosen, summary)


PROVENANCE_SHOWN = 60  # units listed in an event; the counts cover all of them


def curation_payload(summary: CurationSummary) -> dict[str, object]:
    """The `curation` field of a context_usage event: the totals, then each unit's provenance."""
    units = summary.units
    return {
        "tokens_available": summary.tokens_available,
        "tokens_sent": summary.tokens_sent,
        "must_keep_tokens": summary.must_keep_tokens,
        "optional_tokens": summary.optional_tokens,
        "budget_tokens": summary.budget.context_tokens,
        "carry_budget_tokens": summary.budget.carry_tokens,
        "stop_rule_triggered": summary.stop_rule_triggered,
        "fell_back": summary.fell_back,
        "units_full": summary.count(Outcome.FULL),
        "units_digest": summary.count(Outcome.DIGEST),
        "units_dropped": summary.count(Outcome.DROPPED),
        "units": [
            {
                "key": u.key,
                "kind": u.kind.value,
                "phase": u.phase,
                "tools": list(u.tools),
                "tokens_full": u.tokens_full,
                "tokens_sent": u.tokens_sent,
                "outcome": u.outcome.value,
                "reason": u.reason.value,
                "relevance": u.relevance,
                "redundancy": u.redundancy,
            }
            for u in units[-PROVENANCE_SHOWN:]
        ],
    }

"""The context of one model call, curated: which parts of the conversation it carries, and why.

A conversation is cut into units: the head (everything before the first assistant message — the
problem's first brief), then one unit per assistant message with the user messages that follow it
(its tool results, a nudge, or the next phase's brief). Dropping whole units keeps the roles
alternating and every tool_use next to its tool_result. The units of a finished phase form its
segment; the unit holding a phase's brief opens that phase's segment.

Invariants:
    - Must-keep, always sent in full: the system prompt and tools (counted by the caller as
      `fixed_tokens`), the head, the current phase's work (every unit from the one holding the
      first brief with the current marker to the end: its brief carries the hard constraints and
      the reviewer's decisions for this phase) and the last unit.
    - An earlier phase's brief is never dropped: its unit is sent at least as a digest — the
      marker line, its HARD CONSTRAINTS and YOUR REVIEWER DECIDED paragraphs, the reply before it
      cut to DIGEST_REPLY_CHARS — and in full when the listwise selection picks it.
    - Each finished phase's segment is curated once, against the brief that FOLLOWS it (what the
      next phase was asked to do), with `carry_tokens` of room, redundancy counted against the head
      and what earlier segments kept. A segment's decisions therefore never change as the
      conversation grows, so the curated prefix stays byte-identical from call to call and a
      provider's prompt cache keeps serving it; only the phase that just ended is new.
    - Compaction is deferred while it would free too little (`budget.compact_at_least`): scanning
      the finished segments oldest first, a group is compacted once its segments together free that
      many tokens; the latest segments, until they do, are sent whole (reason DEFERRED), and so is
      the conversation's prefix until then, for a provider's prompt cache (a compaction rewrites it
      from the first unit it shortens). Deferral never takes the call over `context_tokens`.
      `settled` counts the messages before the first deferred or current-phase unit: the next calls
      send them unchanged (they are only ever followed, never rewritten, until a compaction).
    - A phase that sends its own context (`own_context`: its calls carry only its brief and what
      followed) is never deferred: no call wrote its segment into the main conversation's cache, so
      keeping it whole would write it there once and again at its compaction; it is compacted at once.
    - `settled_before`: on the first call of a phase, the `settled` of the calls before it (the last
      phase that carried the main conversation), reckoned from the same memoised selections; where this
      call's compaction moved `settled` on, a provider marks both, so the call reads what those calls
      wrote however far back the new point lies. Otherwise it equals `settled`.
    - The whole call never exceeds `context_tokens` unless the must-keep parts alone do: when the
      segments' picks do not fit, the oldest picks are dropped first (reason OVER_BUDGET).
    - Pairing is checked on the result (`pairing_intact`); should it ever fail, the call gets the
      whole conversation and the summary says so (`fell_back`).
    - Every unit has one provenance entry (kind, phase, message range, tools, tokens, decision and
      reason). Tokens are the caller's counter over `message_text` plus MESSAGE_OVERHEAD.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from forge.core.curation.listwise_selection import Candidate, CurationBudget, Decision, Reason, select_listwise
from forge.core.curation.segment_memo import SegmentMemo
from forge.core.identity_memo import IdentityMemo
from forge.core.llm.messages import Message, ProviderPart, Role, TextPart, ToolCall, ToolResult

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
    """`settled`: how many leading messages the next calls will send unchanged (see `cache_anchor`);
    `settled_before`: the point the calls before this one had settled, where this call moved it on."""

    messages: tuple[Message, ...]
    summary: CurationSummary
    settled: int = 0
    settled_before: int = 0


@dataclass(frozen=True, slots=True)
class _Unit:
    start: int
    messages: tuple[Message, ...]
    kind: UnitKind
    phase: str

    @property
    def key(self) -> str:
        return f"m{self.start}-{self.start + len(self.messages) - 1}"


# message_text per Message object, for the curation of the next calls: every call of a run curates
# the whole conversation again, so without it each message's text was rebuilt (and, as a new
# string, hashed again by the token memo) once per call.
_TEXTS: IdentityMemo[str] = IdentityMemo(4096)


def message_text(message: Message) -> str:
    """What a message costs and is about: its text, tool calls (name and arguments), results, provider blocks."""
    return _TEXTS.get(message, lambda: _compose_message_text(message))


def _compose_message_text(message: Message) -> str:
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


@dataclass(frozen=True, slots=True)
class _Segment:
    """One finished phase's units (the boundary unit that opened it first, if any) and its query;
    `depends_on`: every message its selection is a function of (up to its end, and the query's)."""

    units: tuple[_Unit, ...]
    query: str
    depends_on: tuple[Message, ...]


def _segments(units: Sequence[_Unit], messages: Sequence[Message]) -> list[_Segment]:
    earlier = [u for u in units if u.kind in (UnitKind.EXCHANGE, UnitKind.PHASE_BOUNDARY)]
    groups: list[list[_Unit]] = []
    for u in earlier:
        if u.kind == UnitKind.PHASE_BOUNDARY or not groups:
            groups.append([])
        groups[-1].append(u)
    briefs = [i for i, m in enumerate(messages) if _is_brief(m)]
    segments = []
    for group in groups:
        after = group[-1].start + len(group[-1].messages)
        found = bisect_left(briefs, after)
        brief = messages[briefs[found]] if found < len(briefs) else None
        depends_on = (*messages[:after], brief) if brief is not None else tuple(messages[:after])
        segments.append(_Segment(tuple(group), brief.text if brief is not None else "", depends_on))
    return segments


def _unit_text(u: _Unit) -> str:
    return "\n".join(message_text(m) for m in u.messages)


class _Plan:
    """Decisions per unit key, filled segment by segment, then fitted to the call's budget."""

    def __init__(self, units: Sequence[_Unit], digests: dict[str, tuple[Message, ...]], counter: _Counter) -> None:
        self.full = {u.key: counter.unit(u.messages) for u in units}
        self.digest = {k: counter.unit(d) for k, d in digests.items()}
        self.decisions: dict[str, Decision] = {}
        self.stopped = False

    def sent(self, key: str) -> int:
        decision = self.decisions[key]
        return self.full[key] if decision.kept else self.digest.get(key, 0)

    def curate_segment(
        self, segment: _Segment, budget: CurationBudget, context: list[_Unit], memo: SegmentMemo | None
    ) -> None:
        """Select the segment's units against what `context` (the head, earlier picks) already carries."""
        room = replace(budget, context_tokens=budget.carry_tokens)
        keys = [u.key for u in segment.units]
        selection = memo.get(room, keys, segment.depends_on) if memo is not None else None
        if selection is None:
            candidates = [
                Candidate(u.key, _unit_text(u), self.full[u.key] - self.digest.get(u.key, 0)) for u in segment.units
            ]
            selection = select_listwise(segment.query, candidates, room, [_unit_text(u) for u in context])
            if memo is not None:
                memo.put(room, keys, segment.depends_on, selection)
        self.stopped = self.stopped or selection.stop_rule_triggered
        for u, decision in zip(segment.units, selection.decisions, strict=True):
            self.decisions[u.key] = replace(decision, tokens=self.full[u.key])
            if decision.kept:
                context.append(u)

    def freed(self, segment: _Segment) -> int:
        return sum(self.full[u.key] - self.sent(u.key) for u in segment.units)

    def pending(self, segments: Sequence[_Segment], threshold: int) -> list[_Segment]:
        """The latest segments that, compacted together, would free < `threshold` tokens."""
        pending: list[_Segment] = []
        freed = 0
        for segment in segments:
            pending.append(segment)
            freed += self.freed(segment)
            if freed >= threshold:
                pending, freed = [], 0
        return pending

    def defer(
        self, segments: Sequence[_Segment], order: Sequence[_Unit], fixed_tokens: int, budget: CurationBudget
    ) -> None:
        """Keep whole the latest finished phases while compacting them would free < `compact_at_least` tokens."""
        pending = self.pending(segments, budget.compact_at_least)
        freed = sum(self.freed(s) for s in pending)
        if not pending or fixed_tokens + sum(self.sent(u.key) for u in order) + freed > budget.context_tokens:
            return
        for u in (u for s in pending for u in s.units):
            self.decisions[u.key] = replace(self.decisions[u.key], kept=True, reason=Reason.DEFERRED)

    def fit(self, order: Sequence[_Unit], fixed_tokens: int, limit: int) -> None:
        """Drop the oldest picks until the call fits `limit` (or nothing optional is left)."""
        total = fixed_tokens + sum(self.sent(u.key) for u in order)
        for u in order:
            decision = self.decisions[u.key]
            if total <= limit:
                return
            if decision.reason == Reason.SELECTED:
                total -= self.full[u.key] - self.digest.get(u.key, 0)
                self.decisions[u.key] = replace(decision, kept=False, reason=Reason.OVER_BUDGET)


def _provenance(u: _Unit, plan: _Plan) -> UnitProvenance:
    decision = plan.decisions[u.key]
    shortened = Outcome.DIGEST if u.key in plan.digest else Outcome.DROPPED
    outcome = Outcome.FULL if decision.kept else shortened
    tools = tuple(c.name for m in u.messages for c in m.tool_calls)
    end = u.start + len(u.messages) - 1
    return UnitProvenance(
        u.key, u.kind, u.phase, u.start, end, tools, plan.full[u.key], plan.sent(u.key), outcome, decision.reason,
        decision.relevance, decision.redundancy,
    )  # fmt: skip


def curate_conversation(
    messages: Sequence[Message],
    *,
    current_marker: str,
    fixed_tokens: int,
    count: TokenCount,
    budget: CurationBudget,
    memo: SegmentMemo | None = None,
    own_context: frozenset[str] = frozenset(),
) -> CuratedContext:
    """The messages this call carries (see the module invariants) and the provenance of each unit.
    `memo` remembers finished phases' selections for the next calls (`segment_memo`); `own_context`
    names the phases whose calls send only their own context (never deferred)."""
    counter = _Counter(count)
    units = _units(messages, current_marker)
    digests = {u.key: tuple(_digest_message(m) for m in u.messages) for u in units if u.kind == UnitKind.PHASE_BOUNDARY}
    plan = _Plan(units, digests, counter)
    for u in units:
        if u.kind in (UnitKind.HEAD, UnitKind.CURRENT_PHASE):
            plan.decisions[u.key] = Decision(u.key, True, Reason.MUST_KEEP, plan.full[u.key])
    context = [u for u in units if u.kind == UnitKind.HEAD]
    segments = _segments(units, messages)
    for segment in segments:
        plan.curate_segment(segment, budget, context, memo)
    plan.fit(units, fixed_tokens, budget.context_tokens)
    shared = [s for s in segments if s.units[0].phase.partition("/")[0] not in own_context]
    earlier = _settled_earlier(plan, shared, units, current_marker, budget.compact_at_least)
    plan.defer(shared, units, fixed_tokens, budget)
    sent: list[Message] = []
    settled, settled_before = -1, -1
    for u in units:
        if settled < 0 and (u.kind == UnitKind.CURRENT_PHASE or plan.decisions[u.key].reason == Reason.DEFERRED):
            settled = len(sent)
        if u.key == earlier:
            settled_before = len(sent)
        sent += u.messages if plan.decisions[u.key].kept else digests.get(u.key, ())
    provenance = tuple(_provenance(u, plan) for u in units)
    must_keep = fixed_tokens + sum(p.tokens_sent for p in provenance if p.reason == Reason.MUST_KEEP)
    must_keep += sum(plan.digest.values())
    optional = sum(p.tokens_sent - plan.digest.get(p.key, 0) for p in provenance if p.reason == Reason.SELECTED)
    available = fixed_tokens + sum(p.tokens_full for p in provenance)
    fell_back = not pairing_intact(sent)
    tokens_sent = available if fell_back else fixed_tokens + sum(p.tokens_sent for p in provenance)
    summary = CurationSummary(
        available, tokens_sent, must_keep, optional, max(0, budget.context_tokens - must_keep), budget,
        plan.stopped, fell_back, provenance,
    )  # fmt: skip
    if fell_back:
        return CuratedContext(tuple(messages), summary)
    settled = max(settled, 0)
    return CuratedContext(tuple(sent), summary, settled, settled_before if 0 <= settled_before < settled else settled)


def _settled_earlier(
    plan: _Plan, shared: Sequence[_Segment], units: Sequence[_Unit], current_marker: str, threshold: int
) -> str | None:
    """On a phase's first call (its brief is in the last unit), the key of the unit the calls of the
    last phase that carried the main conversation had settled at: the first segment they deferred, or
    that phase's own first unit. Their deferral is this one's without their phase. Else None."""
    if not shared or not any(_is_brief(m) and m.text.startswith(current_marker) for m in units[-1].messages):
        return None
    pending = plan.pending(shared[:-1], threshold)
    return (pending[0] if pending else shared[-1]).units[0].key


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

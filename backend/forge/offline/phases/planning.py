"""What the offline model reads from a conversation, and how it plans its next step.

Invariants:
    - ConversationView is built only from `request.messages`: phase and round come from the last
      `[forge phase=… round=…]` marker, the context from its ```json block, outcomes from later tool
      calls and their results (non-JSON results become {"raw": text}), remembered hypotheses from its
      memory block; "Not done yet (CODE)" messages
      are nudges that restart retry budgets; `history` holds every outcome of the conversation.
    - A planner lists Tasks and `schedule` turns those not done into this step's calls, so the plan is
      recomputed from the conversation each step (no hidden memory). A task with queries waits for
      research; the next query is tried when one found nothing useful or a research gate failed after
      it; each task and query is tried at most MAX_ATTEMPTS times between nudges.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from forge.core.hypotheses.remembered import ReadHypothesis, read_memory_block
from forge.core.identity_memo import IdentityMemo
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
    remembered: tuple[ReadHypothesis, ...] = ()  # the brief's memory block: what earlier sessions found

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
    everything = _outcomes(messages)
    if not markers:
        return ConversationView(None, 1, {}, (), (), tuple(o for _, o in everything))
    start, match = markers[-1]
    mine = [(i, o) for i, o in everything if i > start]
    return ConversationView(
        phase=match.group(1),
        round=int(match.group(2)),
        context=_parse_context(messages[start].text),
        outcomes=tuple(o for _, o in mine),
        nudges=tuple(_nudges(messages, start, mine)),
        history=tuple(o for _, o in everything),
        remembered=tuple(read_memory_block(messages[start].text)),
    )


MAX_ATTEMPTS = 2
RESEARCH_LIMIT = 5
# The research gates: a task that failed one after its research tries its next query.
GATE_CODES = frozenset(
    ErrorCode[name]
    for name in "STATE_OF_ART_NOT_RESEARCHED CROSS_DOMAIN_NOT_SEARCHED ANTITHESIS_NOT_SEARCHED "
    "FALSIFICATION_NOT_SEARCHED UNGROUNDED_CLAIM".split()
)


@dataclass(frozen=True, slots=True)
class Hit:
    source: str
    title: str
    snippet: str


@dataclass(frozen=True, slots=True)
class PlannedCall:
    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Researched:
    """The research a task is built from: the query that was run and what it returned."""

    query: str = ""
    hits: tuple[Hit, ...] = ()


Builder = Callable[[Researched], Mapping[str, Any] | None]


@dataclass(frozen=True, slots=True)
class Task:
    """One tool call to make: `key` holds the identifying arguments, `build` the rest."""

    name: str
    build: Builder
    key: Mapping[str, Any] = field(default_factory=dict)
    queries: tuple[str, ...] = ()
    accept: Callable[[tuple[Hit, ...]], bool] | None = None
    # False for a task that judges against everything researched so far (check_novelty): when its own
    # queries found nothing it is still built, instead of leaving the phase incomplete.
    needs_hits: bool = True

    @property
    def identity(self) -> str:
        return call_identity(self.name, self.key)


def hits_of(outcome: CallOutcome | None) -> tuple[Hit, ...]:
    if outcome is None:
        return ()
    results = outcome.payload.get("results", [])
    return tuple(
        Hit(str(r.get("source", "")), str(r.get("title", "")), str(r.get("snippet", "")))
        for r in results
        if isinstance(r, Mapping) and r.get("source")
    )


def _research_for(view: ConversationView, task: Task) -> str | Researched | None:
    """A query still to research, the research to build from, or None when research is exhausted."""
    gate_errors = [view.position(o) for o in view.attempts(task.identity) if o.error_code in GATE_CODES]
    fallback: Researched | None = None
    for query in task.queries:
        done = view.research(query)
        if done is None:
            if len(view.attempts(call_identity("research", {"query": query}))) >= MAX_ATTEMPTS:
                continue
            return query
        hits = hits_of(done)
        good = bool(hits) and (task.accept is None or task.accept(hits))
        if good and not any(p > view.position(done) for p in gate_errors):
            return Researched(query, hits)
        fallback = fallback or (Researched(query, hits) if hits else None)
    return fallback


def schedule(view: ConversationView, tasks: Sequence[Task]) -> list[PlannedCall]:
    """This step's calls: research prerequisites first, then every task that is ready."""
    research: list[PlannedCall] = []
    calls: list[PlannedCall] = []
    for task in tasks:
        if view.done(task.identity) or len(view.attempts(task.identity)) >= MAX_ATTEMPTS:
            continue
        researched = Researched()
        if task.queries:
            found = _research_for(view, task)
            if isinstance(found, str):
                if all(c.arguments["query"] != found for c in research):
                    research.append(PlannedCall("research", {"query": found, "limit": RESEARCH_LIMIT}))
                continue
            if found is None and task.needs_hits:
                continue
            researched = found or Researched()
        built = task.build(researched)
        if built is not None:
            # the identifying arguments first, as a tool's schema lists them: a call's preview in the
            # activity feed (its first 240 characters) then says which claim it is about
            calls.append(PlannedCall(task.name, {**task.key, **built}))
    return research + calls


def all_research_hits(view: ConversationView, *, this_phase: bool = False) -> list[Hit]:
    """Every distinct hit research returned in the conversation (or this phase), first seen first."""
    outcomes = view.outcomes if this_phase else view.history
    return list(_HITS.get(outcomes, lambda: _research_hits(outcomes)))


# VALIDATE asks once per claim for the same view's outcomes.
_HITS: IdentityMemo[tuple[Hit, ...]] = IdentityMemo(8)


def _research_hits(outcomes: tuple[CallOutcome, ...]) -> tuple[Hit, ...]:
    seen: dict[str, Hit] = {}
    for outcome in outcomes:
        if outcome.ok and outcome.call.name == "research":
            for hit in hits_of(outcome):
                seen.setdefault(hit.source, hit)
    return tuple(seen.values())


def claims_in(view: ConversationView) -> list[Mapping[str, Any]]:
    """The brief's claims (VALIDATE, BUILD), each with the index a tool call refers to."""
    return [c for c in view.context.get("claims", []) or [] if isinstance(c, Mapping) and "index" in c]


def sources(hits: Sequence[Hit], limit: int = 3) -> list[str]:
    return list(dict.fromkeys(h.source for h in hits))[:limit]


@dataclass(frozen=True, slots=True)
class PhasePlan:
    """This step's tool calls, or (when there are none) the end-of-phase summary."""

    calls: tuple[PlannedCall, ...] = ()
    summary: str = ""


def plan_or_summary(calls: Sequence[PlannedCall], summarize: Callable[[], str]) -> PhasePlan:
    return PhasePlan(tuple(calls)) if calls else PhasePlan(summary=summarize())


def phase_summary(lead: str, claim: str, evidence: str, so_what: str, *more: str) -> str:
    """The end-of-phase text the system prompt asks for: surprise, CLAIM → EVIDENCE → SO WHAT, labelled."""
    parts = [f"Most surprising: {lead}", f"CLAIM → {claim}", f"EVIDENCE → {evidence}", *more, f"SO WHAT → {so_what}"]
    return "\n\n".join([*parts, OFFLINE_NOTE])


OFFLINE_NOTE = (
    "_Produced by the offline model: deterministic heuristics over the problem text and the shipped "
    "knowledge (source domains, TRIZ, local corpus); no network, no language model._"
)

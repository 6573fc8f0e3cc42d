"""The offline model's planning primitives: tasks, research prerequisites and bounded retries.

Invariants: a planner lists Tasks and `schedule` turns those not done into this step's calls, so the
plan is recomputed from the conversation each step (no hidden memory). A task with queries waits for
research; the next query is tried when one found nothing useful or a research gate failed after it;
each task and query is tried at most MAX_ATTEMPTS times between nudges.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from forge.core.identity_memo import IdentityMemo
from forge.core.rules.verdicts import ErrorCode
from forge.offline.phases.read_conversation import CallOutcome, ConversationView, call_identity

MAX_ATTEMPTS = 2
RESEARCH_LIMIT = 5
GATE_CODES = frozenset(
    {
        ErrorCode.STATE_OF_ART_NOT_RESEARCHED,
        ErrorCode.CROSS_DOMAIN_NOT_SEARCHED,
        ErrorCode.ANTITHESIS_NOT_SEARCHED,
        ErrorCode.FALSIFICATION_NOT_SEARCHED,
        ErrorCode.UNGROUNDED_CLAIM,
    }
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


def research_call(query: str) -> PlannedCall:
    return PlannedCall("research", {"query": query, "limit": RESEARCH_LIMIT})


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
                    research.append(research_call(found))
                continue
            if found is None and task.needs_hits:
                continue
            researched = found or Researched()
        built = task.build(researched)
        if built is not None:
            calls.append(PlannedCall(task.name, {**built, **task.key}))
    return research + calls


def pending(view: ConversationView, tasks: Sequence[Task]) -> list[Task]:
    """Tasks not done yet (including those given up on until the next nudge)."""
    return [t for t in tasks if view.done(t.identity) is None]


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

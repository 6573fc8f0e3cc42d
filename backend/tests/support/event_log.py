"""A session's whole event log (GET /events, paged) and the invariants every log must keep.

Each `*_problems` function returns what is wrong, one readable line per violation ([] = fine), so a
test asserts `not problems` and its failure says exactly which events break which rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
from support.sse_client import Received

PHASES = ("decompose", "explore", "synthesize", "validate", "build", "crystallize")
REVIEWS = ("decompose_review", "explore_review", "claims_review", "verdicts", "build_decision")
ONE_ROUND = tuple((phase, 0) for phase in PHASES)


async def read_event_log(client: httpx.AsyncClient, sid: str) -> list[Received]:
    """Every event of the session, oldest first, following `next_after` until `has_more` is false."""
    events: list[Received] = []
    after = 0
    while True:
        response = await client.get(f"/api/v1/sessions/{sid}/events", params={"after": after, "limit": 500})
        assert response.status_code == 200, response.text
        page = response.json()
        events += [Received(e["id"], e["type"], e["data"]) for e in page["events"]]
        if not page["has_more"]:
            return events
        assert page["next_after"] > after, f"GET /events does not advance: next_after={page['next_after']}"
        after = page["next_after"]


def describe(event: Received) -> str:
    data: Any = event.data
    if event.type in ("tool_call", "tool_result", "tool_error"):
        return f"#{event.id} {event.type}({data['tool']})"
    if event.type in ("phase_change", "user_input", "done", "error"):
        return f"#{event.id} {event.type}{data}"
    return f"#{event.id} {event.type}"


def tail(events: Sequence[Received], n: int = 8) -> str:
    return ", ".join(describe(e) for e in events[-n:]) or "(no events)"


def id_problems(log: Sequence[Received]) -> list[str]:
    ids = [e.id for e in log]
    expected = list(range(1, len(log) + 1))
    return [] if ids == expected else [f"event ids are not 1..{len(log)} without a gap: {ids}"]


def tool_pairing_problems(log: Sequence[Received]) -> list[str]:
    """Every tool_call is answered by exactly one tool_result or tool_error of the same tool before the
    next tool_call, and no answer comes without its call."""
    problems: list[str] = []
    open_call: Received | None = None
    for event in log:
        if event.type == "tool_call":
            if open_call is not None:
                problems.append(f"{describe(open_call)} has no result before {describe(event)}")
            open_call = event
        elif event.type in ("tool_result", "tool_error"):
            if open_call is None:
                problems.append(f"{describe(event)} answers no open tool_call")
            elif open_call.data["tool"] != event.data["tool"]:
                problems.append(f"{describe(open_call)} is answered by {describe(event)}")
            open_call = None
    if open_call is not None:
        problems.append(f"{describe(open_call)} never got a result")
    return problems


def is_resume_marker(event: Received) -> bool:
    return event.type == "phase_change" and event.data.get("resumed") is True


def phase_change_problems(log: Sequence[Received], expected: Sequence[tuple[str, int]] = ONE_ROUND) -> list[str]:
    """Each phase+round starts with exactly one phase_change, in order; any other phase_change is a
    resume marker (`"resumed": true`) of the phase+round that is under way."""
    problems: list[str] = []
    starts: list[tuple[str, int]] = []
    for event in log:
        if event.type != "phase_change":
            continue
        key = (event.data["phase"], event.data["round"])
        if not is_resume_marker(event):
            starts.append(key)
        elif not starts or starts[-1] != key:
            problems.append(f"resume marker {describe(event)} is not for the phase under way ({starts[-1:]})")
    if starts != list(expected):
        problems.append(f"phase_change (not resume markers) in the log: {starts}; expected once each: {list(expected)}")
    return problems


def user_input_problems(log: Sequence[Received], expected: Sequence[str] = REVIEWS) -> list[str]:
    answered = [e.data["type"] for e in log if e.type == "user_input"]
    return (
        [] if answered == list(expected) else [f"user_input events: {answered}; expected once each: {list(expected)}"]
    )


def rerun_problems(log: Sequence[Received]) -> list[str]:
    """A tool call that completed (tool_result) is not run again, with the same input, in the same
    phase+round, unless a phase_change (e.g. a resume marker) announced that the phase starts over."""
    problems: list[str] = []
    completed: dict[tuple[str, str], Received] = {}
    open_call: Received | None = None
    for event in log:
        if event.type == "phase_change":
            completed = {}
        elif event.type == "tool_call":
            key = (event.data["tool"], event.data["input_preview"])
            if key in completed:
                problems.append(f"{describe(event)} re-runs {describe(completed[key])} (same input, already done)")
            open_call = event
        elif event.type == "tool_result" and open_call is not None:
            completed[(open_call.data["tool"], open_call.data["input_preview"])] = open_call
            open_call = None
    return problems


def log_problems(log: Sequence[Received]) -> list[str]:
    """All the rules above for a log that went through one round of every phase."""
    return [
        *id_problems(log),
        *tool_pairing_problems(log),
        *rerun_problems(log),
        *phase_change_problems(log),
        *user_input_problems(log),
    ]

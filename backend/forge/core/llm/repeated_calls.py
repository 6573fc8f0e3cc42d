"""Noticing a model that loops: the same tool call again and again, or arguments nobody can read.

Invariants:
    - Two calls are the same when their tool names match and their arguments match once string
      values are case-folded and their whitespace collapsed; a call whose arguments could not be
      read counts as one shape per tool, whatever the garbage was.
    - Counts run over one agent run (a resumed run starts afresh). A call seen `refuse_at` times is
      refused (the model is told it repeats itself, the tool does not run again); at `stop_at` the run
      stops with a message that says the model is looping. Unreadable calls have their own count with
      the same limits, so a model writing garbage stops too.
    - The watch also carries the run's streak of calls refused as invalid input
      (`core.llm.invalid_calls`), which the loop feeds with every call's outcome.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from forge.core.llm.invalid_calls import InvalidCallStreak
from forge.core.llm.messages import ToolCall

REFUSE_AT = 3
STOP_AT = 6


class RepeatVerdict(str, Enum):
    FRESH = "fresh"  # run it
    REPEATED = "repeated"  # refuse it, saying it repeats
    LOOPING = "looping"  # stop the run


def _normalised(value: object) -> object:
    if isinstance(value, str):
        return " ".join(value.casefold().split())
    if isinstance(value, dict):
        return {str(k): _normalised(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_normalised(v) for v in value]
    return value


def call_shape(call: ToolCall) -> str:
    """What makes two calls the same (see the module's invariants)."""
    if call.parse_error:
        return f"{call.name}\x00<unreadable>"
    return call.name + "\x00" + json.dumps(_normalised(dict(call.arguments)), ensure_ascii=False, default=str)


@dataclass
class RepeatWatch:
    refuse_at: int = REFUSE_AT
    stop_at: int = STOP_AT
    seen: Counter[str] = field(default_factory=Counter)
    unreadable: int = 0
    other_work: int = 0  # turns that did work without a tool call (server-side research)
    invalid: InvalidCallStreak = field(default_factory=InvalidCallStreak)

    @property
    def called_nothing(self) -> bool:
        """The model has made no tool call (and done no other work) in this run."""
        return not self.seen and not self.other_work

    def observe(self, call: ToolCall) -> RepeatVerdict:
        shape = call_shape(call)
        self.seen[shape] += 1
        self.unreadable += 1 if call.parse_error else 0
        count = max(self.seen[shape], self.unreadable if call.parse_error else 0)
        if count >= self.stop_at:
            return RepeatVerdict.LOOPING
        return RepeatVerdict.REPEATED if count >= self.refuse_at else RepeatVerdict.FRESH

    def times(self, call: ToolCall) -> int:
        return self.seen[call_shape(call)]


def looping_message(call: ToolCall, times: int) -> str:
    what = "with arguments that could not be read" if call.parse_error else "with the same arguments"
    return (
        f"The model is looping: it called '{call.name}' {what} {times} times in this run, and was told each "
        "time after the second that it repeated itself. The run stopped; a model this weak cannot do the phase "
        "(choose a larger model with a tool-calling chat template), or resume to let it try again."
    )


def repeated_message(call: ToolCall, times: int) -> str:
    if call.parse_error:
        return (
            f"This is unreadable call number {times} of '{call.name}' in this run ({call.parse_error}). "
            "Write the arguments as one JSON object matching the tool's schema, or call another tool."
        )
    return (
        f"You already made this exact call of '{call.name}' {times - 1} times in this run; it was not run "
        "again and its result has not changed. Use a different tool or different arguments, or finish the phase."
    )

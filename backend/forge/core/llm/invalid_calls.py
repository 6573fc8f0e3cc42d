"""Noticing a model that cannot form a valid tool call: call after call refused as invalid input.

The repeat guard (`core.llm.repeated_calls`) stops a model that sends the same call again; this one
stops a model whose calls all differ and are all unusable (a 270M model on llama.cpp sent 26
different `reframe_problem` calls, each missing a required field, for 25 minutes).

Invariants:
    - A call counts as invalid when it was refused as INVALID_INPUT (arguments that are not JSON, a
      junk value, a schema error, arguments cut at max_tokens) or its arguments could not be read at
      all, whatever refused it. Any other outcome (the call ran, or was refused for another reason: a
      rule, the wrong phase, a repeat of a well-formed call) resets the count: the model could write it.
    - Counts run over one agent run (a resumed run starts afresh), across tools and replies.
    - At STOP_AFTER consecutive invalid calls the run must stop; the message names the last tool,
      quotes its last validation error (shortened to QUOTE_CHARS) and says what to do.

Why STOP_AFTER = 6: each refusal tells the model exactly what was wrong, and a model able to use that
fixes its call within one or two tries; six in a row means it cannot. It is the repeat guard's stop
count too, so a model writing garbage stops at the same call whichever guard sees it first; and it
keeps the stop well within 30 calls. In the recorded llama.cpp run the first streak of six ended at
call 9 (of 34): the calls accepted between the streaks carried HTML-escaped junk, not reframings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

STOP_AFTER = 6
QUOTE_CHARS = 160
INVALID_INPUT = "INVALID_INPUT"
ESCAPED_QUOTE = re.compile(r"&(?:amp;)*(?:#34|#x22|quot);", re.IGNORECASE)


def escaped_quote_at(value: object, path: str = "") -> str | None:
    """The path of the first string in `value` holding an HTML-escaped double quote (`&#34;`, `&quot;`).

    A model shown its earlier calls HTML-escaped (llama-cpp-python's chatml-function-calling template
    renders the history with Jinja autoescape) writes `&#34;` where it means `"`: its string never
    ends, and the fields it meant to write after it are lost inside the string."""
    if isinstance(value, str):
        return (path or "the value") if ESCAPED_QUOTE.search(value) else None
    if isinstance(value, Mapping):
        found = (escaped_quote_at(v, f"{path}.{k}" if path else str(k)) for k, v in value.items())
        return next((p for p in found if p), None)
    if isinstance(value, list | tuple):
        return next((p for i, v in enumerate(value) if (p := escaped_quote_at(v, f"{path}[{i}]"))), None)
    return None


def escaped_quote_hint(arguments: Mapping[str, object]) -> str:
    """What to add to a refusal when a string holds an escaped quote (empty when none does)."""
    path = escaped_quote_at(arguments)
    if path is None:
        return ""
    return (
        f' {path} contains `&#34;` or `&quot;` (an HTML-escaped quote) where a plain " was meant, so the string '
        "never ended and the fields written after it were lost: write plain double quotes."
    )


def _quoted(error: str) -> str:
    text = " ".join(error.split()).removeprefix("Invalid input — ")
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


@dataclass
class InvalidCallStreak:
    stop_after: int = STOP_AFTER
    count: int = 0
    last_tool: str = ""
    last_error: str = ""

    def observe(self, tool: str, refused_code: str | None, message: str, *, unreadable: bool = False) -> bool:
        """Count one call's outcome (`refused_code` None: it ran); True when the run must stop."""
        if refused_code != INVALID_INPUT and not unreadable:
            self.count = 0
            return False
        self.count += 1
        self.last_tool, self.last_error = tool, message
        return self.count >= self.stop_after

    def stop_message(self) -> str:
        return (
            f"The model could not form a valid tool call: its last {self.count} calls were all refused as invalid "
            f"input (the last, '{self.last_tool}': \"{_quoted(self.last_error)}\"). The run stopped; this model "
            "cannot fill in the tools' arguments. Choose a larger model with a tool-calling chat template (see "
            'README "Real models" for local server settings that work), or resume to let it try again.'
        )

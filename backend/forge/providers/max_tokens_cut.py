"""What a tool call cut off before its arguments were complete says about itself (both providers' wires).

Invariants:
    - The message names the limit that was hit, with its value when known, so the agent can tell
      the model to resend the call shorter (or split the work) instead of "fix your JSON".
    - Arguments that end inside a string the model never closed (a server may report such a cut call
      as a finished one: llama-cpp-python's `chatml-function-calling` did, `finish_reason: tool_calls`)
      are a cut call too: the message quotes where they end and, when the text holds an HTML-escaped
      quote (`&#34;`, what left the string open there), says to write a plain `"` instead.
"""

from __future__ import annotations

import json

from forge.core.llm.invalid_calls import ESCAPED_QUOTE

TAIL_CHARS = 60


def cut_at_max_tokens(max_tokens: int | None) -> str:
    """The parse_error of the last tool call of a reply cut at max_tokens."""
    limit = f"max_tokens ({max_tokens})" if max_tokens else "max_tokens"
    return f"the reply hit {limit} while writing this call's arguments, so they are incomplete"


def cut_at_context_window() -> str:
    """The parse_error of the last tool call of a reply cut because the context window was full."""
    return "the reply filled the model's context window while writing this call's arguments, so they are incomplete"


def cut_inside_a_string(arguments: str) -> str:
    """The parse_error of a call whose arguments end inside a string that was never closed."""
    tail = arguments[-TAIL_CHARS:]
    ending = json.dumps(("…" if len(arguments) > TAIL_CHARS else "") + tail, ensure_ascii=False)
    message = (
        f"the arguments end inside a string that was never closed (they end {ending}), so the call was cut "
        "and every field meant after that point is missing; resend the whole call, closing each string "
        'with a plain double quote "'
    )
    if ESCAPED_QUOTE.search(arguments):
        message += ". The arguments contain `&#34;` or `&quot;` (an HTML-escaped quote): that does not close a string"
    return message

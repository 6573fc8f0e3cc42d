"""What a tool call cut off by the output limit says about itself (both providers' wires).

Invariants:
    - The message names the limit that was hit, with its value when known, so the agent can tell
      the model to resend the call shorter (or split the work) instead of "fix your JSON".
"""

from __future__ import annotations


def cut_at_max_tokens(max_tokens: int | None) -> str:
    """The parse_error of the last tool call of a reply cut at max_tokens."""
    limit = f"max_tokens ({max_tokens})" if max_tokens else "max_tokens"
    return f"the reply hit {limit} while writing this call's arguments, so they are incomplete"


def cut_at_context_window() -> str:
    """The parse_error of the last tool call of a reply cut because the context window was full."""
    return "the reply filled the model's context window while writing this call's arguments, so they are incomplete"

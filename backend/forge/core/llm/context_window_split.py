"""How one call's context window is split between the input it is sent and the output it may write.

Invariant: input ceiling + output room = the window, so a request whose input is curated under the
ceiling and whose output is capped at the room always fits (a local server with a 16k window refuses
or truncates a request that asks for more than it has).
"""

from __future__ import annotations

INPUT_SHARE = (3, 4)  # three quarters of the window for the input, the rest for the reply


def input_ceiling(window: int) -> int:
    """The most input tokens a request may carry in a window of `window` tokens."""
    numerator, denominator = INPUT_SHARE
    return window * numerator // denominator


def output_room(window: int) -> int:
    """The most output tokens a request may ask for, beside an input at the ceiling."""
    return window - input_ceiling(window)

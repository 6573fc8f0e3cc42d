"""What a request may carry, and how much of a bad value an error message repeats.

Invariants:
    - MAX_BODY_BYTES bounds every request body, whether it declares a Content-Length or arrives
      chunked (`limit_request_body` enforces it while the body streams in).
    - MAX_INT64 bounds every integer read from a query string or a header: the database stores
      cursors and offsets as signed 64-bit integers, so a larger value must be refused here with a
      message rather than fail there.
    - `quote_input` shows at most MAX_ECHO_CHARS characters of what the client sent (then "…"), as a
      Python literal (control characters and lone surrogates escaped): an error names the bad value
      without echoing an arbitrarily long or unprintable one back.
"""

from __future__ import annotations

MAX_BODY_BYTES = 256 * 1024
MAX_INT64 = 2**63 - 1
MAX_ECHO_CHARS = 32


def quote_input(raw: str) -> str:
    """`raw` quoted for an error message, cut to MAX_ECHO_CHARS characters."""
    if len(raw) <= MAX_ECHO_CHARS:
        return repr(raw)
    return repr(raw[:MAX_ECHO_CHARS]) + "…"

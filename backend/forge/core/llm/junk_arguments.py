"""Tool arguments a weak model wrote as junk: string values with no letter or digit once HTML entities
and backslash escapes are set aside (fragments of repaired JSON such as `"]}, \\n'&#34;}"`), refused
with the reason instead of being stored."""

from __future__ import annotations

import re
from collections.abc import Mapping

ENTITIES_AND_ESCAPES = re.compile(r"&#?\w+;|\\[nrtu\"'/\\]")


def _has_word(text: str) -> bool:
    return any(ch.isalnum() for ch in ENTITIES_AND_ESCAPES.sub("", text))


def junk_value(value: object, path: str = "") -> str | None:
    """The path and text of the first junk string in `value` (None when there is none)."""
    if isinstance(value, str):
        return f"{path or 'the value'} = {value[:60]!r}" if value.strip() and not _has_word(value) else None
    if isinstance(value, Mapping):
        return next((j for k, v in value.items() if (j := junk_value(v, f"{path}.{k}" if path else str(k)))), None)
    if isinstance(value, list | tuple):
        return next((j for i, v in enumerate(value) if (j := junk_value(v, f"{path}[{i}]"))), None)
    return None

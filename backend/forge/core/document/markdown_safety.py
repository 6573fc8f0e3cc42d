"""Text and links made safe to put in a Markdown document that someone will render.

Every string in an exported document that came from a person or a model (a problem, a claim, an
insight, an evidence title or URL) goes through here, because Markdown passes raw HTML through and
renders any link scheme.

Invariants:
    - `escape_markdown` output contains no raw `<`, `>` or `&` (HTML entities instead), so no tag,
      event handler attribute (`onerror=`) or autolink can form; `[`, `]`, `` ` ``, `|` and `\\` are
      backslash-escaped, so user text cannot open a link, an image, a link reference definition, a
      code span or a table cell. Everything else (emphasis, words) is left as written.
    - `escape_inline` also folds every run of whitespace (newlines included) into one space: text
      that sits in a heading, a bullet or a table cell cannot start a block of its own.
    - `markdown_link` is a link only for http, https and mailto URLs without whitespace or control
      characters (what a browser would strip before reading the scheme: `java\\tscript:`); its
      destination is percent-encoded where Markdown would end it (`(`, `)`, `<`, `>`, spaces). Any
      other URL (`javascript:`, `data:`, `file:`, `corpus://...`) is shown as escaped text.
    - Pure: no IO.
"""

from __future__ import annotations

import re

SAFE_LINK_SCHEMES = ("http", "https", "mailto")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_BACKSLASHED = frozenset("\\`[]|")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_UNSAFE_IN_URL = re.compile(r"[\x00-\x20\x7f]")
_DESTINATION_ESCAPES = {"(": "%28", ")": "%29", "<": "%3C", ">": "%3E", '"': "%22", "\\": "%5C", "`": "%60"}


def escape_markdown(text: str) -> str:
    """`text` as literal Markdown: HTML entities for `& < >`, backslashes before `\\ ` [ ] |`."""
    out: list[str] = []
    for char in text:
        if char in _ENTITIES:
            out.append(_ENTITIES[char])
        elif char in _BACKSLASHED:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def escape_inline(text: str) -> str:
    """`escape_markdown` on one line: whitespace runs (newlines too) become one space."""
    return escape_markdown(" ".join(text.split()))


def link_scheme(url: str) -> str | None:
    """The URL's scheme, lower-cased, or None when it has none or carries whitespace/control characters."""
    if _UNSAFE_IN_URL.search(url):
        return None
    found = _SCHEME.match(url)
    return found.group(1).lower() if found else None


def is_safe_link(url: str) -> bool:
    return link_scheme(url) in SAFE_LINK_SCHEMES


def markdown_link(title: str, url: str) -> str:
    """`[title](url)` for an http(s)/mailto URL; otherwise the title and the URL as plain, escaped text."""
    label = escape_inline(title) or escape_inline(url)
    if not is_safe_link(url):
        return f"{label} ({escape_inline(url)})" if url.strip() else label
    destination = "".join(_DESTINATION_ESCAPES.get(char, char) for char in url)
    return f"[{label}]({destination})"


def mermaid_label(text: str, limit: int = 60) -> str:
    """One line of a Mermaid node label: no newline, no quote, no HTML (Mermaid's #lt; #gt; codes)."""
    flat = " ".join(text.split())  # a newline would end the Mermaid node
    short = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return short.replace('"', "'").replace("<", "#lt;").replace(">", "#gt;").replace("`", "'")

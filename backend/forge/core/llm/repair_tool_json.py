"""Tolerant reading of tool-call JSON from models that write it imperfectly (small local models).

Invariants:
    - Pure and deterministic: the same text always gives the same result; no IO, no randomness.
    - Strict JSON first: text the json module accepts as an object comes back as parsed, with
      `repaired=False`. Repairs run only when strict parsing fails, and always the same way:
      code fences stripped; the outermost {...} taken out of surrounding prose; trailing commas
      dropped; single-quoted strings re-quoted (only where a string can start, and a quote closes one
      only before a delimiter, so apostrophes survive); Python's True/False/None; unquoted keys
      quoted; a truncated end closed (open string, brackets and braces closed, a dangling `,`, `:`,
      key or half-written literal dropped); raw control characters inside strings accepted; a JSON
      string holding an object (double-encoded) unwrapped.
    - `unclosed_string` says the text ended inside a string that the repair closed: that string's value
      was cut, and whatever the writer meant after it is lost (a caller should not run such a call).
    - Repairs add only quotes, brackets and braces, and drop only separators, dangling keys and text
      outside the object: no value is invented.
    - Arguments are always a JSON object: a list, number, string or null is an ArgumentsError. Blank
      text means "no arguments" (`{}`), which local servers send for argument-less tools.
    - Never raises: anything unreadable (nesting too deep included) is an ArgumentsError whose
      message says what was wrong and quotes the first 80 characters.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

QUOTE_CHARS = 80
MAX_ENCODING_DEPTH = 2

_OPENERS = {"{": "}", "[": "]"}
_PYTHON_LITERALS = {"True": "true", "False": "false", "None": "null"}
_JSON_WORDS = frozenset({"true", "false", "null", "NaN", "Infinity"})
_LITERAL_WORDS = ("true", "false", "null", "True", "False", "None")
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$\-]*")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d*)?")
_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_TAGGED = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)
_TRAILING_ESCAPE = re.compile(r"(\\+)(u[0-9A-Fa-f]{0,3})?\Z")
_VALUE_START = re.compile(r"[{\[]")
_KEY_COLON = re.compile(r"\s*:")
_CLOSING_QUOTE_FOLLOWER = re.compile(r"\s*(?:[,:}\]]|\Z)")
_ARGUMENT_KEYS = ("arguments", "parameters")


@dataclass(frozen=True, slots=True)
class ParsedArguments:
    arguments: dict[str, Any]
    repaired: bool
    unclosed_string: bool = False  # the text ended inside a string (closed by the repair)


@dataclass(frozen=True, slots=True)
class ArgumentsError:
    message: str


@dataclass(frozen=True, slots=True)
class TextToolCall:
    """A tool call a model wrote as JSON text; `parse_error` is set when its arguments were unreadable."""

    name: str
    arguments: dict[str, Any]
    parse_error: str | None = None


@dataclass(frozen=True, slots=True)
class TextToolCalls:
    calls: tuple[TextToolCall, ...]
    remaining_text: str  # the text with the tool-call JSON (and its fences or tags) taken out


# --- the scanner ---------------------------------------------------------------------------------


def _trim_partial_escape(body: str) -> str:
    """A string body cut inside an escape (`\\` or `\\u12` at the very end) loses that escape."""
    match = _TRAILING_ESCAPE.search(body)
    if match is None or len(match.group(1)) % 2 == 0:
        return body
    return body[: match.end(1) - 1]


class _Scanner:
    """Re-emits the one JSON value that starts at `text[start]` ('{' or '['), repairing as it goes.

    Stops right after the bracket that closes the value (prose after it is ignored) or, when the
    text ends first, closes what is open. Whitespace outside strings is dropped."""

    def __init__(self, text: str, start: int):
        self.text = text
        self.pos = start
        self.tokens: list[str] = []
        self.stack: list[str] = []
        self.unclosed_string = False  # the text ended inside a string

    def run(self) -> tuple[str, int]:
        """The repaired JSON text and the index just past the value in the input."""
        while self.pos < len(self.text):
            self._step()
            if not self.stack:
                return "".join(self.tokens), self.pos
        self._close_truncated()
        return "".join(self.tokens), self.pos

    def _step(self) -> None:
        ch = self.text[self.pos]
        if ch.isspace():
            self.pos += 1
        elif ch in _OPENERS:
            self.stack.append(_OPENERS[ch])
            self._emit(ch, 1)
        elif ch in "}]":
            self._close(ch)
        elif ch == '"':
            self._double_quoted()
        elif ch == "'" and self._at_value_start():
            self._single_quoted()
        elif word := _WORD.match(self.text, self.pos):
            self._word(word.group())
        elif number := _NUMBER.match(self.text, self.pos):
            self._emit(number.group(), len(number.group()))
        else:
            self._emit(ch, 1)

    def _emit(self, token: str, consumed: int) -> None:
        self.tokens.append(token)
        self.pos += consumed

    def _at_value_start(self) -> bool:
        return not self.tokens or self.tokens[-1] in ("{", "[", ",", ":")

    def _close(self, closer: str) -> None:
        """Close brackets up to the one `closer` ends (closing any left open inside it); a stray
        closer is skipped. A comma right before a closer is dropped."""
        self.pos += 1
        if closer not in self.stack:
            return
        while self.stack:
            if self.tokens and self.tokens[-1] == ",":
                self.tokens.pop()
            expected = self.stack.pop()
            self.tokens.append(expected)
            if expected == closer:
                return

    def _double_quoted(self) -> None:
        end = self.pos + 1
        while end < len(self.text) and self.text[end] != '"':
            end += 2 if self.text[end] == "\\" else 1
        if end < len(self.text):
            self._emit(self.text[self.pos : end + 1], end + 1 - self.pos)
            return
        body = _trim_partial_escape(self.text[self.pos + 1 :])  # truncated inside the string
        self.unclosed_string = True
        self._emit('"' + body + '"', len(self.text) - self.pos)

    def _single_quoted(self) -> None:
        chars: list[str] = []
        end = self.pos + 1
        while end < len(self.text):
            ch = self.text[end]
            if ch == "\\" and end + 1 < len(self.text):
                escaped = self.text[end + 1]
                chars.append("'" if escaped == "'" else ch + escaped)
                end += 2
                continue
            if ch == "'" and self._closes_single_quote(end + 1):
                end += 1
                break
            chars.append('\\"' if ch == '"' else ch)
            end += 1
        else:
            self.unclosed_string = True
        body = _trim_partial_escape("".join(chars))
        self._emit('"' + body + '"', end - self.pos)

    def _closes_single_quote(self, after: int) -> bool:
        return _CLOSING_QUOTE_FOLLOWER.match(self.text, after) is not None

    def _word(self, word: str) -> None:
        if _KEY_COLON.match(self.text, self.pos + len(word)):
            self._emit(json.dumps(word), len(word))  # an unquoted key
        else:
            self._emit(_PYTHON_LITERALS.get(word, word), len(word))

    def _close_truncated(self) -> None:
        """The text ended inside the value: drop what cannot end a value, then close what is open."""
        while self.tokens and self._drop_dangling():
            pass
        self.tokens.extend(reversed(self.stack))
        self.stack.clear()

    def _drop_dangling(self) -> bool:
        """Drop (or trim) one token that cannot end a value; False when the last token can."""
        last = self.tokens[-1]
        in_object = bool(self.stack) and self.stack[-1] == "}"
        before = self.tokens[-2] if len(self.tokens) > 1 else ""
        if last in (",", ":"):
            self.tokens.pop()
        elif in_object and last.startswith('"') and before in ("{", ","):
            self.tokens.pop()  # a key with no value
        elif last not in _JSON_WORDS and any(word.startswith(last) for word in _LITERAL_WORDS):
            self.tokens.pop()  # a half-written literal such as `tru`
        elif last[0] in "-.0123456789" and last[-1] in ".eE+-":
            trimmed = last.rstrip(".eE+-")
            if trimmed:
                self.tokens[-1] = trimmed
            else:
                self.tokens.pop()
        else:
            return False
        return True


_UNREADABLE = object()


def _repaired_value(text: str, start: int) -> tuple[Any, int, bool]:
    """The JSON value starting at `text[start]`, repaired (`_UNREADABLE` if it is not), the index
    just past it, and whether the text ended inside a string."""
    scanner = _Scanner(text, start)
    repaired, end = scanner.run()
    try:
        return json.loads(repaired, strict=False), end, scanner.unclosed_string
    except (json.JSONDecodeError, RecursionError):
        return _UNREADABLE, end, scanner.unclosed_string


def _lenient_value(text: str, start: int) -> tuple[Any, int]:
    value, end, _ = _repaired_value(text, start)
    return value, end


# --- arguments -----------------------------------------------------------------------------------


def _quoted(raw: str) -> str:
    head = raw[:QUOTE_CHARS]
    return json.dumps(head, ensure_ascii=False) + ("…" if len(raw) > QUOTE_CHARS else "")


def _error(raw: str, problem: str) -> ArgumentsError:
    return ArgumentsError(f"{problem}; the arguments began {_quoted(raw)}")


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"


def _as_object(value: object, raw: str, repaired: bool, depth: int) -> ParsedArguments | ArgumentsError:
    if isinstance(value, dict):
        return ParsedArguments(value, repaired)
    if isinstance(value, str) and depth < MAX_ENCODING_DEPTH and value.strip():
        inner = _parse(value, depth + 1)
        if isinstance(inner, ParsedArguments):
            return ParsedArguments(inner.arguments, True, inner.unclosed_string)  # double-encoded
    return _error(raw, f"expected a JSON object, got {_kind(value)}")


def _strip_fences(text: str) -> str:
    fenced = _FENCE.search(text)
    return fenced.group(1) if fenced else text


def _parse(raw: str, depth: int) -> ParsedArguments | ArgumentsError:
    if not raw.strip():
        return ParsedArguments({}, repaired=False)
    try:
        return _as_object(json.loads(raw), raw, repaired=False, depth=depth)
    except json.JSONDecodeError as error:
        problem = f"not valid JSON ({error.msg} at character {error.pos})"
    except RecursionError:
        return _error(raw, "nested too deeply to read")
    text = _strip_fences(raw)
    start = text.find("{")
    if start < 0:
        return _error(raw, f"{problem} and no {{...}} object in it")
    value, _, unclosed = _repaired_value(text, start)
    if value is _UNREADABLE:
        return _error(raw, f"{problem}, and repairing it did not help")
    parsed = _as_object(value, raw, repaired=True, depth=depth)
    return replace(parsed, unclosed_string=True) if unclosed and isinstance(parsed, ParsedArguments) else parsed


def parse_tool_arguments(raw: str) -> ParsedArguments | ArgumentsError:
    """A tool call's arguments as a dict: strict JSON, else the repairs in the module docstring."""
    return _parse(raw, depth=0)


# --- tool calls written as text ------------------------------------------------------------------


def _text_call(obj: dict[str, Any], tool_names: Collection[str]) -> TextToolCall | None:
    """`{"name": ..., "arguments"|"parameters": ...}`, optionally wrapped as `{"function": {...}}`."""
    function = obj.get("function")
    if "name" not in obj and isinstance(function, dict):
        obj = function
    name = obj.get("name")
    if not isinstance(name, str) or name not in tool_names:
        return None
    arguments: object = next((obj[key] for key in _ARGUMENT_KEYS if key in obj), {})
    if isinstance(arguments, dict):
        return TextToolCall(name, arguments)
    if isinstance(arguments, str):
        parsed = parse_tool_arguments(arguments)
        if isinstance(parsed, ParsedArguments):
            return TextToolCall(name, parsed.arguments)
        return TextToolCall(name, {}, parsed.message)
    return TextToolCall(name, {}, f"expected the arguments to be a JSON object, got {_kind(arguments)}")


def _text_calls(value: object, tool_names: Collection[str]) -> list[TextToolCall] | None:
    """Every call in a value (one object or a list of them), or None unless all of it is calls."""
    items = value if isinstance(value, list) else [value]
    calls = [_text_call(item, tool_names) if isinstance(item, dict) else None for item in items]
    if not calls or any(call is None for call in calls):
        return None
    return [call for call in calls if call is not None]


def _calls_in(segment: str, tool_names: Collection[str]) -> list[TextToolCall] | None:
    start = _VALUE_START.search(segment)
    return _text_calls(_lenient_value(segment, start.start())[0], tool_names) if start else None


def _wrapped_calls(text: str, pattern: re.Pattern[str], tool_names: Collection[str]) -> TextToolCalls | None:
    """Calls inside tags or fences; each matching wrapper (with its JSON) is taken out of the text."""
    calls: list[TextToolCall] = []
    kept: list[str] = []
    cursor = 0
    for match in pattern.finditer(text):
        found = _calls_in(match.group(1), tool_names)
        if found:
            calls.extend(found)
            kept.append(text[cursor : match.start()])
            cursor = match.end()
    if not calls:
        return None
    return TextToolCalls(tuple(calls), "".join([*kept, text[cursor:]]).strip())


def _bare_calls(text: str, tool_names: Collection[str]) -> TextToolCalls | None:
    """Calls written as bare JSON among prose; each top-level {...} or [...] is read once, so the
    scan is linear in the text."""
    calls: list[TextToolCall] = []
    kept: list[str] = []
    cursor = search = 0
    while (match := _VALUE_START.search(text, search)) is not None:
        value, end = _lenient_value(text, match.start())
        value_calls = _text_calls(value, tool_names)
        if value_calls:
            calls.extend(value_calls)
            kept.append(text[cursor : match.start()])
            cursor = end
        search = max(end, match.start() + 1)
    if not calls:
        return None
    return TextToolCalls(tuple(calls), "".join([*kept, text[cursor:]]).strip())


def find_text_tool_calls(text: str, tool_names: Collection[str]) -> TextToolCalls | None:
    """Tool calls a model wrote as text instead of using the API's tool calls, or None.

    Looks, in order, in `<tool_call>` tags, in code fences, then at bare JSON; a call counts only
    when its `name` is one of `tool_names` (so JSON the model merely quotes is left alone)."""
    if not tool_names or not text.strip():
        return None
    return (
        _wrapped_calls(text, _TAGGED, tool_names)
        or _wrapped_calls(text, _FENCE, tool_names)
        or _bare_calls(text, tool_names)
    )

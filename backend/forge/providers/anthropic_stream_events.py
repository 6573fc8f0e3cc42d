"""Folding the Messages API's raw stream events into one WireTurn (see `anthropic_wire`).

Invariants:
    - Tool input JSON is kept raw and parsed strictly when its block stops, so a call cut mid-way
      becomes a ToolCall with parse_error, never a plausible partial dict.
    - Text, thinking and JSON deltas are joined once at the end: time linear in the reply's length.
    - A stream is complete when `message_stop` arrived, or only it is missing (the stop reason came
      and every block was closed); anything shorter is a StreamCutError (retryable).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from forge.core.llm.messages import Usage
from forge.providers.anthropic_wire import Block, WireTurn, usage_from


class StreamCutError(ConnectionError):
    """The event stream ended before the reply was complete (retryable)."""


class StreamAccumulator:
    """Builds one WireTurn from raw stream events (as dicts).

    Keeps each tool input's raw JSON and parses it strictly when its block stops: the SDK's
    partial-mode parser would turn a cut-off input into a plausible but partial dict. Text,
    thinking and JSON deltas are kept as lists of pieces and joined once, so a long reply costs
    time linear in its length. `usage` is what the stream has reported so far (`message_start`,
    then each `message_delta`), so a failed attempt is still charged."""

    def __init__(self) -> None:
        self._message: Block | None = None
        self._pieces: dict[tuple[int, str], list[str]] = {}
        self._json: dict[int, list[str]] = {}
        self._errors: dict[int, tuple[str, str]] = {}
        self._open: set[int] = set()
        self._stopped = False

    @property
    def usage(self) -> Usage:
        return usage_from(self._message.get("usage")) if self._message is not None else Usage()

    def apply(self, event: Mapping[str, Any]) -> str:
        """Fold one event in; returns the text it added ("" if none)."""
        kind = event.get("type")
        if kind == "message_start":
            self._message = copy.deepcopy(dict(event["message"]))
            self._message["content"] = list(self._message.get("content") or [])
        elif kind == "message_stop":
            self._stopped = True
        elif self._message is None:
            raise StreamCutError(f"stream event {kind!r} arrived before message_start")
        elif kind == "content_block_start":
            self._open.add(len(self._message["content"]))
            self._message["content"].append(copy.deepcopy(dict(event["content_block"])))
        elif kind == "content_block_delta":
            return self._delta(int(event["index"]), event["delta"])
        elif kind == "content_block_stop":
            self._close(int(event["index"]))
        elif kind == "message_delta":
            self._message.update({k: v for k, v in (event.get("delta") or {}).items() if v is not None})
            usage = self._message.setdefault("usage", {})
            usage.update({k: v for k, v in (event.get("usage") or {}).items() if v is not None})
        return ""

    def _delta(self, index: int, delta: Mapping[str, Any]) -> str:
        assert self._message is not None
        block = self._message["content"][index]
        kind = delta.get("type")
        if kind == "text_delta":
            self._pieces.setdefault((index, "text"), []).append(delta["text"])
            return str(delta["text"])
        if kind == "input_json_delta":
            self._json.setdefault(index, []).append(delta.get("partial_json", ""))
        elif kind == "citations_delta":
            block.setdefault("citations", []).append(copy.deepcopy(delta["citation"]))
        elif kind == "thinking_delta":
            self._pieces.setdefault((index, "thinking"), []).append(delta["thinking"])
        elif kind == "signature_delta":
            block["signature"] = delta["signature"]
        return ""

    def _close(self, index: int) -> None:
        assert self._message is not None
        self._open.discard(index)
        pieces = self._json.pop(index, None)
        if pieces is None:
            return
        raw = "".join(pieces)
        block = self._message["content"][index]
        try:
            value = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as error:
            value, self._errors[index] = {}, (f"invalid JSON ({error})", raw)
        if not isinstance(value, dict):
            value, self._errors[index] = {}, ("the arguments are not a JSON object", raw)
        block["input"] = value

    def _complete(self) -> bool:
        """Ended properly: `message_stop` arrived, or only it is missing (the stop reason came in a
        `message_delta` and every block was closed), so nothing of the reply was lost."""
        assert self._message is not None
        return self._stopped or (self._message.get("stop_reason") is not None and not self._open)

    def turn(self) -> WireTurn:
        """The finished turn; StreamCutError if the stream ended before the reply was complete."""
        if self._message is None or not self._complete():
            raise StreamCutError("the response stream ended before message_stop")
        for index in list(self._json):
            self._close(index)
        content = self._message["content"]
        for (index, key), pieces in self._pieces.items():
            content[index][key] = str(content[index].get(key) or "") + "".join(pieces)
        self._pieces.clear()
        return WireTurn(
            tuple(content),
            self._message.get("stop_reason"),
            self.usage,
            str(self._message.get("model", "")),
            dict(self._errors),
        )

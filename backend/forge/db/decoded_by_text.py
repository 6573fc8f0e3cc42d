"""Decoded rows kept by their JSON text, so rows read again yield the very same objects.

Runs read a session's whole conversation at their start and SEARCH/SAGA read its whole hypothesis
pool at every round; neither kind of row is ever updated. Decoding them again cost CPU, and, worse,
gave new objects each time, so every memo keyed by identity downstream (a message's text, the
curation's remembered selections, a hypothesis's scores) started cold at every run.

Invariants:
    - `decode(text)` returns what `decoder(text)` would: the decoders are pure and their results
      immutable (frozen records), so one result may be shared by every reader of that text.
    - Bounded by the characters of the texts it holds (oldest out first), not by entry count: a
      tool result can be a hundred times the size of a short message.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from forge.core.session.state_json import decode_record_json

T = TypeVar("T")


class DecodedByText(Generic[T]):
    def __init__(self, decoder: Callable[[str], T], max_chars: int) -> None:
        self._decoder = decoder
        self._max_chars = max_chars
        self._entries: OrderedDict[str, T] = OrderedDict()
        self._chars = 0

    def decode(self, text: str) -> T:
        found = self._entries.get(text)
        if found is not None:
            return found
        decoded = self._entries[text] = self._decoder(text)
        self._chars += len(text)
        while self._chars > self._max_chars and len(self._entries) > 1:
            oldest, _ = self._entries.popitem(last=False)
            self._chars -= len(oldest)
        return decoded

    def __len__(self) -> int:
        return len(self._entries)


def decoded_records(kind: type[T], max_chars: int) -> DecodedByText[T]:
    """Records of one frozen type stored as JSON text (`state_json`), decoded once per text."""
    return DecodedByText(lambda text: decode_record_json(text, kind), max_chars)

"""The recall note each phase's brief carried while its phase ran, given back to that brief later.

The context curator appends its recall note to the current phase's brief (`recall_dropped`). When
the phase ends, the brief may still be sent in full (the curator kept it, or the phase's compaction
is deferred); without its note it would differ from what a prompt cache holds, and everything after
it would be written to the cache again. So the brief keeps the note it was sent with.

Invariants:
    - A note is remembered under the conversation up to and including its brief (a hash of the
      messages' text), so it is given back only to the very brief of the very conversation it was
      sent with; the same conversation curates to the same note, so sessions may share the memo.
    - A note is given back only to a brief sent in full (not a digest), and only while the call
      stays within `limit` tokens; the tokens it adds are counted in the call's `tokens_sent`.
    - Bounded (oldest out first); a note forgotten costs one cache rewrite, never a wrong note.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence

from forge.core.curation.curate_conversation import BRIEF_MARKER, message_text
from forge.core.llm.messages import Message, Role, TextPart

NOTES_KEPT = 4_096


def _brief_index(messages: Sequence[Message], marker: str) -> int | None:
    found = (i for i, m in enumerate(messages) if m.role == Role.USER and m.text.startswith(marker))
    return next(found, None)


def _key(messages: Sequence[Message], end: int) -> str:
    digest = hashlib.sha256()
    for message in messages[: end + 1]:
        digest.update(message_text(message).encode())
        digest.update(b"\x00")
    return digest.hexdigest()


class BriefNotes:
    def __init__(self, limit: int = NOTES_KEPT) -> None:
        self._notes: OrderedDict[str, str] = OrderedDict()
        self._limit = limit

    def remember(self, conversation: Sequence[Message], marker: str, note: str) -> None:
        """The note sent with the brief starting with `marker` in `conversation`."""
        index = _brief_index(conversation, marker)
        if index is None:
            return
        self._notes[_key(conversation, index)] = note
        self._notes.move_to_end(_key(conversation, index))
        if len(self._notes) > self._limit:
            self._notes.popitem(last=False)

    def restore(
        self,
        conversation: Sequence[Message],
        sent: Sequence[Message],
        current_marker: str,
        tokens: int,
        limit: int,
        count: Callable[[str], int],
    ) -> tuple[tuple[Message, ...], int]:
        """`sent` with each earlier brief sent in full given its note back (within `limit`), and its tokens."""
        positions = {id(m): i for i, m in enumerate(conversation)}
        out = list(sent)
        for n, message in enumerate(sent):
            index = positions.get(id(message))
            if index is None or not _is_earlier_brief(message, current_marker):
                continue
            note = self._notes.get(_key(conversation, index))
            if note is not None and tokens + count(note) <= limit:
                out[n] = Message(message.role, (*message.parts, TextPart(note)))
                tokens += count(note)
        return tuple(out), tokens


def _is_earlier_brief(message: Message, current_marker: str) -> bool:
    text = message.text
    return message.role == Role.USER and BRIEF_MARKER.match(text) is not None and not text.startswith(current_marker)

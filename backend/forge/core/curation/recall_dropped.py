"""What the context curator left out of a call, kept retrievable: the `recall` tool's pure half.

Invariants:
    - Recallable are exactly the units the curation summary marks DROPPED or DIGEST (the digest
      keeps a brief's constraints, not its context nor the exchanges' results); each keeps the
      curator's unit key ("m12-15") as its id, its phase and tools, and the full text of its
      messages (`message_text`: replies, tool calls and tool results).
    - The note the model sees names the recallable ids on one line, in conversation order (up to
      NOTE_IDS, fewer if a token limit is given, then how many more); no note when nothing was left out.
    - `recall` returns the items asked for by id, else those a query matches best (match-key cosine,
      the curator's similarity), in conversation order, within `max_tokens` in all (counted): an item
      that does not fit is shortened (marked CUT_MARK and listed); unknown ids are named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from forge.core.curation.curate_conversation import CurationSummary, Outcome, message_text
from forge.core.curation.listwise_selection import term_similarity
from forge.core.llm.messages import Message, Role, TextPart
from forge.core.research.text_terms import match_keys

NOTE_IDS = 30
NOTE_PREFIX = "[context curator]"
QUERY_LIMIT = 3
CUT_MARK = " … [cut to the recall budget]"


@dataclass(frozen=True, slots=True)
class RecallItem:
    id: str
    phase: str
    tools: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Recalled:
    items: tuple[RecallItem, ...]
    unknown_ids: tuple[str, ...]
    shortened: tuple[str, ...]


def recallable_units(messages: Sequence[Message], summary: CurationSummary) -> dict[str, RecallItem]:
    """Every unit the call carried only as a digest or not at all, by its key, in conversation order."""
    found: dict[str, RecallItem] = {}
    for unit in summary.units:
        if unit.outcome == Outcome.FULL or summary.fell_back:
            continue
        chunk = messages[unit.first_message : unit.last_message + 1]
        text = "\n".join(message_text(m) for m in chunk)
        found[unit.key] = RecallItem(unit.key, unit.phase, unit.tools, text)
    return found


def _label(item: RecallItem) -> str:
    tools = list(dict.fromkeys(item.tools))
    return f"{item.id} {'+'.join(tools)}" if tools else item.id


def _note(items: Sequence[RecallItem], shown: int) -> str:
    by_phase: dict[str, list[str]] = {}
    for item in items[:shown]:
        by_phase.setdefault(item.phase or "start", []).append(_label(item))
    listed = "; ".join(f"{phase}: {', '.join(labels)}" for phase, labels in by_phase.items())
    more = f"; and {len(items) - shown} more" if len(items) > shown else ""
    return (
        f"{NOTE_PREFIX} Left out of this context, recallable by id — {listed}{more}. Call recall with ids or a query."
    )


def recall_note(
    items: Sequence[RecallItem], max_tokens: int | None = None, count: Callable[[str], int] | None = None
) -> str | None:
    """One line naming what was left out (ids grouped by phase, with their tools) and how to get it back,
    within `max_tokens` when given (fewer ids are listed, the rest counted); None when nothing was."""
    if not items:
        return None
    shown = min(len(items), NOTE_IDS)
    note = _note(items, shown)
    while max_tokens is not None and count is not None and shown > 0 and count(note) > max_tokens:
        shown -= 1
        note = _note(items, shown)
    return note


def with_recall_note(messages: Sequence[Message], marker: str, note: str | None) -> tuple[Message, ...]:
    """The messages with `note` added to the current phase's brief (the user message starting with
    `marker`): it changes only when the phase's curation does, so a prompt cache keeps the prefix."""
    if note is None:
        return tuple(messages)
    out = list(messages)
    for index, m in enumerate(out):
        if m.role == Role.USER and m.text.startswith(marker):
            out[index] = Message(m.role, (*m.parts, TextPart(note)))
            return tuple(out)
    return tuple(out)


def _matching(items: Sequence[RecallItem], query: str, limit: int) -> list[RecallItem]:
    keys = match_keys(query)
    scored = [(term_similarity(keys, match_keys(i.text)), n, i) for n, i in enumerate(items)]
    best = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))[:limit]
    return [i for _, _, i in sorted(best, key=lambda s: s[1])]


def recall(
    available: Sequence[RecallItem],
    ids: Sequence[str],
    query: str,
    max_tokens: int,
    count: Callable[[str], int],
) -> Recalled:
    """The items named by `ids` (else the QUERY_LIMIT best matches of `query`), within `max_tokens`."""
    by_id = {i.id: i for i in available}
    unknown = tuple(i for i in ids if i not in by_id)
    wanted = [by_id[i] for i in dict.fromkeys(ids) if i in by_id] if ids else _matching(available, query, QUERY_LIMIT)
    out: list[RecallItem] = []
    shortened: list[str] = []
    room = max_tokens
    for item in wanted:
        text = item.text if count(item.text) <= room else _cut(item.text, room, count)
        if text is None:
            break
        if text is not item.text:
            shortened.append(item.id)
        out.append(RecallItem(item.id, item.phase, item.tools, text))
        room -= count(text)
    return Recalled(tuple(out), unknown, tuple(shortened))


def _cut(text: str, room: int, count: Callable[[str], int]) -> str | None:
    """The longest prefix of `text` that, marked CUT_MARK, counts at most `room`; None if not even the mark fits."""
    if count(CUT_MARK) > room:
        return None
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if count(text[:middle] + CUT_MARK) <= room:
            low = middle
        else:
            high = middle - 1
    return text[:low] + CUT_MARK

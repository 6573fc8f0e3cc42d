"""The listwise selections of finished phases, remembered from one model call to the next.

Every call of a run curates the whole conversation again, and a finished phase's segment is
selected against the same inputs each time (`curate_conversation`: its decisions never change as
the conversation grows). Selecting it again cost ~4% of an offline session's CPU; the memo answers
it from the previous call.

Invariants:
    - A selection is a function of the messages up to the segment's end (its units, the head and
      the earlier segments whose kept units are its context), the brief that follows it (its
      query) and the budget. An entry is keyed by the identity of those messages and the budget,
      and keeps the messages alive, so an id in a key is never reused while the entry exists.
    - Using the memo never changes a result: a miss selects as without it. The memo is bounded
      (oldest entry out first) and may be shared by every session of a process.

Not pure in the strict sense (it is a mutable cache), but deterministic: what it returns is what
the selection would.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from forge.core.curation.listwise_selection import CurationBudget, Selection
from forge.core.llm.messages import Message

# Entries keep their conversations alive: 256 hold the finished phases of ~50 concurrent runs, and
# at most ~50 conversations (a few hundred kB each) once their runs ended.
MEMO_ENTRIES = 256

_Key = tuple[CurationBudget, tuple[str, ...], tuple[int, ...]]


class SegmentMemo:
    """Selections by (budget, the segment's unit keys, the identity of the messages they depend on)."""

    def __init__(self, entries: int = MEMO_ENTRIES) -> None:
        self._entries: OrderedDict[_Key, tuple[tuple[Message, ...], Selection]] = OrderedDict()
        self._limit = entries

    def get(self, budget: CurationBudget, units: Sequence[str], messages: Sequence[Message]) -> Selection | None:
        found = self._entries.get(_key(budget, units, messages))
        return found[1] if found is not None else None

    def put(
        self, budget: CurationBudget, units: Sequence[str], messages: Sequence[Message], selection: Selection
    ) -> None:
        self._entries[_key(budget, units, messages)] = (tuple(messages), selection)
        if len(self._entries) > self._limit:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


def _key(budget: CurationBudget, units: Sequence[str], messages: Sequence[Message]) -> _Key:
    return (budget, tuple(units), tuple(map(id, messages)))

"""A value computed from an object, remembered per object identity: for objects that are not
hashable (they hold dicts or lists) or costly to hash, and are handed around again and again (a
message, a hypothesis from the pool, the tool list of every request).

Invariants:
    - `get(obj, compute, *extra)` returns `compute()` the first time for (obj, extra) and the same
      value afterwards, as long as the entry is kept. Callers pass only pure computations of the
      object (and of `extra`, compared by value), so a remembered value is the value.
    - Each entry keeps its object alive: an id in a key is never reused by another object while the
      entry exists. Bounded: the oldest entry leaves first.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityMemo(Generic[V]):
    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._entries: dict[tuple[Hashable, ...], tuple[object, V]] = {}

    def get(self, obj: object, compute: Callable[[], V], *extra: Hashable) -> V:
        key = (id(obj), *extra)
        found = self._entries.get(key)
        if found is not None and found[0] is obj:
            return found[1]
        value = compute()
        self._entries[key] = (obj, value)
        if len(self._entries) > self._limit:
            del self._entries[next(iter(self._entries))]
        return value

    def __len__(self) -> int:
        return len(self._entries)

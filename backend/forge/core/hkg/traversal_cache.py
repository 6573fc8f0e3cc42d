"""TraversalCache: memoised k-shortest-hyperpath results for one store, keyed by the query.

Invariants:
    - A cache is bound to one HypergraphStore; the store is immutable, so a cached result never goes
      stale. A new store (after an ingest) gets a new cache.
    - The key is the whole HyperpathQuery (start and end node sets, k, IS, max_len): two queries that
      differ in any of them never share an entry.
    - At most `capacity` results are kept; the least recently used one is dropped first.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from forge.core.hkg.hypergraph_store import HypergraphStore
from forge.core.hkg.k_shortest_hyperpaths import HyperpathQuery, HyperpathResult, find_k_shortest_hyperpaths

DEFAULT_CAPACITY = 4096


@dataclass(frozen=True, slots=True)
class CacheCounts:
    hits: int
    misses: int
    size: int


class TraversalCache:
    __slots__ = ("_capacity", "_entries", "_hits", "_misses", "_store")

    def __init__(self, store: HypergraphStore, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self._store = store
        self._capacity = capacity
        self._entries: OrderedDict[HyperpathQuery, HyperpathResult] = OrderedDict()
        self._hits = 0
        self._misses = 0

    @property
    def store(self) -> HypergraphStore:
        return self._store

    def find(self, query: HyperpathQuery) -> HyperpathResult:
        cached = self._entries.get(query)
        if cached is not None:
            self._hits += 1
            self._entries.move_to_end(query)
            return cached
        self._misses += 1
        result = find_k_shortest_hyperpaths(self._store, query)
        self._entries[query] = result
        if len(self._entries) > self._capacity:
            self._entries.popitem(last=False)
        return result

    def counts(self) -> CacheCounts:
        return CacheCounts(self._hits, self._misses, len(self._entries))

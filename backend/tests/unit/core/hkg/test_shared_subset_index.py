"""The IS = s walk index: two hyperedges share a subset exactly when they share >= s members."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
from support.hkg_reference import random_case

from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.incidence_index import distinct, gather_ranges
from forge.core.hkg.shared_subset_index import build_shared_subset_index


def test_hyperedges_share_a_subset_exactly_when_they_share_s_members() -> None:
    rng = random.Random(3)
    for _ in range(150):
        store = build_hypergraph_store(random_case(rng, max_size=6).contents)
        assert isinstance(store, HypergraphStore)
        for s in (2, 3):
            walk = build_shared_subset_index(store.index, s)
            assert walk.edge_count == store.index.edge_count
            for left, right in combinations(range(walk.edge_count), 2):
                shares_subset = bool(np.intersect1d(walk.members_of(left), walk.members_of(right)).size)
                shared = np.intersect1d(store.index.members_of(left), store.index.members_of(right)).size
                assert shares_subset == (shared >= s)


def test_is_1_uses_the_store_index_itself_and_the_store_keeps_each_built_index() -> None:
    store = build_hypergraph_store(random_case(random.Random(1)).contents)
    assert isinstance(store, HypergraphStore)
    assert store.shared_subset_index(1) is store.index
    assert store.shared_subset_index(2) is store.shared_subset_index(2)


def test_gather_ranges_concatenates_rows_in_the_order_asked() -> None:
    ptr = np.array([0, 2, 2, 5], dtype=np.int64)
    values = np.array([10, 11, 20, 21, 22], dtype=np.int32)
    assert gather_ranges(ptr, values, np.array([2, 0, 1], dtype=np.int32)).tolist() == [20, 21, 22, 10, 11]


def test_distinct_keeps_each_value_once() -> None:
    values = np.array([4, 1, 4, 4, 0, 1], dtype=np.int32)
    assert sorted(distinct(values, np.empty(5, dtype=np.int64)).tolist()) == [0, 1, 4]

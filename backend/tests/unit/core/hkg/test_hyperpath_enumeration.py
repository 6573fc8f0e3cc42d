"""The enumeration's work bound: a search stops after MAX_EXPANDED_PATHS partial paths and says so."""

from __future__ import annotations

import numpy as np
from support.hkg_reference import RandomCase, hub_trap

from forge.core.hkg.hypergraph_records import HypergraphContents
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.hyperpath_enumeration import (
    HOLDS_END,
    HOLDS_START,
    MAX_EXPANDED_PATHS,
    EndClasses,
    LengthEnumeration,
    RoundRules,
    enumerate_length,
)
from forge.core.hkg.hyperpath_search_balls import grow_to_total_radius, meet
from forge.core.hkg.k_shortest_hyperpaths import (
    HyperpathQuery,
    SearchExtent,
    find_k_shortest_hyperpaths,
    is_valid_hyperpath,
)


def _store(contents: HypergraphContents) -> HypergraphStore:
    store = build_hypergraph_store(contents)
    assert isinstance(store, HypergraphStore), store
    return store


def _one_length(case: RandomCase, length: int, budget: int) -> LengthEnumeration:
    """enumerate_length from "s" to "t" at one length, wired as k_shortest_positions wires it."""
    store = _store(case.contents)
    index = store.shared_subset_index(1)
    starts = np.unique(store.index.incident_edges(store.node_positions(case.starts)))
    ends = np.unique(store.index.incident_edges(store.node_positions(case.ends)))
    bits = np.zeros(index.edge_count, dtype=np.int8)
    bits[starts] = HOLDS_START
    bits[ends] |= HOLDS_END
    balls = meet(index, starts, ends, length)
    grow_to_total_radius(balls, length)
    return enumerate_length(index, RoundRules(index, balls, EndClasses(bits), length), starts, length, 3, budget)


def test_on_a_dense_hypergraph_the_search_stops_at_the_work_bound_and_says_so() -> None:
    case = hub_trap()
    store = _store(case.contents)
    query = HyperpathQuery(case.starts, case.ends, k=3, max_len=6)
    result = find_k_shortest_hyperpaths(store, query)
    assert result.extent is SearchExtent.WORK_BOUND
    # what it found before the bound is kept, and is a real hyperpath
    assert [p.hyperedges for p in result.paths] == [("B", "T")]
    assert all(is_valid_hyperpath(store, p, query) for p in result.paths)


def test_one_length_steps_onto_no_more_partial_paths_than_its_budget() -> None:
    cut = _one_length(hub_trap(), 6, budget=500)
    assert (cut.expanded, cut.cut, cut.paths) == (500, True, ())
    assert _one_length(hub_trap(), 6, budget=MAX_EXPANDED_PATHS).cut


def test_a_search_that_ends_within_the_bound_is_exhaustive() -> None:
    small = hub_trap(hubs=3)  # few enough orderings of the hub hyperedges to walk them all
    finished = _one_length(small, 2, budget=MAX_EXPANDED_PATHS)
    assert not finished.cut and finished.paths != ()
    result = find_k_shortest_hyperpaths(
        _store(small.contents), HyperpathQuery(small.starts, small.ends, k=3, max_len=6)
    )
    assert result.extent is SearchExtent.EXHAUSTIVE
    assert [p.hyperedges for p in result.paths] == [("B", "T")]

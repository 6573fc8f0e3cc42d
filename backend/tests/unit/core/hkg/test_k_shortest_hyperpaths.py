"""k shortest loopless hyperpaths, checked against brute force and networkx on random hypergraphs."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from support.hkg_reference import (
    RandomCase,
    bipartite_shortest_length,
    brute_force_hyperpaths,
    random_case,
    s_line_graph_shortest_length,
)

from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphNode,
    NodeId,
)
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.k_shortest_hyperpaths import (
    HyperpathQuery,
    TraversalStatus,
    find_k_shortest_hyperpaths,
    is_valid_hyperpath,
    query_limits_problem,
)

CASES = 400


def _store(contents: HypergraphContents) -> HypergraphStore:
    store = build_hypergraph_store(contents)
    assert isinstance(store, HypergraphStore), store
    return store


def _query(case: RandomCase, k: int = 3, s: int = 1, max_len: int = 6) -> HyperpathQuery:
    return HyperpathQuery(case.starts, case.ends, k, s, max_len)


def _sequences(store: HypergraphStore, query: HyperpathQuery) -> list[tuple[HyperedgeId, ...]]:
    return [path.hyperedges for path in find_k_shortest_hyperpaths(store, query).paths]


def _chain(*members: tuple[str, ...]) -> HypergraphStore:
    nodes = sorted({m for group in members for m in group})
    return _store(
        HypergraphContents(
            tuple(HypergraphNode(NodeId(n), n) for n in nodes),
            tuple(
                Hyperedge(HyperedgeId(f"e{i}"), "rel", tuple(NodeId(m) for m in group))
                for i, group in enumerate(members)
            ),
        )
    )


class TestAgainstBruteForce:
    @pytest.mark.parametrize("s", [1, 2, 3])
    def test_first_k_paths_equal_the_first_k_of_a_brute_force_enumeration(self, s: int) -> None:
        rng = random.Random(100 + s)
        for _ in range(CASES):
            case = random_case(rng, max_size=s + 3)
            k, max_len = rng.randint(1, 6), rng.randint(1, 6)
            expected = brute_force_hyperpaths(case, s, max_len)[:k]
            assert _sequences(_store(case.contents), _query(case, k, s, max_len)) == expected, case

    def test_paths_are_loopless_sorted_valid_and_within_max_len(self) -> None:
        rng = random.Random(7)
        for _ in range(CASES):
            case = random_case(rng, max_nodes=15, max_edges=18)
            store = _store(case.contents)
            query = _query(case, k=5, s=rng.choice([1, 2]), max_len=rng.randint(2, 5))
            paths = find_k_shortest_hyperpaths(store, query).paths
            keys = [(p.length, p.hyperedges) for p in paths]
            assert keys == sorted(keys) and len(set(keys)) == len(keys)
            for path in paths:
                assert len(set(path.hyperedges)) == path.length <= query.max_len
                assert is_valid_hyperpath(store, path, query)

    def test_path_not_found_exactly_when_brute_force_finds_nothing(self) -> None:
        rng = random.Random(11)
        statuses = set()
        for _ in range(CASES):
            case = random_case(rng, max_edges=6, max_size=2)
            s, max_len = rng.choice([1, 2]), rng.randint(1, 4)
            result = find_k_shortest_hyperpaths(_store(case.contents), _query(case, 3, s, max_len))
            expected = brute_force_hyperpaths(case, s, max_len)
            statuses.add(result.status)
            assert (result.status is TraversalStatus.PATH_NOT_FOUND) == (not expected)
            assert (result.status is TraversalStatus.PATH_NOT_FOUND) == (not result.paths)
        assert statuses == {TraversalStatus.FOUND, TraversalStatus.PATH_NOT_FOUND}


class TestShortestLengthAgainstNetworkx:
    def test_is_1_matches_half_the_distance_on_the_bipartite_incidence_graph(self) -> None:
        rng = random.Random(21)
        for _ in range(CASES):
            case = random_case(rng, max_nodes=20, max_edges=25)
            result = find_k_shortest_hyperpaths(_store(case.contents), _query(case, k=1, s=1, max_len=16))
            assert result.shortest_length == bipartite_shortest_length(case), case

    @pytest.mark.parametrize("s", [2, 3])
    def test_is_s_matches_the_brute_force_s_line_graph(self, s: int) -> None:
        rng = random.Random(30 + s)
        for _ in range(CASES):
            case = random_case(rng, max_nodes=10, max_edges=25, max_size=5)
            result = find_k_shortest_hyperpaths(_store(case.contents), _query(case, k=1, s=s, max_len=16))
            assert result.shortest_length == s_line_graph_shortest_length(case, s), case


class TestOnAChain:
    def test_a_chain_gives_its_only_path_with_the_shared_nodes_as_joints(self) -> None:
        store = _chain(("a", "b"), ("b", "c"), ("c", "d"))
        result = find_k_shortest_hyperpaths(store, HyperpathQuery(frozenset({NodeId("a")}), frozenset({NodeId("d")})))
        assert result.status is TraversalStatus.FOUND
        (path,) = result.paths
        assert path.hyperedges == ("e0", "e1", "e2")
        assert path.joints == (("b",), ("c",))
        assert (path.start_node, path.end_node) == ("a", "d")

    def test_max_len_below_the_shortest_length_is_path_not_found(self) -> None:
        store = _chain(("a", "b"), ("b", "c"), ("c", "d"))
        query = HyperpathQuery(frozenset({NodeId("a")}), frozenset({NodeId("d")}), max_len=2)
        result = find_k_shortest_hyperpaths(store, query)
        assert result.status is TraversalStatus.PATH_NOT_FOUND
        assert result.paths == ()

    def test_is_2_needs_two_shared_nodes_per_step(self) -> None:
        store = _chain(("a", "x", "y"), ("x", "y", "z"), ("z", "d"), ("x", "d"))
        starts, ends = frozenset({NodeId("a")}), frozenset({NodeId("d")})
        assert _sequences(store, HyperpathQuery(starts, ends, k=5, intersection_size=1)) == [
            ("e0", "e3"),
            ("e0", "e1", "e2"),
            ("e0", "e1", "e3"),
        ]
        assert find_k_shortest_hyperpaths(store, HyperpathQuery(starts, ends, intersection_size=2)).paths == ()
        wider = _chain(("a", "x", "y"), ("x", "y", "z"), ("y", "z", "d"))
        assert _sequences(wider, HyperpathQuery(starts, ends, intersection_size=2)) == [("e0", "e1", "e2")]
        assert _sequences(wider, HyperpathQuery(starts, ends, intersection_size=3)) == []

    def test_a_node_in_both_sets_is_reached_by_one_hyperedge(self) -> None:
        store = _chain(("a", "b"), ("b", "c"))
        both = frozenset({NodeId("b")})
        assert _sequences(store, HyperpathQuery(both, both, k=5)) == [("e0",), ("e1",)]

    def test_unknown_nodes_are_no_match_and_isolated_nodes_are_path_not_found(self) -> None:
        store = _store(
            HypergraphContents(
                (HypergraphNode(NodeId("a"), "a"), HypergraphNode(NodeId("lonely"), "lonely")),
                (Hyperedge(HyperedgeId("e"), "rel", (NodeId("a"),)),),
            )
        )
        unknown = HyperpathQuery(frozenset({NodeId("a")}), frozenset({NodeId("missing")}))
        isolated = HyperpathQuery(frozenset({NodeId("a")}), frozenset({NodeId("lonely")}))
        assert find_k_shortest_hyperpaths(store, unknown).status is TraversalStatus.NO_MATCH
        assert find_k_shortest_hyperpaths(store, isolated).status is TraversalStatus.PATH_NOT_FOUND


class TestDeterminism:
    def test_ties_break_on_hyperedge_ids_whatever_the_input_order(self) -> None:
        rng = random.Random(5)
        for _ in range(100):
            case = random_case(rng, max_nodes=10, max_edges=15)
            shuffled = list(case.contents.hyperedges)
            rng.shuffle(shuffled)
            reordered = HypergraphContents(tuple(reversed(case.contents.nodes)), tuple(shuffled))
            query = _query(case, k=4)
            assert _sequences(_store(case.contents), query) == _sequences(_store(reordered), query)

    def test_equal_length_paths_come_in_ascending_id_order(self) -> None:
        store = _chain(("a", "m2"), ("m2", "d"), ("a", "m1"), ("m1", "d"))
        query = HyperpathQuery(frozenset({NodeId("a")}), frozenset({NodeId("d")}), k=2)
        assert _sequences(store, query) == [("e0", "e1"), ("e2", "e3")]


class TestQueryLimits:
    @pytest.mark.parametrize(("k", "s", "max_len"), [(0, 1, 6), (3, 0, 6), (3, 1, 0), (101, 1, 6), (3, 9, 6)])
    def test_settings_outside_the_limits_are_named_and_refused(self, k: int, s: int, max_len: int) -> None:
        assert query_limits_problem(k, s, max_len) is not None
        with pytest.raises(ValueError):
            HyperpathQuery(frozenset(), frozenset(), k, s, max_len)

    def test_settings_inside_the_limits_are_accepted(self) -> None:
        assert query_limits_problem(3, 2, 6) is None


def test_is_valid_hyperpath_rejects_a_path_that_touches_the_end_early() -> None:
    store = _chain(("a", "b"), ("b", "d"), ("d", "c"))
    query = HyperpathQuery(frozenset({NodeId("a")}), frozenset({NodeId("d"), NodeId("c")}))
    (path,) = find_k_shortest_hyperpaths(store, query).paths
    assert path.hyperedges == ("e0", "e1")
    longer = type(path)((*path.hyperedges, HyperedgeId("e2")), path.start_node, NodeId("c"), (*path.joints, ("d",)))
    assert not is_valid_hyperpath(store, longer, query)
    assert all(len(set(store.members(a)) & set(store.members(b))) >= 1 for a, b in pairwise(longer.hyperedges))

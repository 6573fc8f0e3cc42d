"""Terms in, paths and an evidence record out; the 0-10 score; nothing fabricated without a path."""

from __future__ import annotations

import pytest

from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphNode,
    NodeId,
    Provenance,
    ProvenanceRef,
)
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.k_shortest_hyperpaths import Hyperpath, HyperpathQuery, HyperpathResult, TraversalStatus
from forge.core.hkg.node_matching import MatchMethod, NodeCandidate, NodeMatcher, TermMatch
from forge.core.hkg.structural_grounding import (
    GroundingRequest,
    GroundingStatus,
    HyperpathEvidence,
    ground_terms,
    structural_grounding_score,
)
from forge.core.hkg.traversal_cache import TraversalCache


@pytest.fixture
def store() -> HypergraphStore:
    labels = {"heat": "heat", "flow": "flow", "queue": "queue", "wait": "waiting time", "island": "island"}
    nodes = tuple(HypergraphNode(NodeId(i), label) for i, label in labels.items())
    edges = (
        Hyperedge(HyperedgeId("e1"), "drives", (NodeId("heat"), NodeId("flow")), (Provenance("a.md", "p1", "SECRET"),)),
        Hyperedge(HyperedgeId("e2"), "limits", (NodeId("flow"), NodeId("queue")), (Provenance("b.md", "p2"),)),
        Hyperedge(HyperedgeId("e3"), "causes", (NodeId("queue"), NodeId("wait"))),
        Hyperedge(HyperedgeId("e4"), "alone", (NodeId("island"),)),
    )
    built = build_hypergraph_store(HypergraphContents(nodes, edges))
    assert isinstance(built, HypergraphStore)
    return built


def _ground(store: HypergraphStore, hypothesis: list[str], frame: list[str]) -> HyperpathEvidence:
    request = GroundingRequest.for_hyperpath_expand(hypothesis, frame)
    return ground_terms(TraversalCache(store), NodeMatcher(store), request)


def test_found_paths_give_an_evidence_record_of_ids_and_provenance_references(store: HypergraphStore) -> None:
    evidence = _ground(store, ["heat"], ["waiting time"])
    assert evidence.status is GroundingStatus.PATH_FOUND
    assert evidence.status.event_name == "HKG_PATH_FOUND"
    assert evidence.hyperedge_ids == ("e1", "e2", "e3")
    assert evidence.node_ids == ("heat", "flow", "queue", "wait")
    assert evidence.provenance == (
        ProvenanceRef(HyperedgeId("e1"), "a.md", "p1"),
        ProvenanceRef(HyperedgeId("e2"), "b.md", "p2"),
    )
    assert "SECRET" not in repr(evidence)
    assert 0 < evidence.score <= 10


def test_no_path_means_no_paths_no_ids_no_provenance_and_score_zero(store: HypergraphStore) -> None:
    evidence = _ground(store, ["heat"], ["island"])
    assert evidence.status is GroundingStatus.PATH_NOT_FOUND
    assert evidence.status.event_name == "HKG_PATH_NOT_FOUND"
    assert (evidence.paths, evidence.node_ids, evidence.hyperedge_ids, evidence.provenance) == ((), (), (), ())
    assert evidence.score == 0.0


def test_unmatched_terms_are_no_match_with_score_zero(store: HypergraphStore) -> None:
    evidence = _ground(store, ["zebra"], ["heat"])
    assert evidence.status is GroundingStatus.NO_MATCH
    assert evidence.query is None and evidence.score == 0.0


def test_hyperbridge_requests_ask_for_at_least_two_paths_at_is_1() -> None:
    request = GroundingRequest.for_hyperbridge(["a"], ["b"], k=1)
    assert (request.k, request.intersection_size) == (2, 1)


def _result(lengths: list[int], k: int = 3) -> HyperpathResult:
    query = HyperpathQuery(frozenset({NodeId("s")}), frozenset({NodeId("t")}), k)
    paths = tuple(
        Hyperpath(tuple(HyperedgeId(f"e{i}") for i in range(n)), NodeId("s"), NodeId("t"), ()) for n in lengths
    )
    return HyperpathResult(query, TraversalStatus.FOUND if paths else TraversalStatus.PATH_NOT_FOUND, paths)


def _matches(*confidences: float | None) -> tuple[TermMatch, ...]:
    return tuple(
        TermMatch(f"t{i}", () if c is None else (NodeCandidate(NodeId(f"n{i}"), "x", c, MatchMethod.EXACT, 1.0, None),))
        for i, c in enumerate(confidences)
    )


class TestScore:
    def test_the_best_case_scores_ten_and_no_path_scores_zero(self) -> None:
        assert structural_grounding_score(_result([1, 1, 1]), _matches(1.0), _matches(1.0)) == 10.0
        assert structural_grounding_score(_result([]), _matches(1.0), _matches(1.0)) == 0.0

    def test_longer_shortest_paths_score_lower(self) -> None:
        scores = [structural_grounding_score(_result([n] * 3), _matches(1.0), _matches(1.0)) for n in range(1, 7)]
        assert scores == sorted(scores, reverse=True) and len(set(scores)) == 6

    def test_more_paths_more_coverage_and_more_confidence_each_score_higher(self) -> None:
        base = structural_grounding_score(_result([2]), _matches(0.6, None), _matches(0.6))
        assert structural_grounding_score(_result([2, 3]), _matches(0.6, None), _matches(0.6)) > base
        assert structural_grounding_score(_result([2]), _matches(0.6, 0.6), _matches(0.6)) > base
        assert structural_grounding_score(_result([2]), _matches(0.9, None), _matches(0.9)) > base

    def test_scores_stay_within_zero_and_ten(self) -> None:
        for lengths in ([1], [6, 6], [16] * 3):
            for confidence in (0.01, 0.5, 1.0):
                score = structural_grounding_score(_result(lengths), _matches(confidence), _matches(confidence, None))
                assert 0.0 <= score <= 10.0


def _paths_from(starts: list[str], lengths: list[int], asked: int = 3) -> HyperpathResult:
    query = HyperpathQuery(frozenset(NodeId(f"s{i}") for i in range(asked)), frozenset({NodeId("t")}), 3)
    paths = tuple(
        Hyperpath(tuple(HyperedgeId(f"e{i}") for i in range(n)), NodeId(s), NodeId("t"), ())
        for s, n in zip(starts, lengths, strict=True)
    )
    return HyperpathResult(query, TraversalStatus.FOUND, paths)


def test_paths_reaching_more_of_the_hypothesis_score_higher_and_detours_cost() -> None:
    one_term = structural_grounding_score(_paths_from(["s0", "s0", "s0"], [2, 2, 2]), _matches(1.0), _matches(1.0))
    three_terms = structural_grounding_score(_paths_from(["s0", "s1", "s2"], [2, 2, 2]), _matches(1.0), _matches(1.0))
    assert three_terms > one_term
    direct = structural_grounding_score(_paths_from(["s0", "s1", "s2"], [1, 1, 1]), _matches(1.0), _matches(1.0))
    detour = structural_grounding_score(_paths_from(["s0", "s1", "s2"], [1, 1, 2]), _matches(1.0), _matches(1.0))
    assert direct == 10.0 and three_terms < detour < direct

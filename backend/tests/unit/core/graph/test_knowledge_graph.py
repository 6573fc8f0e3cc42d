"""Knowledge-graph invariants: endpoints must exist, no duplicates, the graph stays a DAG."""

from __future__ import annotations

from itertools import pairwise
from uuid import UUID

from forge.core.domain_types import ClaimId, EdgeId, EdgeType
from forge.core.graph.knowledge_graph import check_edge_allowed
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.records import Edge

A, B, C, D, E = (ClaimId(UUID(int=n)) for n in range(1, 6))
NODES = [A, B, C, D, E]


def edge(source: ClaimId, target: ClaimId, edge_type: EdgeType = EdgeType.SUPPORTS, n: int = 0) -> Edge:
    return Edge(EdgeId(UUID(int=1000 + n)), source, target, edge_type)


def chain(*nodes: ClaimId) -> list[Edge]:
    return [edge(s, t, n=i) for i, (s, t) in enumerate(pairwise(nodes))]


# ---- check_edge_allowed ----------------------------------------------------------------------


def test_accepts_an_edge_between_two_graph_nodes() -> None:
    assert check_edge_allowed(NODES, [], A, B, EdgeType.SUPPORTS) is None


def test_accepts_every_edge_type_on_an_empty_graph() -> None:
    for edge_type in EdgeType:
        assert check_edge_allowed(NODES, [], A, B, edge_type) is None


def test_accepts_extending_a_chain_forward() -> None:
    assert check_edge_allowed(NODES, chain(A, B, C), C, D, EdgeType.EXTENDS) is None


def test_accepts_a_diamond() -> None:
    edges = [edge(A, B, n=1), edge(A, C, n=2), edge(B, D, n=3)]
    assert check_edge_allowed(NODES, edges, C, D, EdgeType.SUPPORTS) is None


def test_accepts_a_shortcut_edge_along_an_existing_path() -> None:
    assert check_edge_allowed(NODES, chain(A, B, C), A, C, EdgeType.DEPENDS_ON) is None


def test_accepts_a_second_edge_of_another_type_between_the_same_nodes() -> None:
    assert check_edge_allowed(NODES, [edge(A, B, EdgeType.SUPPORTS)], A, B, EdgeType.EXTENDS) is None


def test_refuses_a_self_loop() -> None:
    violation = check_edge_allowed(NODES, [], A, A, EdgeType.SUPPORTS)
    assert violation is not None
    assert violation.code == ErrorCode.GRAPH_CYCLE
    assert "DAG" in violation.message


def test_refuses_a_two_cycle() -> None:
    violation = check_edge_allowed(NODES, [edge(A, B)], B, A, EdgeType.CONTRADICTS)
    assert violation is not None
    assert violation.code == ErrorCode.GRAPH_CYCLE


def test_refuses_a_longer_cycle() -> None:
    violation = check_edge_allowed(NODES, chain(A, B, C, D, E), E, A, EdgeType.SUPERSEDES)
    assert violation is not None
    assert violation.code == ErrorCode.GRAPH_CYCLE
    assert str(E) in violation.message
    assert str(A) in violation.message


def test_refuses_a_cycle_regardless_of_edge_types_along_the_path() -> None:
    edges = [edge(A, B, EdgeType.DEPENDS_ON, 1), edge(B, C, EdgeType.MERGED_FROM, 2)]
    violation = check_edge_allowed(NODES, edges, C, A, EdgeType.SUPPORTS)
    assert violation is not None
    assert violation.code == ErrorCode.GRAPH_CYCLE


def test_refuses_an_unknown_source_naming_it() -> None:
    stranger = ClaimId(UUID(int=99))
    violation = check_edge_allowed(NODES, [], stranger, A, EdgeType.SUPPORTS)
    assert violation is not None
    assert violation.code == ErrorCode.CLAIM_NOT_FOUND
    assert str(stranger) in violation.message


def test_refuses_an_unknown_target_naming_it() -> None:
    stranger = ClaimId(UUID(int=99))
    violation = check_edge_allowed(NODES, [], A, stranger, EdgeType.SUPPORTS)
    assert violation is not None
    assert violation.code == ErrorCode.CLAIM_NOT_FOUND
    assert str(stranger) in violation.message
    assert str(A) not in violation.message


def test_refuses_edges_on_an_empty_graph() -> None:
    violation = check_edge_allowed([], [], A, B, EdgeType.SUPPORTS)
    assert violation is not None
    assert violation.code == ErrorCode.CLAIM_NOT_FOUND


def test_refuses_a_duplicate_edge() -> None:
    violation = check_edge_allowed(NODES, [edge(A, B, EdgeType.SUPPORTS)], A, B, EdgeType.SUPPORTS)
    assert violation is not None
    assert violation.code == ErrorCode.INVALID_INPUT
    assert "exists" in violation.message


def test_accepts_nodes_given_as_a_generator() -> None:
    assert check_edge_allowed((n for n in NODES), [], A, B, EdgeType.SUPPORTS) is None

"""Knowledge-graph invariants: the graph of claims is a DAG with six typed edge kinds.

Invariants:
    - An edge whose endpoints are not both graph nodes is refused.
    - An edge that would close a cycle (including a self-loop) is refused; the graph stays acyclic.
    - A duplicate edge (same source, target and type) is refused.

Design decisions:
    - The graph question (is there a path back from the target to the source) is networkx's: a maintained, pure-Python
      graph library, so the core stays pure and nothing here re-implements a traversal.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from forge.core.domain_types import ClaimId, EdgeType
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.records import Edge


def claims_digraph(nodes: Iterable[ClaimId], edges: Iterable[Edge]) -> nx.DiGraph:
    """The claims as a directed graph (parallel links of different types are one arc here)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((edge.source, edge.target) for edge in edges)
    return graph


def check_edge_allowed(
    nodes: Iterable[ClaimId], edges: list[Edge], source: ClaimId, target: ClaimId, edge_type: EdgeType
) -> RuleViolation | None:
    node_set = set(nodes)
    missing = [str(n) for n in (source, target) if n not in node_set]
    if missing:
        return RuleViolation(ErrorCode.CLAIM_NOT_FOUND, f"Not in the knowledge graph: {', '.join(missing)}.")
    if any(e.source == source and e.target == target and e.edge_type == edge_type for e in edges):
        return RuleViolation(ErrorCode.INVALID_INPUT, f"The edge {source} -{edge_type.value}-> {target} exists.")
    if source == target or nx.has_path(claims_digraph(node_set, edges), target, source):
        return RuleViolation(
            ErrorCode.GRAPH_CYCLE,
            f"The edge {source} -{edge_type.value}-> {target} would close a cycle; the graph must stay a DAG.",
        )
    return None

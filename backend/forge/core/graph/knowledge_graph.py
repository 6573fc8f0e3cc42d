"""Knowledge-graph invariants: the graph of claims is a DAG with six typed edge kinds.

Invariants:
    - An edge whose endpoints are not both graph nodes is refused.
    - An edge that would close a cycle (including a self-loop) is refused; the graph stays acyclic.
    - A duplicate edge (same source, target and type) is refused.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from forge.core.domain_types import ClaimId, EdgeType
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.records import Edge


def _reachable(edges: Iterable[Edge], start: ClaimId, goal: ClaimId) -> bool:
    successors: dict[ClaimId, list[ClaimId]] = defaultdict(list)
    for edge in edges:
        successors[edge.source].append(edge.target)
    stack, seen = [start], {start}
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        for nxt in successors[node]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


def check_edge_allowed(
    nodes: Iterable[ClaimId], edges: list[Edge], source: ClaimId, target: ClaimId, edge_type: EdgeType
) -> RuleViolation | None:
    node_set = set(nodes)
    missing = [str(n) for n in (source, target) if n not in node_set]
    if missing:
        return RuleViolation(ErrorCode.CLAIM_NOT_FOUND, f"Not in the knowledge graph: {', '.join(missing)}.")
    if any(e.source == source and e.target == target and e.edge_type == edge_type for e in edges):
        return RuleViolation(ErrorCode.INVALID_INPUT, f"The edge {source} -{edge_type.value}-> {target} exists.")
    if source == target or _reachable(edges, target, source):
        return RuleViolation(
            ErrorCode.GRAPH_CYCLE,
            f"The edge {source} -{edge_type.value}-> {target} would close a cycle; the graph must stay a DAG.",
        )
    return None


def topological_depths(nodes: Iterable[ClaimId], edges: Iterable[Edge]) -> dict[ClaimId, int]:
    """Longest-path depth of every node (roots at 0); used to lay the graph out in layers."""
    node_list = list(nodes)
    edge_list = [e for e in edges if e.source in set(node_list) and e.target in set(node_list)]
    indegree = dict.fromkeys(node_list, 0)
    for e in edge_list:
        indegree[e.target] += 1
    depth = dict.fromkeys(node_list, 0)
    frontier = [n for n in node_list if indegree[n] == 0]
    while frontier:
        node = frontier.pop(0)
        for e in (e for e in edge_list if e.source == node):
            depth[e.target] = max(depth[e.target], depth[node] + 1)
            indegree[e.target] -= 1
            if indegree[e.target] == 0:
                frontier.append(e.target)
    return depth

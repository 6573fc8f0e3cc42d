"""The path navigator (seed 002 §1–§5): which nodes of a graph to bring into a call's context.

A walk over a graph of text nodes (the session's knowledge graph, or the HKG seen as a graph: two
nodes are neighbours when a hyperedge holds both) that picks the nodes worth reading for a query,
under step, edge and token budgets.

Invariants:
    - State at a node (seed §1): its query relevance, its degree, and its 1-hop neighbourhood's mean
      relevance. Relevance is the cosine of match-key sets (`core.text_terms`), as in the curator.
    - Actions: CONTINUE to the unvisited neighbour with the best shaped utility
          relevance + NEIGHBOURHOOD_WEIGHT·beyond − redundancy_weight·redundancy
          − lambda_tokens·tokens − lambda_edge
      (beyond: the mean relevance of its neighbours not visited yet — where the hop leads;
      redundancy: the largest similarity to a node already selected); BACKTRACK to the node before
      when no neighbour's utility is positive; STOP when the path is back at its start with nothing
      positive left (the stop rule: the termination decision is that utility, not a learnt head),
      or when a budget would be exceeded.
    - Budgets: `max_steps` actions, `max_edges` edges examined (each neighbour looked at costs
      one), `max_tokens` of selected node text; none is ever exceeded. The start node (the most
      relevant node unless given) is selected first when it fits.
    - Every action is recorded (`NavigationStep`) with its node, utility and the budgets used.
    - Thin regions: selected nodes that are relevant (≥ THIN_RELEVANCE) but have at most
      THIN_DEGREE neighbours — where the graph knows little about what the query needs.
    - Deterministic: ties break by node order; pure (no IO), the token counter is passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations

from forge.core.curation.listwise_selection import term_similarity
from forge.core.research.text_terms import match_keys
from forge.core.session.records import Claim, Edge

NEIGHBOURHOOD_WEIGHT = 0.2
THIN_RELEVANCE = 0.2
THIN_DEGREE = 1
MAX_CLIQUE = 8  # a hyperedge with more members links each to its first member only


class Action(StrEnum):
    START = "start"
    CONTINUE = "continue"
    BACKTRACK = "backtrack"
    STOP = "stop"


class StopReason(StrEnum):
    STOP_RULE = "stop_rule"
    STEP_BUDGET = "step_budget"
    EDGE_BUDGET = "edge_budget"
    TOKEN_BUDGET = "token_budget"
    EMPTY_GRAPH = "empty_graph"


@dataclass(frozen=True, slots=True)
class NavNode:
    id: str
    text: str


@dataclass(frozen=True, slots=True)
class NavEdge:
    source: str
    target: str
    relation: str


@dataclass(frozen=True, slots=True)
class NavigationBudget:
    max_steps: int = 12
    max_edges: int = 60
    max_tokens: int = 1_500
    lambda_tokens: float = 0.0002
    lambda_edge: float = 0.01
    redundancy_weight: float = 0.3


@dataclass(frozen=True, slots=True)
class NodeState:
    node_id: str
    relevance: float
    degree: int
    neighbourhood: float


@dataclass(frozen=True, slots=True)
class NavigationStep:
    action: Action
    node_id: str
    via: str
    utility: float
    steps_used: int
    edges_used: int
    tokens_used: int


@dataclass(frozen=True, slots=True)
class Navigation:
    selected: tuple[str, ...]
    steps: tuple[NavigationStep, ...]
    stop_reason: StopReason
    tokens_used: int
    edges_used: int
    thin: tuple[str, ...]
    states: dict[str, NodeState] = field(default_factory=dict)


class _Graph:
    def __init__(self, nodes: Sequence[NavNode], edges: Sequence[NavEdge], query: str) -> None:
        self.order = {n.id: i for i, n in enumerate(nodes)}
        self.text = {n.id: n.text for n in nodes}
        self.keys = {n.id: match_keys(n.text) for n in nodes}
        self.neighbours: dict[str, list[tuple[str, str]]] = {n.id: [] for n in nodes}
        for e in edges:
            if e.source in self.order and e.target in self.order and e.source != e.target:
                self.neighbours[e.source].append((e.target, e.relation))
                self.neighbours[e.target].append((e.source, e.relation))
        query_keys = match_keys(query)
        self.relevance = {n.id: term_similarity(query_keys, self.keys[n.id]) for n in nodes}

    def state(self, node_id: str) -> NodeState:
        around = [self.relevance[n] for n, _ in self.neighbours[node_id]]
        mean = sum(around) / len(around) if around else 0.0
        return NodeState(node_id, self.relevance[node_id], len(self.neighbours[node_id]), mean)


@dataclass
class _Walk:
    graph: _Graph
    budget: NavigationBudget
    count: Callable[[str], int]
    selected: list[str] = field(default_factory=list)
    visited: set[str] = field(default_factory=set)
    seen_edges: set[tuple[str, str]] = field(default_factory=set)
    steps: list[NavigationStep] = field(default_factory=list)
    tokens: int = 0

    def record(self, action: Action, node_id: str, via: str, utility: float) -> None:
        self.steps.append(
            NavigationStep(action, node_id, via, round(utility, 4), len(self.steps), len(self.seen_edges), self.tokens)
        )

    def select(self, node_id: str) -> None:
        self.visited.add(node_id)
        self.tokens += self.count(self.graph.text[node_id])
        self.selected.append(node_id)

    def utility(self, node_id: str) -> float:
        g, b = self.graph, self.budget
        redundancy = max((term_similarity(g.keys[node_id], g.keys[s]) for s in self.selected), default=0.0)
        beyond = [g.relevance[n] for n, _ in g.neighbours[node_id] if n not in self.visited]
        return (
            g.relevance[node_id]
            + NEIGHBOURHOOD_WEIGHT * (sum(beyond) / len(beyond) if beyond else 0.0)
            - b.redundancy_weight * redundancy
            - b.lambda_tokens * self.count(g.text[node_id])
            - b.lambda_edge
        )

    def best_hop(self, at: str) -> tuple[str, str, float] | StopReason | None:
        """The best unvisited neighbour of `at` (examining costs edges), a budget that ran out, or None."""
        best: tuple[str, str, float] | None = None
        for neighbour, relation in self.graph.neighbours[at]:
            edge = (at, neighbour)
            if neighbour in self.visited:
                continue
            if edge not in self.seen_edges:
                if len(self.seen_edges) >= self.budget.max_edges:
                    return StopReason.EDGE_BUDGET
                self.seen_edges.add(edge)
            gain = self.utility(neighbour)
            if best is None or gain > best[2]:
                best = (neighbour, relation, gain)
        return best if best is not None and best[2] > 0 else None


def _start(graph: _Graph, nodes: Sequence[NavNode], start: str | None) -> str:
    if start is not None and start in graph.order:
        return start
    return max((n.id for n in nodes), key=lambda n: (graph.relevance[n], -graph.order[n]))


def _walk(walk: _Walk, first: str) -> StopReason:
    path = [first]
    while True:
        if len(walk.steps) >= walk.budget.max_steps:
            return StopReason.STEP_BUDGET
        hop = walk.best_hop(path[-1])
        if isinstance(hop, StopReason):
            return hop
        if hop is None:
            if len(path) == 1:
                walk.record(Action.STOP, path[-1], "", 0.0)
                return StopReason.STOP_RULE
            path.pop()
            walk.record(Action.BACKTRACK, path[-1], "", 0.0)
            continue
        node_id, relation, gain = hop
        if walk.tokens + walk.count(walk.graph.text[node_id]) > walk.budget.max_tokens:
            return StopReason.TOKEN_BUDGET
        walk.select(node_id)
        path.append(node_id)
        walk.record(Action.CONTINUE, node_id, relation, gain)


def navigate(
    query: str,
    nodes: Sequence[NavNode],
    edges: Sequence[NavEdge],
    budget: NavigationBudget,
    count: Callable[[str], int],
    start: str | None = None,
) -> Navigation:
    """Walk from `start` (default: the most relevant node) choosing what to bring into context."""
    if not nodes:
        return Navigation((), (), StopReason.EMPTY_GRAPH, 0, 0, ())
    graph = _Graph(nodes, edges, query)
    walk = _Walk(graph, budget, count)
    first = _start(graph, nodes, start)
    if count(graph.text[first]) > budget.max_tokens or budget.max_steps <= 0:
        return Navigation((), (), StopReason.TOKEN_BUDGET, 0, 0, ())
    walk.select(first)
    walk.record(Action.START, first, "", graph.relevance[first])
    reason = _walk(walk, first)
    states = {n: graph.state(n) for n in walk.selected}
    thin = tuple(n for n in walk.selected if states[n].relevance >= THIN_RELEVANCE and states[n].degree <= THIN_DEGREE)
    return Navigation(tuple(walk.selected), tuple(walk.steps), reason, walk.tokens, len(walk.seen_edges), thin, states)


def hypergraph_as_graph(
    nodes: Sequence[tuple[str, str]], hyperedges: Sequence[tuple[str, Sequence[str]]]
) -> tuple[list[NavNode], list[NavEdge]]:
    """(id, label) nodes and (relation, members) hyperedges as a navigable graph: members of a
    hyperedge are neighbours (a clique up to MAX_CLIQUE members, else a star on the first member)."""
    edges: list[NavEdge] = []
    for relation, members in hyperedges:
        unique = list(dict.fromkeys(members))
        pairs = combinations(unique, 2) if len(unique) <= MAX_CLIQUE else ((unique[0], m) for m in unique[1:])
        edges += [NavEdge(a, b, relation) for a, b in pairs]
    return [NavNode(i, label) for i, label in nodes], edges


def knowledge_graph_as_graph(claims: Sequence[Claim], edges: Sequence[Edge]) -> tuple[list[NavNode], list[NavEdge]]:
    """The session's knowledge graph (claims and their typed edges) as a navigable graph."""
    nodes = [NavNode(str(c.id), c.text) for c in claims]
    return nodes, [NavEdge(str(e.source), str(e.target), e.edge_type.value) for e in edges]

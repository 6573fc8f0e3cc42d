"""What the path navigator finds in a session's graphs: thin regions (curiosity) and deep-dive neighbours.

Two uses of `path_navigator.navigate` (seed 002 §1–§5), both pure:
    - `find_curiosity`: a walk over the session's knowledge graph (and, when given, the part of the
      HKG around the query) for the query "what the session is about"; every thin node the walk
      selected (relevant, but with at most THIN_DEGREE neighbours) becomes a `CuriosityItem` — a
      next-round direction offered at the build review ("seed 002 §4: curiosity").
    - `deep_dive_neighbours`: a walk that starts at the deep-dive target, for the target's own text;
      the claims it selected besides the target (with the relation it came through) are what the
      deep-dive round brings into context.

Invariants:
    - The navigator's budgets bound both walks (never exceeded: `navigate` guarantees it).
    - Curiosity item ids are stable for the same node ("kg:<claim id>", "hkg:<node id>"), so an id the
      person picks still names the same item when the payload is rebuilt.
    - At most MAX_CURIOSITY items, most relevant first; ties keep the walk's order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from forge.core.curation.path_navigator import (
    Action,
    Navigation,
    NavigationBudget,
    NavNode,
    hypergraph_as_graph,
    knowledge_graph_as_graph,
    navigate,
)
from forge.core.session.records import Claim, Edge

MAX_CURIOSITY = 5
SHORT_TEXT = 160


@dataclass(frozen=True, slots=True)
class CuriosityItem:
    """A thin region of a graph, offered as a next-round direction."""

    id: str
    source: str  # "session_graph" | "hkg"
    node_id: str
    node_text: str
    question: str
    relevance: float
    neighbours: int


@dataclass(frozen=True, slots=True)
class HkgNeighbourhood:
    """The part of the HKG around a query: (id, label) nodes and (relation, members) hyperedges.
    `seeds` are the nodes the query matched: only they have every hyperedge of theirs in it, so only
    they can be judged thin (a node at the rim looks barely connected because the rest was cut)."""

    nodes: tuple[tuple[str, str], ...] = ()
    hyperedges: tuple[tuple[str, tuple[str, ...]], ...] = ()
    seeds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GapScan:
    """The walks `find_curiosity` made (one per graph) and the curiosity items they found."""

    session_walk: Navigation
    hkg_walk: Navigation | None
    items: tuple[CuriosityItem, ...]


@dataclass(frozen=True, slots=True)
class Neighbour:
    claim: Claim
    relation: str
    relevance: float


def _short(text: str) -> str:
    return text if len(text) <= SHORT_TEXT else text[: SHORT_TEXT - 1] + "…"


def _question(text: str, degree: int, source: str) -> str:
    where = "the session's knowledge graph" if source == "session_graph" else "the knowledge hypergraph"
    links = "nothing else" if degree == 0 else f"only {degree} other node"
    return f"What else bears on “{_short(text)}”? In {where} it connects to {links}."


def _items(
    walk: Navigation, nodes: Sequence[NavNode], source: str, prefix: str, judged: frozenset[str] | None = None
) -> list[CuriosityItem]:
    text = {n.id: n.text for n in nodes}
    items = []
    for node_id in walk.thin:
        if judged is not None and node_id not in judged:
            continue
        state = walk.states[node_id]
        question = _question(text[node_id], state.degree, source)
        items.append(
            CuriosityItem(
                f"{prefix}:{node_id}", source, node_id, text[node_id], question, round(state.relevance, 4), state.degree
            )
        )
    return items


def find_curiosity(
    query: str,
    claims: Sequence[Claim],
    edges: Sequence[Edge],
    budget: NavigationBudget,
    count: Callable[[str], int],
    hkg: HkgNeighbourhood | None = None,
) -> GapScan:
    """Walk the session graph (and the HKG neighbourhood, if any) for `query`; thin nodes → curiosity."""
    nodes, links = knowledge_graph_as_graph(claims, edges)
    session_walk = navigate(query, nodes, links, budget, count)
    found = _items(session_walk, nodes, "session_graph", "kg")
    hkg_walk = None
    if hkg is not None and hkg.nodes:
        hkg_nodes, hkg_links = hypergraph_as_graph(hkg.nodes, hkg.hyperedges)
        hkg_walk = navigate(query, hkg_nodes, hkg_links, budget, count)
        found += _items(hkg_walk, hkg_nodes, "hkg", "hkg", frozenset(hkg.seeds))
    ranked = sorted(enumerate(found), key=lambda pair: (-pair[1].relevance, pair[0]))
    return GapScan(session_walk, hkg_walk, tuple(item for _, item in ranked[:MAX_CURIOSITY]))


def deep_dive_neighbours(
    target: Claim,
    claims: Sequence[Claim],
    edges: Sequence[Edge],
    budget: NavigationBudget,
    count: Callable[[str], int],
) -> tuple[tuple[Neighbour, ...], Navigation]:
    """The claims a walk from `target` (for its own text) brings into the deep-dive's context."""
    nodes, links = knowledge_graph_as_graph(claims, edges)
    walk = navigate(target.text, nodes, links, budget, count, start=str(target.id))
    by_id = {str(c.id): c for c in claims}
    via: dict[str, str] = {}
    for step in walk.steps:
        if step.action == Action.CONTINUE:
            via.setdefault(step.node_id, step.via)
    neighbours = tuple(
        Neighbour(by_id[n], via.get(n, ""), round(walk.states[n].relevance, 4))
        for n in walk.selected
        if n != str(target.id)
    )
    return neighbours, walk


def navigation_view(walk: Navigation) -> dict[str, object]:
    """A walk's summary for a tool result or a brief: what it selected, why it stopped, what it used."""
    return {
        "selected": list(walk.selected),
        "stop_reason": walk.stop_reason.value,
        "steps": len(walk.steps),
        "edges_examined": walk.edges_used,
        "tokens": walk.tokens_used,
    }

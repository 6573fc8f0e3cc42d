"""The part of the HKG around a query: what the path navigator walks when it looks beyond the session.

Invariants:
    - Seeds are the nodes the matcher finds for the query's distinct content terms (at most
      MAX_TERMS terms, SEEDS_PER_TERM nodes each, most confident first).
    - The neighbourhood holds the seeds, then the members of hyperedges that contain a seed, in the
      store's hyperedge order, until `limit` nodes; a hyperedge enters with its members cut to the
      nodes kept (a hyperedge left with fewer than two members is left out). Deterministic and pure.
"""

from __future__ import annotations

from forge.core.curation.graph_gaps import HkgNeighbourhood
from forge.core.hkg.hypergraph_store import HypergraphStore
from forge.core.hkg.node_matching import NodeMatcher
from forge.core.text_terms import content_terms

MAX_TERMS = 12
SEEDS_PER_TERM = 2


def _seeds(matcher: NodeMatcher, query: str, limit: int) -> list[str]:
    seeds: dict[str, None] = {}
    for term in list(dict.fromkeys(content_terms(query)))[:MAX_TERMS]:
        for candidate in matcher.match(term, limit=SEEDS_PER_TERM).candidates:
            seeds.setdefault(candidate.node_id)
    return list(seeds)[:limit]


def hkg_neighbourhood(store: HypergraphStore, matcher: NodeMatcher, query: str, limit: int) -> HkgNeighbourhood:
    """The seeds of `query` and their hyperedge neighbours, at most `limit` nodes."""
    kept = dict.fromkeys(_seeds(matcher, query, limit))
    seeds = set(kept)
    touching = [e for e in store.hyperedges if seeds.intersection(e.members)]
    for edge in touching:
        for member in edge.members:
            if len(kept) >= limit:
                break
            kept.setdefault(member)
    hyperedges = []
    for edge in touching:
        members = tuple(m for m in edge.members if m in kept)
        if len(members) >= 2:
            hyperedges.append((edge.relation, members))
    nodes = []
    for node_id in kept:
        node = store.node(node_id)
        if node is not None:
            nodes.append((str(node_id), " ".join((node.label, *node.aliases))))
    return HkgNeighbourhood(tuple(nodes), tuple((r, tuple(str(m) for m in ms)) for r, ms in hyperedges))

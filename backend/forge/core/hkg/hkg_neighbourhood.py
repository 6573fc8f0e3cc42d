"""The part of the HKG around a query: what the path navigator walks when it looks beyond the session.

Invariants:
    - Seeds are the nodes the matcher finds for the query's distinct content terms (`seed_terms`: at
      most MAX_TERMS terms, SEEDS_PER_TERM nodes each, most confident first). Each term is matched with
      its vector when the shell gives one (the matcher then fuses its words and its meaning, as it does
      for SEARCH's grounding), so a query word no node name holds can seed the node it means.
    - The neighbourhood holds the seeds (at most limit/SEED_SHARE), then for each seed in turn an equal
      share of the members of its hyperedges (store order), never more than `limit` nodes; a hyperedge
      enters with its members cut to the nodes kept (fewer than two left: left out). Deterministic, pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from forge.core.curation.graph_gaps import HkgNeighbourhood
from forge.core.hkg.hypergraph_records import NodeId
from forge.core.hkg.hypergraph_store import HypergraphStore
from forge.core.hkg.node_matching import NodeMatcher
from forge.core.research.text_terms import content_terms

MAX_TERMS = 12
SEEDS_PER_TERM = 2
SEED_SHARE = 4  # at most limit/SEED_SHARE seeds, so each has room for SEED_SHARE-1 neighbours


def seed_terms(query: str) -> list[str]:
    """The terms of `query` the seeds are matched for (what the shell embeds)."""
    return list(dict.fromkeys(content_terms(query)))[:MAX_TERMS]


def _seeds(matcher: NodeMatcher, query: str, limit: int, vectors: Mapping[str, Sequence[float]]) -> list[str]:
    seeds: dict[str, None] = {}
    for term in seed_terms(query):
        for candidate in matcher.match(term, vectors.get(term), limit=SEEDS_PER_TERM).candidates:
            seeds.setdefault(candidate.node_id)
    return list(seeds)[:limit]


def hkg_neighbourhood(
    store: HypergraphStore,
    matcher: NodeMatcher,
    query: str,
    limit: int,
    term_vectors: Mapping[str, Sequence[float]] | None = None,
) -> HkgNeighbourhood:
    """The seeds of `query` (its terms matched with their vectors when given) and their hyperedge
    neighbours, at most `limit` nodes."""
    seeded = [NodeId(n) for n in _seeds(matcher, query, max(1, limit // SEED_SHARE), term_vectors or {})]
    kept = dict.fromkeys(seeded)
    seeds = set(seeded)
    touching = [e for e in store.hyperedges if seeds.intersection(e.members)]
    share = max(1, (limit - len(kept)) // max(1, len(seeded)))
    for seed in seeded:  # each seed gets its share of neighbours, so none looks thin for lack of room
        added = 0
        for edge in (e for e in touching if seed in e.members):
            for member in edge.members:
                if added >= share or len(kept) >= limit:
                    break
                if member not in kept:
                    kept[member] = None
                    added += 1
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
    links = tuple((r, tuple(str(m) for m in ms)) for r, ms in hyperedges)
    return HkgNeighbourhood(tuple(nodes), links, tuple(str(n) for n in seeded))

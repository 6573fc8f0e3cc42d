"""`forge hkg ingest | stats | traverse`: the hypergraph from the terminal.

Invariants:
    - Exit codes: 0 success; 1 the query ran but found nothing (PATH_NOT_FOUND, or a term matched no
      node); 2 the input could not be used (bad or unreadable file, settings out of range). The reason
      goes to stderr in one readable line (with the line number for a bad JSONL line).
    - `traverse` matches terms to nodes as the server does: with the product's embedder
      (FORGE_EMBEDDER; the sentence model unless "hashed"), node vectors for hypergraphs up to
      EMBEDDED_NODE_LIMIT nodes.
    - `traverse` prints each path with node labels, relation labels and provenance references
      (source and locator), never provenance text.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path

from forge.bootstrap.build_container import build_embedder
from forge.config import Settings
from forge.core.explore.library_records import ShippedKnowledge
from forge.core.hkg.hypergraph_records import HypergraphDefect, NodeId
from forge.core.hkg.hypergraph_store import HypergraphStats, HypergraphStore
from forge.core.hkg.hyperpath_enumeration import MAX_EXPANDED_PATHS
from forge.core.hkg.k_shortest_hyperpaths import Hyperpath, SearchExtent, query_limits_problem
from forge.core.hkg.node_matching import TermMatch
from forge.core.hkg.structural_grounding import GroundingRequest, GroundingStatus, HyperpathEvidence
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.offline_knowledge import DEFAULT_KNOWLEDGE_DIR
from forge.services.stages.hkg_grounding import ingest_hypergraph_file, load_hypergraph, open_hkg_grounding

EXIT_OK, EXIT_NOTHING_FOUND, EXIT_BAD_INPUT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class TraverseOptions:
    start_terms: tuple[str, ...]
    end_terms: tuple[str, ...]
    k: int
    intersection_size: int
    max_len: int


def split_terms(text: str) -> tuple[str, ...]:
    """Terms separated by commas or semicolons ("heat flow, entropy")."""
    return tuple(term.strip() for term in text.replace(";", ",").split(",") if term.strip())


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> int:
    print(f"forge hkg: {message}", file=sys.stderr)
    return code


def render_stats(origin: str, stats: HypergraphStats) -> str:
    return "\n".join(
        [
            f"hypergraph: {origin}",
            f"  nodes            {stats.node_count:>10,}   (isolated: {stats.isolated_node_count:,})",
            f"  hyperedges       {stats.hyperedge_count:>10,}   (relations: {stats.relation_count:,})",
            f"  incidences       {stats.incidence_count:>10,}",
            f"  hyperedge size   mean {stats.mean_hyperedge_size:.2f}, max {stats.max_hyperedge_size:,}",
            f"  max node degree  {stats.max_node_degree:>10,}",
        ]
    )


def run_ingest(settings: Settings, source: Path) -> int:
    saved = ingest_hypergraph_file(source, settings.hkg_path)
    if isinstance(saved, HypergraphDefect):
        return _fail(saved.message)
    print(render_stats(f"ingested into {settings.hkg_path}", saved))
    return EXIT_OK


def _shipped_knowledge() -> ShippedKnowledge:
    return load_shipped_knowledge(DEFAULT_KNOWLEDGE_DIR)


def run_stats(settings: Settings) -> int:
    loaded = load_hypergraph(settings.hkg_path, _shipped_knowledge)
    if isinstance(loaded, HypergraphDefect):
        return _fail(loaded.message)
    print(render_stats(loaded.origin, loaded.store.stats()))
    return EXIT_OK


def _node_name(store: HypergraphStore, node_id: NodeId) -> str:
    node = store.node(node_id)
    return f"{node.label if node else node_id} [{node_id}]"


def render_matches(side: str, matches: tuple[TermMatch, ...]) -> list[str]:
    lines = []
    for match in matches:
        best = match.best
        found = f"{best.label} [{best.node_id}] ({best.method.value}, {best.confidence:.2f})" if best else "no node"
        lines.append(f"{side} {match.term!r} → {found}")
    return lines


def render_path(store: HypergraphStore, number: int, path: Hyperpath) -> list[str]:
    lines = [f"path {number} · {path.length} hyperedge{'s' if path.length > 1 else ''}"]
    lines.append(f"  start  {_node_name(store, path.start_node)}")
    for step, edge_id in enumerate(path.hyperedges):
        edge = store.hyperedge(edge_id)
        relation = edge.relation if edge else "?"
        refs = "; ".join(
            f"{p.source}#{p.locator}" if p.locator else p.source for p in (edge.provenance if edge else ())
        )
        lines.append(f"  {step + 1}. —{relation}— [{edge_id}]" + (f"  source: {refs}" if refs else ""))
        if step < len(path.joints):
            lines.append("       via " + ", ".join(_node_name(store, n) for n in path.joints[step]))
    lines.append(f"  end    {_node_name(store, path.end_node)}")
    return lines


def render_evidence(store: HypergraphStore, evidence: HyperpathEvidence) -> str:
    lines = [*render_matches("from", evidence.start_matches), *render_matches("to  ", evidence.end_matches)]
    shortest = evidence.paths[0].length if evidence.paths else 0
    lines.append(
        f"{evidence.status.event_name}: {len(evidence.paths)} path(s), shortest {shortest}, "
        f"structural grounding {evidence.score:.2f}/10"
    )
    if evidence.extent is SearchExtent.WORK_BOUND:
        lines.append(
            f"the search stopped at its work bound ({MAX_EXPANDED_PATHS:,} partial paths): "
            "shorter or other hyperpaths may exist"
        )
    for number, path in enumerate(evidence.paths, start=1):
        lines += render_path(store, number, path)
    return "\n".join(lines)


def _nothing_found_reason(evidence: HyperpathEvidence) -> str:
    if evidence.status is GroundingStatus.NO_MATCH:
        unmatched = [m.term for m in (*evidence.start_matches, *evidence.end_matches) if m.best is None]
        return "no node matches " + ", ".join(repr(t) for t in unmatched) + " (no path searched)"
    query = evidence.query
    limit = query.max_len if query else "?"
    within = " within the search's work bound" if evidence.extent is SearchExtent.WORK_BOUND else ""
    return f"PATH_NOT_FOUND: no hyperpath of at most {limit} hyperedges links the two term sets{within}"


def run_traverse(settings: Settings, options: TraverseOptions) -> int:
    problem = query_limits_problem(options.k, options.intersection_size, options.max_len)
    if problem is not None:
        return _fail(problem)
    if not options.start_terms or not options.end_terms:
        return _fail("--from and --to each need at least one term")
    loaded = load_hypergraph(settings.hkg_path, _shipped_knowledge)
    if isinstance(loaded, HypergraphDefect):
        return _fail(loaded.message)
    request = GroundingRequest(
        options.start_terms, options.end_terms, options.k, options.intersection_size, options.max_len
    )

    async def ground() -> HyperpathEvidence:
        grounding = await open_hkg_grounding(loaded, build_embedder(settings))  # as the server matches
        return await grounding.ground(request)

    evidence = asyncio.run(ground())
    print(f"hypergraph: {loaded.origin}")
    print(render_evidence(loaded.store, evidence))
    if evidence.status is not GroundingStatus.PATH_FOUND:
        return _fail(_nothing_found_reason(evidence), EXIT_NOTHING_FOUND)
    return EXIT_OK

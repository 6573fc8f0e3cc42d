"""Structural grounding: hypothesis terms and problem-frame terms in, hyperpaths and evidence out.

This is the interface SEARCH's `hyperpath_expand` / `hyperbridge` and VERIFY's structural grounding
call (000 §4.2.2, §7.4): terms are matched to nodes, the k shortest hyperpaths are found between the
two node sets, and the result is an evidence record plus `structural_grounding_score`.

Invariants:
    - No fabricated evidence: PATH_NOT_FOUND and NO_MATCH carry no path, no hyperedge, no provenance
      and score 0 (the SAGA check "PATH_NOT_FOUND but the hypothesis claims structure" relies on it).
    - Evidence references provenance (hyperedge id, source, locator) and never carries its text.
    - `structural_grounding_score` is in [0, 10], rounded to 2 decimals, and is
          10 · length_factor · support · (0.5 + 0.5 · coverage) · confidence · (0.7 + 0.3 · reach)
      with length_factor = 1 / (1 + 0.25 · (m* − 1) + 0.1 · (m̄ − m*)) (m* the shortest path's
      hyperedges, m̄ the mean over the paths found: a one-hyperedge link scores 1, six hyperedges
      0.44, and detours among the k paths cost a little), support = 0.75 + 0.25 · paths_found / k,
      coverage = share of all terms that matched a node, confidence = mean confidence of those
      terms' best matches, reach = distinct start nodes of the paths / min(k, start nodes asked):
      how much of the hypothesis connects to the frame, not just one of its terms. Every factor is
      a real difference between hypotheses (their terms, their paths), none is noise.
    - The evidence keeps the traversal's `SearchExtent`: WORK_BOUND says its paths (or their absence)
      come from a search cut at MAX_EXPANDED_PATHS partial paths, not from the whole hypergraph.
    - Start nodes are the best `candidates_per_term` matches of each hypothesis term, end nodes those
      of each frame term.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from forge.core.hkg.hypergraph_records import HyperedgeId, NodeId, ProvenanceRef
from forge.core.hkg.k_shortest_hyperpaths import (
    Hyperpath,
    HyperpathQuery,
    HyperpathResult,
    SearchExtent,
    TraversalStatus,
)
from forge.core.hkg.node_matching import DEFAULT_MIN_CONFIDENCE, NodeMatcher, TermMatch
from forge.core.hkg.traversal_cache import TraversalCache

MAX_SCORE = 10.0


class GroundingStatus(str, Enum):
    """Wire spellings of the HKG events of 000 §6 (`HKG_PATH_FOUND` / `HKG_PATH_NOT_FOUND`)."""

    PATH_FOUND = "hkg_path_found"
    PATH_NOT_FOUND = "hkg_path_not_found"
    NO_MATCH = "hkg_no_match"

    @property
    def event_name(self) -> str:
        return self.value.upper()


@dataclass(frozen=True, slots=True)
class GroundingRequest:
    hypothesis_terms: tuple[str, ...]
    frame_terms: tuple[str, ...]
    k: int = 3
    intersection_size: int = 1
    max_len: int = 6
    candidates_per_term: int = 1
    min_confidence: float = DEFAULT_MIN_CONFIDENCE

    @classmethod
    def for_hyperpath_expand(cls, hypothesis_terms: Sequence[str], frame_terms: Sequence[str]) -> GroundingRequest:
        """Mechanism-chain completion: the k = 3 shortest chains, IS = 1."""
        return cls(tuple(hypothesis_terms), tuple(frame_terms))

    @classmethod
    def for_hyperbridge(
        cls, concept_terms: Sequence[str], distant_terms: Sequence[str], k: int = 3
    ) -> GroundingRequest:
        """Bridges between two distant-domain concepts: IS = 1, k > 1 (000 §4.2.2)."""
        return cls(tuple(concept_terms), tuple(distant_terms), k=max(k, 2), intersection_size=1)


@dataclass(frozen=True, slots=True)
class HyperpathEvidence:
    status: GroundingStatus
    start_matches: tuple[TermMatch, ...]
    end_matches: tuple[TermMatch, ...]
    paths: tuple[Hyperpath, ...]
    node_ids: tuple[NodeId, ...]
    hyperedge_ids: tuple[HyperedgeId, ...]
    provenance: tuple[ProvenanceRef, ...]
    score: float
    query: HyperpathQuery | None
    extent: SearchExtent = SearchExtent.EXHAUSTIVE  # WORK_BOUND: the traversal stopped at its work bound


def structural_grounding_score(
    result: HyperpathResult, start_matches: Sequence[TermMatch], end_matches: Sequence[TermMatch]
) -> float:
    if result.status is not TraversalStatus.FOUND or not result.paths:
        return 0.0
    terms = [*start_matches, *end_matches]
    confidences = [m.best.confidence for m in terms if m.best is not None]
    if not confidences:
        return 0.0
    coverage = len(confidences) / len(terms)
    confidence = sum(confidences) / len(confidences)
    shortest = min(p.length for p in result.paths)
    mean_length = sum(p.length for p in result.paths) / len(result.paths)
    length_factor = 1.0 / (1.0 + 0.25 * (shortest - 1) + 0.1 * (mean_length - shortest))
    support = 0.75 + 0.25 * min(1.0, len(result.paths) / result.query.k)
    asked = max(1, min(result.query.k, len(result.query.start_nodes)))
    reach = min(1.0, len({p.start_node for p in result.paths}) / asked)
    score = MAX_SCORE * length_factor * support * (0.5 + 0.5 * coverage) * confidence * (0.7 + 0.3 * reach)
    return round(min(MAX_SCORE, max(0.0, score)), 2)


def _chosen_nodes(matches: Sequence[TermMatch], per_term: int) -> frozenset[NodeId]:
    return frozenset(c.node_id for m in matches for c in m.candidates[:per_term])


def _path_nodes(paths: Sequence[Hyperpath]) -> tuple[NodeId, ...]:
    ordered: dict[NodeId, None] = {}
    for path in paths:
        ordered[path.start_node] = None
        for joint in path.joints:
            ordered.update(dict.fromkeys(joint))
        ordered[path.end_node] = None
    return tuple(ordered)


def _evidence_from_result(
    cache: TraversalCache, result: HyperpathResult, starts: tuple[TermMatch, ...], ends: tuple[TermMatch, ...]
) -> HyperpathEvidence:
    edge_ids = tuple(dict.fromkeys(e for path in result.paths for e in path.hyperedges))
    provenance = tuple(
        ProvenanceRef(edge_id, p.source, p.locator)
        for edge_id in edge_ids
        for edge in (cache.store.hyperedge(edge_id),)
        if edge is not None
        for p in edge.provenance
    )
    status = GroundingStatus.PATH_FOUND if result.status is TraversalStatus.FOUND else GroundingStatus.PATH_NOT_FOUND
    score = structural_grounding_score(result, starts, ends)
    return HyperpathEvidence(
        status,
        starts,
        ends,
        result.paths,
        _path_nodes(result.paths),
        edge_ids,
        provenance,
        score,
        result.query,
        result.extent,
    )


def ground_terms(
    cache: TraversalCache,
    matcher: NodeMatcher,
    request: GroundingRequest,
    term_vectors: Mapping[str, Sequence[float]] | None = None,
) -> HyperpathEvidence:
    """Match both term lists, traverse (through the cache), and build the evidence record."""
    vectors = term_vectors or {}

    def match_all(terms: tuple[str, ...]) -> tuple[TermMatch, ...]:
        limit = max(request.candidates_per_term, 1)
        return tuple(matcher.match(t, vectors.get(t), limit, request.min_confidence) for t in terms)

    starts, ends = match_all(request.hypothesis_terms), match_all(request.frame_terms)
    start_nodes = _chosen_nodes(starts, request.candidates_per_term)
    end_nodes = _chosen_nodes(ends, request.candidates_per_term)
    if not start_nodes or not end_nodes:
        return HyperpathEvidence(GroundingStatus.NO_MATCH, starts, ends, (), (), (), (), 0.0, None)
    query = HyperpathQuery(start_nodes, end_nodes, request.k, request.intersection_size, request.max_len)
    return _evidence_from_result(cache, cache.find(query), starts, ends)

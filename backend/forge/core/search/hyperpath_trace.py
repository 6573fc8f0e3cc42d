"""What a hypothesis keeps of the HKG (seed 000 §4.2.2): the terms a grounding query is made of, and
the hyperpaths found, as a small chain of labelled nodes and relations with provenance references.

Invariants:
    - Start terms come from the hypothesis (its structure, then its mapping's source and target
      concepts, table order), end terms from the problem frame (target object, target outcome, then
      the success criteria); both distinct, at most `MAX_TERMS`, never empty strings.
    - A trace is built only from a traversal's evidence: PATH_NOT_FOUND and NO_MATCH give a trace
      with no path, no provenance and score 0 (`grounded` is False) — nothing here invents a step.
      It keeps the traversal's extent: WORK_BOUND when the enumeration was cut at its work bound.
    - Provenance is referenced (hyperedge id, source, locator), never quoted: a trace holds no
      provenance text, so `trace_prompt_text` can be put in a prompt as it is.
    - `cited_unknown` lists the hyperedge ids a mechanism chain cites that are not on the trace's
      paths (a chain may only cite the structure it was given).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hkg.hypergraph_records import HyperedgeId, NodeId, ProvenanceRef
from forge.core.hkg.k_shortest_hyperpaths import SearchExtent
from forge.core.hkg.structural_grounding import GroundingStatus, HyperpathEvidence

MAX_TERMS = 6


@dataclass(frozen=True, slots=True)
class NodeRef:
    id: NodeId
    label: str


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One hyperedge of a path: its relation, and the nodes it shares with the next step (`via`)."""

    hyperedge_id: HyperedgeId
    relation: str
    via: tuple[NodeRef, ...] = ()


@dataclass(frozen=True, slots=True)
class TracePath:
    start: NodeRef
    steps: tuple[TraceStep, ...]
    end: NodeRef


@dataclass(frozen=True, slots=True)
class ChainLink:
    """One step of the mechanism chain a model completed from the path, citing its hyperedge."""

    hyperedge_id: HyperedgeId
    step: str


@dataclass(frozen=True, slots=True)
class HyperpathTrace:
    status: GroundingStatus
    score: float  # structural_grounding_score, 0..10
    start_terms: tuple[str, ...]
    end_terms: tuple[str, ...]
    paths: tuple[TracePath, ...] = ()
    provenance: tuple[ProvenanceRef, ...] = ()
    chain: tuple[ChainLink, ...] = ()  # set by hyperpath_expand / hyperbridge from the model's answer
    extent: SearchExtent = SearchExtent.EXHAUSTIVE  # WORK_BOUND: the traversal was cut at its work bound

    @property
    def grounded(self) -> bool:
        return self.status is GroundingStatus.PATH_FOUND and bool(self.paths)

    @property
    def hyperedge_ids(self) -> frozenset[HyperedgeId]:
        return frozenset(step.hyperedge_id for path in self.paths for step in path.steps)


def _distinct(items: Sequence[str], limit: int = MAX_TERMS) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for item in items:
        text = " ".join(item.split())
        if text and text.casefold() not in seen:
            seen[text.casefold()] = text
    return tuple(seen.values())[:limit]


def hypothesis_terms(structure: str, source_concepts: Sequence[str], target_concepts: Sequence[str]) -> tuple[str, ...]:
    """Start terms: the structure's name, then source and target concepts alternately (table order)."""
    mixed = [c for pair in zip(source_concepts, target_concepts, strict=False) for c in pair]
    return _distinct([structure, *mixed, *source_concepts, *target_concepts])


def frame_terms(frame: ProblemFrame) -> tuple[str, ...]:
    """End terms: what the problem is about (target object and outcome), then its success criteria."""
    return _distinct([frame.target_object, frame.target_outcome, *frame.success_criteria]) or (frame.objective,)


def trace_from_evidence(
    evidence: HyperpathEvidence,
    start_terms: Sequence[str],
    end_terms: Sequence[str],
    node_label: Callable[[NodeId], str],
    relation_of: Callable[[HyperedgeId], str],
) -> HyperpathTrace:
    """The evidence as a trace; labels and relations are looked up in the store it came from."""
    if evidence.status is not GroundingStatus.PATH_FOUND:
        return HyperpathTrace(evidence.status, 0.0, tuple(start_terms), tuple(end_terms), extent=evidence.extent)

    def ref(node: NodeId) -> NodeRef:
        return NodeRef(node, node_label(node))

    paths = tuple(
        TracePath(
            ref(path.start_node),
            tuple(
                TraceStep(
                    edge, relation_of(edge), tuple(ref(n) for n in path.joints[i]) if i < len(path.joints) else ()
                )
                for i, edge in enumerate(path.hyperedges)
            ),
            ref(path.end_node),
        )
        for path in evidence.paths
    )
    return HyperpathTrace(
        evidence.status,
        evidence.score,
        tuple(start_terms),
        tuple(end_terms),
        paths,
        evidence.provenance,
        extent=evidence.extent,
    )


def trace_prompt_text(trace: HyperpathTrace) -> str:
    """The paths for a prompt: node labels, relations and hyperedge ids; provenance by reference only."""
    lines = [f"Structural grounding {trace.score:.2f}/10 ({len(trace.paths)} hyperpath(s))."]
    if trace.extent is SearchExtent.WORK_BOUND:
        lines.append("The search stopped at its work bound: shorter hyperpaths may exist.")
    for n, path in enumerate(trace.paths, start=1):
        lines.append(f"Path {n}: start «{path.start.label}»")
        for step in path.steps:
            via = f" → shares {', '.join(f'«{v.label}»' for v in step.via)}" if step.via else ""
            lines.append(f"  [{step.hyperedge_id}] —{step.relation}—{via}")
        lines.append(f"  end «{path.end.label}»")
    refs = sorted({f"[{p.hyperedge_id}] {p.source}#{p.locator}" for p in trace.provenance})
    if refs:
        lines.append("Provenance (references only): " + "; ".join(refs))
    return "\n".join(lines)


def cited_unknown(trace: HyperpathTrace, chain: Sequence[ChainLink]) -> tuple[str, ...]:
    known = trace.hyperedge_ids
    return tuple(link.hyperedge_id for link in chain if link.hyperedge_id not in known)

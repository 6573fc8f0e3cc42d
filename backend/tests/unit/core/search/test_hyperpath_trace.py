"""Hyperpath traces: terms from a hypothesis and a frame; evidence → a trace of labelled nodes and
relations (none on PATH_NOT_FOUND); prompt text without provenance text; chains citing other ids."""

from __future__ import annotations

from support.hkg_reference import hub_trap

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphNode,
    NodeId,
    Provenance,
)
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.k_shortest_hyperpaths import SearchExtent
from forge.core.hkg.node_matching import NodeMatcher
from forge.core.hkg.structural_grounding import GroundingRequest, GroundingStatus, ground_terms
from forge.core.hkg.traversal_cache import TraversalCache
from forge.core.search.hyperpath_trace import (
    ChainLink,
    HyperpathTrace,
    cited_unknown,
    frame_terms,
    hypothesis_terms,
    trace_from_evidence,
    trace_prompt_text,
)

SECRET = "verbatim provenance sentence that must never reach a prompt"
NODES = tuple(HypergraphNode(NodeId(n), n) for n in ("buffer", "delay", "wait", "island"))
EDGES = (
    Hyperedge(HyperedgeId("e1"), "mechanism", (NodeId("buffer"), NodeId("delay")), (Provenance("a.md", "p1", SECRET),)),
    Hyperedge(HyperedgeId("e2"), "cued_by", (NodeId("delay"), NodeId("wait")), (Provenance("b.md", "p2"),)),
)


def store() -> HypergraphStore:
    built = build_hypergraph_store(HypergraphContents(NODES, EDGES))
    assert isinstance(built, HypergraphStore)
    return built


def relation(edge_id: HyperedgeId) -> str:
    return next(e.relation for e in EDGES if e.id == edge_id)


def trace_for(start: tuple[str, ...], end: tuple[str, ...]) -> HyperpathTrace:
    hypergraph = store()
    evidence = ground_terms(
        TraversalCache(hypergraph), NodeMatcher(hypergraph), GroundingRequest.for_hyperpath_expand(start, end)
    )
    return trace_from_evidence(evidence, start, end, lambda n: f"label {n}", relation)


def test_terms_come_from_the_structure_and_concepts_and_from_the_frames_target() -> None:
    assert hypothesis_terms("Queue buffer", ["buffer", "server"], ["triage", "Buffer"]) == (
        "Queue buffer",
        "buffer",
        "triage",
        "server",
    )
    frame = ProblemFrame("Cut waits", "emergency department", "shorter waits", success_criteria=("median < 30 min",))
    assert frame_terms(frame) == ("emergency department", "shorter waits", "median < 30 min")
    assert frame_terms(ProblemFrame("Cut waits", "", "")) == ("Cut waits",)


def test_a_found_path_becomes_labelled_steps_with_provenance_references() -> None:
    trace = trace_for(("buffer",), ("wait",))
    assert trace.grounded and trace.status is GroundingStatus.PATH_FOUND and trace.score > 0
    (path,) = trace.paths[:1]
    assert path.start.label == "label buffer" and path.end.label == "label wait"
    assert [s.hyperedge_id for s in path.steps] == ["e1", "e2"] and [s.relation for s in path.steps] == [
        "mechanism",
        "cued_by",
    ]
    assert [v.id for v in path.steps[0].via] == ["delay"]
    assert {(r.source, r.locator) for r in trace.provenance} == {("a.md", "p1"), ("b.md", "p2")}
    text = trace_prompt_text(trace)
    assert "[e1] —mechanism—" in text and "a.md#p1" in text and SECRET not in text


def test_no_path_gives_no_step_no_reference_and_score_zero() -> None:
    trace = trace_for(("buffer",), ("island",))
    assert trace.status is GroundingStatus.PATH_NOT_FOUND and not trace.grounded
    assert trace.paths == () and trace.provenance == () and trace.score == 0.0


def test_a_chain_may_cite_only_the_paths_hyperedges() -> None:
    trace = trace_for(("buffer",), ("wait",))
    chain = (ChainLink(HyperedgeId("e1"), "buffers absorb"), ChainLink(HyperedgeId("e9"), "invented"))
    assert cited_unknown(trace, chain) == ("e9",)


def test_a_traversal_cut_at_its_work_bound_is_kept_on_the_trace_and_told_in_the_prompt() -> None:
    hypergraph = build_hypergraph_store(hub_trap().contents)
    assert isinstance(hypergraph, HypergraphStore)
    request = GroundingRequest.for_hyperpath_expand(("s",), ("t",))
    evidence = ground_terms(TraversalCache(hypergraph), NodeMatcher(hypergraph), request)
    trace = trace_from_evidence(evidence, ("s",), ("t",), str, lambda edge: "related_to")
    assert trace.extent is SearchExtent.WORK_BOUND and trace.grounded
    assert "work bound" in trace_prompt_text(trace)
    assert trace_for(("buffer",), ("wait",)).extent is SearchExtent.EXHAUSTIVE
    assert "work bound" not in trace_prompt_text(trace_for(("buffer",), ("wait",)))

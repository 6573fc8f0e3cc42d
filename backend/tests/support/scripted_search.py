"""A scripted StructuredModel and a fake HKG for SEARCH tests: a pool of three gated parents from three
domains, answers for every operator's output type (scripted, never the offline generators), and a
grounding that finds (or does not find) a two-step hyperpath.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hkg.hypergraph_records import HyperedgeId, NodeId, ProvenanceRef
from forge.core.hkg.structural_grounding import GroundingRequest, GroundingStatus
from forge.core.hypotheses.pool import Hypothesis, HypothesisId, gate_summary
from forge.core.llm.messages import Usage
from forge.core.search.blend_network import CrossSpaceKind
from forge.core.search.hyperpath_trace import HyperpathTrace, NodeRef, TracePath, TraceStep
from forge.core.search.plan import SearchOperator
from forge.engine.explore.biso import HypothesisDraft, MappingRowOut
from forge.engine.search.blend_expand import BlendContext, BlendOutput, CrossSpaceMappingOut, EmergentStructureOut
from forge.engine.search.operators import OperatorOutput, SearchContext
from forge.engine.search.structural_operators import ChainLinkOut, StructuralContext, StructuralOutput
from forge.engine.search.transform_space import LogicCheckContext, LogicCheckOutput, TransformContext, TransformOutput
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult

FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
SOURCES = ("buffer", "server", "utilisation", "priority", "blocking", "variability")
TARGETS = ("waiting room", "triage nurse", "occupancy", "acuity score", "bed shortage", "surge pattern")
KINDS = (
    MappingType.ENTITY,
    MappingType.ENTITY,
    MappingType.ATTRIBUTE,
    MappingType.RELATION,
    MappingType.HIGHER_ORDER,
    MappingType.HIGHER_ORDER,
)


def rows(tag: str) -> list[MappingRowOut]:
    return [
        MappingRowOut(
            source_concept=f"{s} {tag}",
            source_relation=f"{s} shapes the flow",
            target_concept=t,
            target_relation=f"{t} shapes waiting",
            mapping_type=k,
            systematicity_group="congestion",
            observable_link=f"{t} per hour",
        )
        for s, t, k in zip(SOURCES, TARGETS, KINDS, strict=True)
    ]


def statement(tag: str) -> str:
    return (
        f"{tag}: the waiting room, triage nurse, occupancy, acuity score, bed shortage and surge pattern "
        f"together set emergency department waits under {tag} conditions."
    )


def parent(hid: str, structure: str, observable: str) -> Hypothesis:
    table = MappingTable(tuple(MappingRow(**r.model_dump()) for r in rows(hid)))
    text = statement(hid)
    failures = (f"Breaks when {hid} arrivals are not random.",)
    return Hypothesis(
        HypothesisId(hid),
        f"dom-{hid}",
        f"Domain {hid}",
        structure,
        hid,
        text,
        structure,
        table,
        observable,
        failures,
        gate_summary(table, " ".join((text, observable, *failures))),
    )


POOL = (
    parent("alpha", "queue buffer", "minutes per patient"),
    parent("beta", "feedback loop", "ward totals"),
    parent("gamma", "threshold cascade", "shift totals"),
)


def distinct_words(n: int) -> str:
    """Words no other child uses, so scripted children are never near-duplicates of each other."""
    letters = "bcdfghjklmnpqrstvwxz"
    return " ".join(f"{letters[n % 20]}{letters[(n // 20) % 20]}o{letters[i]}a" for i in range(20))


def operator_of(context: object) -> SearchOperator:
    if isinstance(context, (SearchContext, StructuralContext)):
        return context.operator
    if isinstance(context, BlendContext):
        return SearchOperator.BLEND_EXPAND
    return SearchOperator.TRANSFORM_SPACE


def parents_of(context: object) -> tuple[Hypothesis, ...]:
    if isinstance(context, (SearchContext, StructuralContext, BlendContext)):
        return context.parents
    assert isinstance(context, (TransformContext, LogicCheckContext))
    return (context.parent,)


def first_mutable(context: TransformContext) -> TransformOutput | None:
    """The default scripted proposal: negate the space's first mutable assumption."""
    element = context.space.assumptions_mutable[0]
    return None if element is None else _proposal("negate_assumption", element.id, element.text)


def _proposal(op: str, target_id: str, before: str) -> TransformOutput:
    return TransformOutput.model_validate(
        {
            "op": op,
            "target_id": target_id,
            "before": before,
            "after": f"the opposite of: {before}",
            "rationale": "scripted rationale for the change",
            "hypothesis": draft("transform", 0).model_dump(),
        }
    )


def proposal(op: str, target_id: str, before: str) -> Callable[[TransformContext], TransformOutput | None]:
    return lambda _context: _proposal(op, target_id, before)


def draft(tag: str, n: int, distinct: bool = True) -> HypothesisDraft:
    return HypothesisDraft(
        title=tag[:80],
        structure="scripted",
        statement=f"{statement(tag)} {distinct_words(n) if distinct else ''}".strip(),
        mechanism="scripted mechanism",
        mapping=rows(tag),
        observable="minutes per patient",
        failure_modes=["Breaks when beds block the flow."],
    )


class Scripted:
    """Answers every SEARCH request with a scripted value of its output type. `fail` lists operators
    whose calls fail; `transform` makes the transform proposal; `logic` is the logic check's scores;
    `cite` overrides the hyperedge ids a mechanism chain cites."""

    def __init__(
        self,
        fail: frozenset[SearchOperator] = frozenset(),
        distinct: bool = True,
        transform: Callable[[TransformContext], TransformOutput | None] = first_mutable,
        logic: tuple[float, float, float] = (8.0, 8.0, 8.0),
        cite: tuple[str, ...] | None = None,
    ) -> None:
        self.requests: list[StructuredRequest[Any]] = []
        self.fail, self.distinct, self.transform, self.logic, self.cite = fail, distinct, transform, logic, cite

    @property
    def label(self) -> str:
        return "scripted"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        context = request.offline_context
        if operator_of(context) in self.fail:
            return StructuredFailure("invalid after 3 attempts", Usage(10, 1), 3)
        value = self._answer(context, len(self.requests))
        if value is None:
            return StructuredFailure("no proposal", Usage(10, 1), 1)
        return StructuredResult(value, Usage(100, 50), 1)

    def _answer(self, context: object, n: int) -> Any:
        tag = f"{operator_of(context).value} of {' and '.join(p.id for p in parents_of(context))} {n}"
        child = draft(tag, n, self.distinct)
        if isinstance(context, SearchContext):
            return OperatorOutput(hypothesis=child)
        if isinstance(context, StructuralContext):
            ids = self.cite or tuple(s.hyperedge_id for s in context.trace.paths[0].steps)
            chain = [ChainLinkOut(hyperedge_id=i, step=f"step on {i}") for i in ids]
            return StructuralOutput(hypothesis=child, chain=chain, boundary_conditions=["only under load"])
        if isinstance(context, BlendContext):
            return blend_output(context, child)
        if isinstance(context, TransformContext):
            made = self.transform(context)
            return None if made is None else made.model_copy(update={"hypothesis": child})
        assert isinstance(context, LogicCheckContext)
        return LogicCheckOutput(
            analogy_validity=self.logic[0], internal_consistency=self.logic[1], causal_rigor=self.logic[2]
        )


def blend_output(context: BlendContext, child: HypothesisDraft) -> BlendOutput:
    first, second = context.parents[0], context.parents[-1]
    pairs = zip(first.mapping.rows[:2], second.mapping.rows[:2], strict=True)
    return BlendOutput(
        generic_space=["a flow through a constrained system"],
        cross_space_mappings=[
            CrossSpaceMappingOut(
                input_1=a.source_concept,
                input_2=b.source_concept,
                kind=CrossSpaceKind.IDENTITY,
                blended=a.target_concept,
            )
            for a, b in pairs
        ],
        emergent_structures=[
            EmergentStructureOut(
                description=f"{first.mapping.rows[0].source_concept} paced by {second.mapping.rows[0].source_concept}",
                observable_link="minutes per patient",
                testable_prediction="waits fall more with both than with either",
            )
        ],
        hypothesis=child,
    )


def found_trace(request: GroundingRequest, score: float = 7.5) -> HyperpathTrace:
    a, b, c = (NodeRef(NodeId(n), n) for n in ("load", "delay", "wait"))
    steps = (TraceStep(HyperedgeId("e1"), "mechanism", (b,)), TraceStep(HyperedgeId("e2"), "cued_by"))
    refs = (ProvenanceRef(HyperedgeId("e1"), "source_domains.json", "control/structures/0"),)
    path = TracePath(a, steps, c)
    return HyperpathTrace(
        GroundingStatus.PATH_FOUND, score, request.hypothesis_terms, request.frame_terms, (path,), refs
    )


class FakeGrounding:
    """The StructuralGrounding port: a two-step path for every request, unless `found` is False."""

    def __init__(self, found: bool = True) -> None:
        self.found = found
        self.requests: list[GroundingRequest] = []

    async def trace(self, request: GroundingRequest) -> HyperpathTrace:
        self.requests.append(request)
        if not self.found:
            return HyperpathTrace(GroundingStatus.PATH_NOT_FOUND, 0.0, request.hypothesis_terms, request.frame_terms)
        return found_trace(request)

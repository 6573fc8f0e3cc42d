"""The HKG-driven SEARCH operators (seed 000 §4.2.2): `hyperpath_expand` completes a hypothesis's
mechanism chain along the k shortest hyperpaths from its terms to the frame's; `hyperbridge` finds
structural bridges (IS = 1, k > 1) between two seeds of distant source domains.

Invariants:
    - The traversal runs BEFORE any model call; a trace without a path (PATH_NOT_FOUND, NO_MATCH)
      makes no request and no child: no structural evidence is ever produced without a path.
    - The request shows the path as labelled nodes, relations and hyperedge ids, with provenance as
      references (`source#locator`) — never provenance text (`trace_prompt_text`).
    - The model's mechanism chain must cite only hyperedges on the given paths; a chain citing any
      other id is refused (the application fails with the ids named), never stored.
    - A child keeps the trace (with the chain) and its `structural_grounding` is the trace's score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hkg.hypergraph_records import HyperedgeId
from forge.core.hkg.structural_grounding import GroundingRequest
from forge.core.hypotheses.pool import Hypothesis, HypothesisId
from forge.core.search.hyperpath_trace import (
    ChainLink,
    HyperpathTrace,
    cited_unknown,
    frame_terms,
    hypothesis_terms,
    trace_prompt_text,
)
from forge.core.search.operator_specs import STRUCTURAL_OPERATORS as STRUCTURAL_OPERATORS  # read off the specs
from forge.core.search.plan import SearchOperator
from forge.engine.explore.biso import BISO_INSTRUCTIONS, HypothesisDraft, frame_text
from forge.engine.search.operators import child_from_draft, parent_text
from forge.ports import StructuredRequest

STRUCTURAL_INSTRUCTIONS: dict[SearchOperator, str] = {
    SearchOperator.HYPERPATH_EXPAND: "Operator HYPERPATH_EXPAND: the knowledge hypergraph links the parent's terms "
    "to the problem's target along the hyperpaths below. Complete the parent's mechanism chain ALONG one of "
    "them: one chain step per hyperedge, citing its [id], saying what happens at that step on the target. Name the "
    "boundary conditions under which the chain holds, and make the observable measure the chain's last step.",
    SearchOperator.HYPERBRIDGE: "Operator HYPERBRIDGE: the knowledge hypergraph links the concepts of two parents "
    "from distant source domains along the hyperpaths below. Turn the bridge into ONE bisociation: a hypothesis "
    "where the first parent's mechanism reaches the target through the second's, one chain step per hyperedge "
    "citing its [id]. Name the boundary conditions under which the bridge holds.",
}
_COMMON = (
    "\n\nReturn ONE new hypothesis in the usual shape (mapping of at least 6 rows, observable, failure modes) "
    "and its mechanism chain. Cite only the hyperedge ids shown; do not copy provenance, refer to it by id."
)


class ChainLinkOut(BaseModel):
    hyperedge_id: str = Field(description="The [id] of the path's hyperedge this step rests on.")
    step: str = Field(min_length=3, description="What happens at this step, on the target problem.")


class StructuralOutput(BaseModel):
    hypothesis: HypothesisDraft = Field(description="The one new hypothesis grounded on the path.")
    chain: list[ChainLinkOut] = Field(min_length=1, description="The mechanism chain, one step per hyperedge.")
    boundary_conditions: list[str] = Field(default_factory=list, description="When the chain stops holding.")


@dataclass(frozen=True, slots=True)
class StructuralContext:
    """The typed inputs of one HKG operator request, for deterministic generators."""

    operator: SearchOperator
    parents: tuple[Hypothesis, ...]
    problem: str
    frame: ProblemFrame
    trace: HyperpathTrace


def _source_terms(h: Hypothesis) -> tuple[str, ...]:
    return hypothesis_terms(h.structure, [r.source_concept for r in h.mapping.rows], [])


def grounding_request(operator: SearchOperator, parents: Sequence[Hypothesis], frame: ProblemFrame) -> GroundingRequest:
    """hyperpath_expand: the parent's mechanism terms (structure, source concepts) → the frame's;
    hyperbridge: one parent's mechanism terms → the other's."""
    first = parents[0]
    if operator is SearchOperator.HYPERBRIDGE:
        return GroundingRequest.for_hyperbridge(_source_terms(first), _source_terms(parents[-1]))
    return GroundingRequest.for_hyperpath_expand(_source_terms(first), frame_terms(frame))


def structural_request(
    operator: SearchOperator, parents: Sequence[Hypothesis], problem: str, frame: ProblemFrame, trace: HyperpathTrace
) -> StructuredRequest[StructuralOutput]:
    parents_block = "\n\n".join(parent_text(p) for p in parents)
    return StructuredRequest(
        name=f"record_{operator.value}_hypothesis",
        purpose=f"Record the hypothesis the {operator.value} operator grounds on the hypergraph's paths.",
        instructions=f"{BISO_INSTRUCTIONS}{_COMMON}\n{STRUCTURAL_INSTRUCTIONS[operator]}",
        input=f"Problem:\n{problem}\n\n{frame_text(frame)}\n\n{parents_block}\n\nHyperpaths:\n{trace_prompt_text(trace)}",
        output=StructuralOutput,
        max_tokens=2500,
        offline_context=StructuralContext(operator, tuple(parents), problem, frame, trace),
    )


def structural_child(
    output: StructuralOutput,
    operator: SearchOperator,
    parents: Sequence[Hypothesis],
    trace: HyperpathTrace,
    child_id: HypothesisId,
    round_: int,
) -> Hypothesis | str:
    """The grounded child, or why the answer was refused (its chain cites hyperedges not on the path)."""
    chain = tuple(ChainLink(HyperedgeId(link.hyperedge_id), link.step) for link in output.chain)
    unknown = cited_unknown(trace, chain)
    if unknown:
        return f"the mechanism chain cites hyperedges that are not on the path: {', '.join(unknown)}"
    draft = output.hypothesis
    if output.boundary_conditions:
        draft = draft.model_copy(
            update={"failure_modes": [*draft.failure_modes, *(f"Boundary: {b}" for b in output.boundary_conditions)]}
        )
    child = child_from_draft(draft, operator, parents, child_id, round_)
    return replace(child, hyperpath=replace(trace, chain=chain), structural_grounding=trace.score)

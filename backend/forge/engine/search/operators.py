"""The SEARCH operators as structured requests (seed 000 §4.2.1): refine, variant, combine, oppose and
extreme each ask for ONE new hypothesis in BISO's draft shape, made from its parent(s) and the frame.

Invariants:
    - One output type for every operator (`OperatorOutput`); what to do is the operator's own
      instructions, written in its entry of `operator_registry.OPERATOR_APPLICATIONS` and passed in.
    - A child keeps its first parent's source domain (combine names both domains), records the
      operator and its parents' ids, and is gated like any BISO hypothesis: the rule layer runs on
      its own table against its own statement, observable and failure modes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis, HypothesisId, gate_summary
from forge.core.search.plan import SearchOperator
from forge.engine.explore.biso import BISO_INSTRUCTIONS, HypothesisDraft, frame_text
from forge.ports import StructuredRequest

_COMMON = (
    "\n\nYou now expand an existing hypothesis. Return ONE new hypothesis in the same shape (title, "
    "structure, statement, mechanism, mapping of at least 6 rows, observable, failure modes). It must say "
    "something its parent does not: no paraphrase."
)


class OperatorOutput(BaseModel):
    hypothesis: HypothesisDraft = Field(description="The one new hypothesis this operator produced.")


@dataclass(frozen=True, slots=True)
class SearchContext:
    """The typed inputs of one operator request, for deterministic generators."""

    operator: SearchOperator
    parents: tuple[Hypothesis, ...]
    problem: str
    frame: ProblemFrame


def parent_text(parent: Hypothesis) -> str:
    rows = "\n".join(
        f"  - {r.source_concept} ({r.source_relation}) -> {r.target_concept} ({r.target_relation}) "
        f"[{r.mapping_type.value}; group {r.systematicity_group or '-'}; observe: {r.observable_link or '-'}]"
        for r in parent.mapping.rows
    )
    return (
        f"Parent {parent.id} from {parent.domain_name} ({parent.structure}): {parent.title}\n"
        f"Statement: {parent.statement}\nMechanism: {parent.mechanism}\nObservable: {parent.observable}\n"
        f"Failure modes: {'; '.join(parent.failure_modes)}\nMapping:\n{rows}"
    )


def search_request(
    operator: SearchOperator, parents: Sequence[Hypothesis], problem: str, frame: ProblemFrame, instructions: str
) -> StructuredRequest[OperatorOutput]:
    parents_block = "\n\n".join(parent_text(p) for p in parents)
    return StructuredRequest(
        name=f"record_{operator.value}_hypothesis",
        purpose=f"Record the hypothesis the {operator.value} operator makes from its parent(s).",
        instructions=f"{BISO_INSTRUCTIONS}{_COMMON}\n{instructions}",
        input=f"Problem:\n{problem}\n\n{frame_text(frame)}\n\n{parents_block}",
        output=OperatorOutput,
        max_tokens=2000,
        offline_context=SearchContext(operator, tuple(parents), problem, frame),
    )


def child_from_draft(
    draft: HypothesisDraft,
    operator: SearchOperator,
    parents: Sequence[Hypothesis],
    child_id: HypothesisId,
    round_: int,
) -> Hypothesis:
    mapping = MappingTable(tuple(MappingRow(**row.model_dump()) for row in draft.mapping))
    downstream = " ".join((draft.statement, draft.observable, *draft.failure_modes))
    return Hypothesis(
        id=child_id,
        domain_id=parents[0].domain_id,
        domain_name=" + ".join(dict.fromkeys(p.domain_name for p in parents)),
        structure=draft.structure,
        title=draft.title,
        statement=draft.statement,
        mechanism=draft.mechanism,
        mapping=mapping,
        observable=draft.observable,
        failure_modes=tuple(draft.failure_modes),
        gate=gate_summary(mapping, downstream),
        operator=operator.value,
        parents=tuple(p.id for p in parents),
        round=round_,
    )

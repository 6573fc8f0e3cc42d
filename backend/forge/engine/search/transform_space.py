"""`transform_space` (seed 000 §2.2, §4.2.4): Boden's transformational creativity — change ONE rule of
the target domain's concept space and state the hypothesis that becomes thinkable — behind the
Transform Gate (PROPOSED → ACCEPTED / REJECTED).

Invariants:
    - Two calls per proposal at most: the proposal (generator), then the logic check (verifier
      role) only when the structural audit found nothing; an audited-out proposal costs no check.
    - Only an ACCEPTED proposal becomes a pool hypothesis (with its gate record); a REJECTED one is
      an audit record with its reasons. Proposal ids are `transform-<round>-<n>` (n: plan place).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis, HypothesisId
from forge.core.search.concept_space import ConceptSpace, TransformOp, space_prompt_text
from forge.core.search.plan import SearchOperator
from forge.core.search.transform_gate import TransformProposal, TransformRecord
from forge.core.verify.verdicts import LogicVerdict
from forge.engine.explore.biso import BISO_INSTRUCTIONS, HypothesisDraft, frame_text
from forge.engine.search.operators import child_from_draft, parent_text
from forge.ports import StructuredRequest

TRANSFORM_INSTRUCTIONS = (
    "\n\nOperator TRANSFORM_SPACE (Boden's transformational creativity). Below is the concept space of the target "
    "domain: what a solution is made of and the rules it obeys. Choose ONE allowed operation and apply it to ONE "
    "element (by its id): a mutable assumption, a soft preference, a relation or a primitive — NEVER a hard "
    "constraint or a fixed assumption. Quote the element as it stands (`before`), say what it becomes (`after`) "
    "and why, then return ONE new hypothesis that only the transformed space allows (mapping of at least 6 rows)."
)
LOGIC_CHECK_INSTRUCTIONS = (
    "You are the logic verifier of a transformation of a concept space. Score 0-10 each: analogy_validity (does "
    "the parent's structure still map onto the transformed space), internal_consistency (is the hypothesis "
    "consistent with the transformed space AND every hard constraint and fixed assumption), causal_rigor (does "
    "the mechanism follow from the change). Give the reasons for low scores first, then the scores."
)


class TransformOutput(BaseModel):
    op: TransformOp = Field(description="One of the space's allowed operations.")
    target_id: str = Field(description="The id of the element changed (empty for add_new_primitive).")
    before: str = Field(description="The element as the space states it.")
    after: str = Field(min_length=3, description="What it becomes.")
    rationale: str = Field(min_length=10, description="Why this change opens new solutions.")
    hypothesis: HypothesisDraft = Field(description="The hypothesis the transformed space allows.")


class LogicCheckOutput(BaseModel):
    """The reasoning first, the scores after it (a model writes in schema order)."""

    reasons: list[str] = Field(default_factory=list, description="First: why any score that follows is low.")
    analogy_validity: float = Field(ge=0, le=10)
    internal_consistency: float = Field(ge=0, le=10)
    causal_rigor: float = Field(ge=0, le=10)


@dataclass(frozen=True, slots=True)
class TransformContext:
    parent: Hypothesis
    problem: str
    frame: ProblemFrame
    space: ConceptSpace


@dataclass(frozen=True, slots=True)
class LogicCheckContext:
    parent: Hypothesis
    space: ConceptSpace
    proposal: TransformProposal
    draft: HypothesisDraft


def transform_request(
    parent: Hypothesis, problem: str, frame: ProblemFrame, space: ConceptSpace
) -> StructuredRequest[TransformOutput]:
    return StructuredRequest(
        name="record_transform_space_proposal",
        purpose="Record one transformation of the concept space and the hypothesis it allows.",
        instructions=f"{BISO_INSTRUCTIONS}{TRANSFORM_INSTRUCTIONS}",
        input=f"Problem:\n{problem}\n\n{frame_text(frame)}\n\n{space_prompt_text(space)}\n\n{parent_text(parent)}",
        output=TransformOutput,
        max_tokens=2500,
        offline_context=TransformContext(parent, problem, frame, space),
    )


def proposal_of(output: TransformOutput) -> TransformProposal:
    return TransformProposal(output.op, output.target_id.strip(), output.before, output.after, output.rationale)


def logic_check_request(
    parent: Hypothesis, space: ConceptSpace, proposal: TransformProposal, draft: HypothesisDraft
) -> StructuredRequest[LogicCheckOutput]:
    change = (
        f"{proposal.op.value} on {proposal.target_id or '(new primitive)'}: «{proposal.before}» → «{proposal.after}»"
    )
    return StructuredRequest(
        name="record_transform_logic_check",
        purpose="Record the logic verdict on one concept-space transformation.",
        instructions=LOGIC_CHECK_INSTRUCTIONS,
        input=(
            f"{space_prompt_text(space)}\n\nTransformation: {change}\nRationale: {proposal.rationale}\n\n"
            f"{parent_text(parent)}\n\nHypothesis in the transformed space: {draft.title}\n"
            f"Statement: {draft.statement}\nMechanism: {draft.mechanism}\nObservable: {draft.observable}"
        ),
        output=LogicCheckOutput,
        max_tokens=800,
        offline_context=LogicCheckContext(parent, space, proposal, draft),
    )


def verdict_of(output: LogicCheckOutput) -> LogicVerdict:
    return LogicVerdict(output.analogy_validity, output.internal_consistency, output.causal_rigor)


def transform_child(
    draft: HypothesisDraft, parents: Sequence[Hypothesis], record: TransformRecord, child_id: HypothesisId, round_: int
) -> Hypothesis:
    child = child_from_draft(draft, SearchOperator.TRANSFORM_SPACE, parents, child_id, round_)
    return replace(child, transform=record)

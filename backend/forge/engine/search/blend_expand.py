"""`blend_expand` (seed 000 §2.3, §4.2.3): Fauconnier–Turner four-space blending of two hypotheses
as the input spaces — a generic space, cross-space mappings and emergent structures, each with an
observable link and a testable prediction — and ONE new hypothesis built on the blend.

Invariants:
    - The blend network is checked (`core.blend_network.check_blend`) before a child exists: a
      blend without emergent structure drawing on both inputs, or without observable links, is a
      failed application with its reasons, never a pool hypothesis.
    - The child's lineage names both parents and `blend_expand`; it keeps the network.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, Field

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import Hypothesis, HypothesisId
from forge.core.search.blend_network import (
    BlendNetwork,
    CrossSpaceKind,
    CrossSpaceMapping,
    EmergentStructure,
    check_blend,
)
from forge.core.search.plan import SearchOperator
from forge.engine.explore.biso import BISO_INSTRUCTIONS, HypothesisDraft, frame_text
from forge.engine.search.operators import child_from_draft, parent_text
from forge.ports import StructuredRequest

BLEND_INSTRUCTIONS = (
    "\n\nOperator BLEND_EXPAND (conceptual blending, Fauconnier & Turner). The two parents are input spaces. "
    "1) Generic space: the abstract structure both share. 2) Cross-space mappings: pairs of counterpart elements "
    "(one from each parent), each as identity, compression, elaboration or completion, and what the pair becomes in "
    "the blend. 3) Emergent structures: what exists in the blend and in NEITHER parent alone — each must combine "
    "elements of both parents, with an observable link (what to measure on the target) and a testable prediction. "
    "Then return ONE new hypothesis built on the strongest emergent structure (mapping of at least 6 rows)."
)


class CrossSpaceMappingOut(BaseModel):
    input_1: str = Field(description="An element of the first parent's space.")
    input_2: str = Field(description="Its counterpart in the second parent's space.")
    kind: CrossSpaceKind = Field(description="identity, compression, elaboration or completion.")
    blended: str = Field(description="What the pair becomes in the blend.")


class EmergentStructureOut(BaseModel):
    description: str = Field(min_length=10, description="The new structure, naming elements of both parents.")
    observable_link: str = Field(description="What to measure on the target to see it.")
    testable_prediction: str = Field(description="What the measurement should show if it holds.")


class BlendOutput(BaseModel):
    generic_space: list[str] = Field(min_length=1, description="The abstract structure both inputs share.")
    cross_space_mappings: list[CrossSpaceMappingOut] = Field(min_length=2, description="Counterpart pairs.")
    emergent_structures: list[EmergentStructureOut] = Field(min_length=1, description="What only the blend has.")
    hypothesis: HypothesisDraft = Field(description="The one new hypothesis built on the blend.")


@dataclass(frozen=True, slots=True)
class BlendContext:
    parents: tuple[Hypothesis, ...]
    problem: str
    frame: ProblemFrame


def input_space_text(h: Hypothesis) -> str:
    """An input space as the emergence check reads it: the hypothesis's own words and concepts."""
    concepts = " ".join(f"{r.source_concept} {r.target_concept}" for r in h.mapping.rows)
    return f"{h.structure} {h.statement} {h.mechanism} {concepts}"


def blend_request(parents: Sequence[Hypothesis], problem: str, frame: ProblemFrame) -> StructuredRequest[BlendOutput]:
    parents_block = "\n\n".join(parent_text(p) for p in parents)
    return StructuredRequest(
        name="record_blend_expand_hypothesis",
        purpose="Record the blend network of two hypotheses and the hypothesis built on it.",
        instructions=f"{BISO_INSTRUCTIONS}{BLEND_INSTRUCTIONS}",
        input=f"Problem:\n{problem}\n\n{frame_text(frame)}\n\n{parents_block}",
        output=BlendOutput,
        max_tokens=3000,
        offline_context=BlendContext(tuple(parents), problem, frame),
    )


def network_of(output: BlendOutput) -> BlendNetwork:
    return BlendNetwork(
        tuple(output.generic_space),
        tuple(CrossSpaceMapping(m.input_1, m.input_2, m.kind, m.blended) for m in output.cross_space_mappings),
        tuple(
            EmergentStructure(e.description, e.observable_link, e.testable_prediction)
            for e in output.emergent_structures
        ),
    )


def blend_child(
    output: BlendOutput, parents: Sequence[Hypothesis], child_id: HypothesisId, round_: int
) -> Hypothesis | str:
    """The blended child, or the reasons the network is not a usable blend."""
    network = network_of(output)
    problems = check_blend(network, input_space_text(parents[0]), input_space_text(parents[-1]))
    if problems:
        return "not a usable blend: " + "; ".join(problems)
    child = child_from_draft(output.hypothesis, SearchOperator.BLEND_EXPAND, parents, child_id, round_)
    return replace(child, blend=network)

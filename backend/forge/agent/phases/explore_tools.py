"""Phase 2 (EXPLORE) tools: morphological box, cross-domain analogies, contradictions, adjacent possible.

Invariants:
    - search_cross_domain is gated by rule 13 (research naming the source domain in this phase)
      and counts toward the two cross-domain searches rule 2 needs.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import AnalogyId, ContradictionId, SemanticDistance
from forge.core.enforce_phase_gates import check_research_before_cross_domain
from forge.core.records import Analogy, Contradiction, MappingRow, MorphologicalParameter


class ParameterItem(BaseModel):
    name: str = Field(min_length=2, max_length=200)
    options: list[str] = Field(min_length=2, max_length=10)


class MorphologicalBoxInput(BaseModel):
    parameters: list[ParameterItem] = Field(min_length=2, max_length=10)


class MappingItem(BaseModel):
    source_concept: str = Field(min_length=1, max_length=300)
    target_concept: str = Field(min_length=1, max_length=300)
    relation: str = Field(min_length=1, max_length=500)


class CrossDomainInput(BaseModel):
    source_domain: str = Field(min_length=2, max_length=200)
    target_application: str = Field(min_length=3, max_length=1000)
    analogy_description: str = Field(min_length=10, max_length=4000)
    semantic_distance: SemanticDistance
    mapping: list[MappingItem] = Field(default_factory=list, max_length=12)
    observable: str = Field(default="", max_length=1000)
    failure_mode: str = Field(default="", max_length=1000)


class ContradictionInput(BaseModel):
    property_a: str = Field(min_length=2, max_length=300)
    property_b: str = Field(min_length=2, max_length=300)
    description: str = Field(min_length=5, max_length=2000)
    resolution_direction: str = Field(min_length=5, max_length=2000)
    principles: list[str] = Field(default_factory=list, max_length=6, description="TRIZ inventive principles.")


class AdjacentPossibleInput(BaseModel):
    items: list[str] = Field(min_length=1, max_length=10)


async def build_morphological_box(ctx: ToolContext, args: MorphologicalBoxInput) -> ToolOutcome:
    ctx.state.morphological_box = [MorphologicalParameter(p.name, tuple(p.options)) for p in args.parameters]
    size = 1
    for p in args.parameters:
        size *= len(p.options)
    return ToolOutcome({"parameters": len(args.parameters), "combinations": size}, f"{size} combinations")


async def search_cross_domain(ctx: ToolContext, args: CrossDomainInput) -> ToolOutcome:
    violation = check_research_before_cross_domain(ctx.state, args.source_domain)
    if violation:
        return ToolOutcome.failed(violation)
    analogy = Analogy(
        AnalogyId(ctx.new_id()),
        args.source_domain,
        args.target_application,
        args.analogy_description,
        args.semantic_distance,
        tuple(MappingRow(m.source_concept, m.target_concept, m.relation) for m in args.mapping),
        args.observable,
        args.failure_mode,
    )
    ctx.state.cross_domain_analogies.append(analogy)
    ctx.state.cross_domain_search_count += 1
    index = len(ctx.state.cross_domain_analogies) - 1
    return ToolOutcome(
        {"analogy_index": index, "searches": ctx.state.cross_domain_search_count}, f"analogy from {args.source_domain}"
    )


async def identify_contradictions(ctx: ToolContext, args: ContradictionInput) -> ToolOutcome:
    ctx.state.contradictions.append(
        Contradiction(
            ContradictionId(ctx.new_id()),
            args.property_a,
            args.property_b,
            args.description,
            args.resolution_direction,
            tuple(args.principles),
        )
    )
    return ToolOutcome({"contradictions": len(ctx.state.contradictions)}, f"{args.property_a} vs {args.property_b}")


async def map_adjacent_possible(ctx: ToolContext, args: AdjacentPossibleInput) -> ToolOutcome:
    ctx.state.adjacent_possible.extend(i.strip() for i in args.items if i.strip())
    return ToolOutcome({"adjacent_possible": len(ctx.state.adjacent_possible)}, f"{len(args.items)} item(s)")


EXPLORE_TOOLS = (
    ToolSpec(
        "build_morphological_box",
        "Build the parameter space (parameters x options) of possible solutions.",
        MorphologicalBoxInput,
        build_morphological_box,
    ),
    ToolSpec(
        "search_cross_domain",
        "Record a structural analogy from a distant domain, with a mapping table, an "
        "observable and a failure mode. Requires research naming the source domain first (rule 13); at least "
        "2 are needed.",
        CrossDomainInput,
        search_cross_domain,
    ),
    ToolSpec(
        "identify_contradictions",
        "Record a TRIZ-style contradiction (two requirements that fight) and the direction for resolving it.",
        ContradictionInput,
        identify_contradictions,
    ),
    ToolSpec(
        "map_adjacent_possible",
        "List what lies just beyond current capabilities.",
        AdjacentPossibleInput,
        map_adjacent_possible,
    ),
)

"""Phase 2 (EXPLORE) tools: morphological box, cross-domain analogies, contradictions, adjacent possible.

Invariants:
    - search_cross_domain is gated by rule 13 (research naming the source domain in this phase)
      and counts toward the two cross-domain searches rule 2 needs.
    - One standard for every analogy (issue 36 item 2): an analogy cites a pool hypothesis its brief
      offered (`hypothesis_id`) that passed the mapping-quality gate, or its own table passes that
      gate (`check_mapping_table`, BISO's rules); a refusal lists each failed rule.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.phases.research_relevance_gate import judge_where_words_fail
from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import AnalogyId, ContradictionId, SemanticDistance
from forge.core.explore.mapping_quality_gate import (
    MIN_EFFECTIVE_ROWS,
    MappingTable,
    MappingType,
    check_mapping_table,
    failure_lines,
)
from forge.core.explore.mapping_quality_gate import MappingRow as GateRow
from forge.core.explore.pool_offer import explore_offer
from forge.core.explore.triz_contradiction import TrizResolution, resolve_contradiction
from forge.core.hypotheses.pool import rule_layer_score
from forge.core.rules.phase_gates import check_research_before_cross_domain
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Analogy, Contradiction, MappingRow, MorphologicalParameter


class ParameterItem(BaseModel):
    name: str = Field(
        min_length=2,
        max_length=200,
        description="A design dimension of a solution (e.g. 'binder chemistry', 'tariff structure').",
    )
    options: list[str] = Field(
        min_length=2,
        max_length=10,
        description="Distinct values that dimension can take (e.g. 'lime', 'geopolymer', 'bacterial').",
    )


class MorphologicalBoxInput(BaseModel):
    parameters: list[ParameterItem] = Field(
        min_length=2, max_length=10, description="Independent dimensions; together they span the solution space."
    )


class MappingItem(BaseModel):
    source_concept: str = Field(min_length=1, max_length=300, description="An element of the source domain.")
    target_concept: str = Field(min_length=1, max_length=300, description="The element of the problem it maps to.")
    relation: str = Field(
        min_length=1,
        max_length=500,
        description="The shared structure or mechanism: why the two play the same role (not a surface likeness).",
    )
    source_relation: str = Field(
        min_length=1, max_length=500, description="What the source concept does, or how it relates, in the source."
    )
    target_relation: str = Field(
        min_length=1, max_length=500, description="The corresponding relation of the target concept in the problem."
    )
    mapping_type: MappingType = Field(
        default=MappingType.ENTITY,
        description="entity, attribute, relation, or higher_order (a relation between relations: a causal chain, "
        "a feedback loop, a constraint).",
    )
    systematicity_group: str = Field(
        default="", max_length=120, description="Rows that tell one causal story share a group name."
    )
    observable_link: str = Field(
        min_length=1, max_length=300, description="What one would measure in the problem to see this row hold."
    )


class CrossDomainInput(BaseModel):
    source_domain: str = Field(
        min_length=2,
        max_length=200,
        description="The distant field the analogy comes from, named as in your research query (e.g. 'ant colony foraging').",
    )
    target_application: str = Field(
        min_length=3, max_length=1000, description="Where in the problem the mechanism would be applied."
    )
    analogy_description: str = Field(
        min_length=10,
        max_length=4000,
        description="The mechanism in the source domain and how it would work in the problem, citing what research found.",
    )
    semantic_distance: SemanticDistance = Field(
        description="How far the source domain is from the problem's own field: near (adjacent field), medium, "
        "far (a different kind of system altogether; the most valuable when the structure still holds)."
    )
    mapping: list[MappingItem] = Field(
        min_length=MIN_EFFECTIVE_ROWS,
        max_length=12,
        description=f"The mapping table: at least {MIN_EFFECTIVE_ROWS} rows (as BISO's) pairing source elements "
        "with problem elements.",
    )
    observable: str = Field(
        min_length=10,
        max_length=1000,
        description="What one would measure in the problem to see whether the analogy holds (metric and setting).",
    )
    failure_mode: str = Field(
        min_length=10,
        max_length=1000,
        description="Where the analogy breaks: a difference between the domains that would make the transfer fail.",
    )
    hypothesis_id: str | None = Field(
        default=None,
        max_length=120,
        description="The id of the pool hypothesis (from the brief's `pool`) this analogy researches and promotes. "
        "Without it the analogy is new, and its mapping table must pass the mapping-quality gate every pool "
        "hypothesis met.",
    )


class ContradictionInput(BaseModel):
    property_a: str = Field(min_length=2, max_length=300, description="The property to improve.")
    property_b: str = Field(min_length=2, max_length=300, description="The property that gets worse when A improves.")
    description: str = Field(
        min_length=5, max_length=2000, description="Why improving A worsens B in this problem, concretely."
    )
    resolution_direction: str = Field(
        min_length=5,
        max_length=2000,
        description="How to get both (separate in time, space, scale or condition), not a compromise between them.",
    )
    improving_parameter: str | None = Field(
        default=None,
        max_length=120,
        description="Property A as one of the 39 classic TRIZ engineering parameters, by number or name "
        "(e.g. '9 Speed', '39 Productivity'). Give it with worsening_parameter and the contradiction matrix "
        "supplies the principles exactly; leave both out for a physical contradiction (same parameter).",
    )
    worsening_parameter: str | None = Field(
        default=None,
        max_length=120,
        description="Property B as one of the 39 TRIZ engineering parameters, by number or name "
        "(e.g. '27 Reliability', '36 Device complexity').",
    )
    principles: list[str] = Field(
        default_factory=list,
        max_length=6,
        description="TRIZ inventive principles that resolve it, as 'number name' from the 40 principles "
        "(e.g. '1 Segmentation', '15 Dynamics', '35 Parameter changes'). With both parameters given, the "
        "matrix cell's principles are recorded first and these are kept as your own additions.",
    )


class AdjacentPossibleInput(BaseModel):
    items: list[str] = Field(
        min_length=1,
        max_length=10,
        description="Steps just beyond what exists today that current parts and knowledge make reachable, one per item.",
    )


async def build_morphological_box(ctx: ToolContext, args: MorphologicalBoxInput) -> ToolOutcome:
    ctx.state.morphological_box = [MorphologicalParameter(p.name, tuple(p.options)) for p in args.parameters]
    size = 1
    for p in args.parameters:
        size *= len(p.options)
    return ToolOutcome({"parameters": len(args.parameters), "combinations": size}, f"{size} combinations")


GATE_ROWS = (
    "each row: source_concept with its source_relation -> target_concept with its target_relation, a "
    "mapping_type, a systematicity_group and an observable_link"
)


def _table(args: CrossDomainInput) -> MappingTable:
    return MappingTable(
        tuple(
            GateRow(
                m.source_concept,
                m.source_relation,
                m.target_concept,
                m.target_relation,
                m.mapping_type,
                m.systematicity_group,
                m.observable_link,
            )
            for m in args.mapping
        )
    )


def _not_offered(hypothesis_id: str, offered: list[str]) -> RuleViolation:
    shown = ", ".join(offered) or "none: this round's brief has no pool"
    return RuleViolation(
        ErrorCode.INVALID_INPUT,
        f"hypothesis_id '{hypothesis_id}' is not in the brief's pool; the ids offered are: {shown}. Leave it out "
        "to record a new analogy (its mapping table must then pass the mapping-quality gate).",
    )


def gated_score(state: ForgeState, args: CrossDomainInput) -> float | RuleViolation:
    """The mapping score the analogy stands on: the cited pool hypothesis's when it passed the gate, else
    its own table's — judged by the same gate as BISO's (`check_mapping_table`), refused with its reasons."""
    offer = {c.id: c for c in explore_offer(state)}
    cited = offer.get(args.hypothesis_id) if args.hypothesis_id else None
    if args.hypothesis_id and cited is None:
        return _not_offered(args.hypothesis_id, list(offer))
    if cited is not None and cited.gate_passed:
        return cited.mapping_score
    table = _table(args)
    verdict = check_mapping_table(table, " ".join((args.analogy_description, args.observable, args.failure_mode)))
    if verdict.passed:
        return rule_layer_score(verdict, len({table.rows[i].mapping_type for i in verdict.effective_rows}))
    lead = (
        f"Pool hypothesis {cited.id} failed the mapping-quality gate ({cited.gate}), so your own table must pass it"
        if cited is not None
        else "This new analogy's mapping table does not pass the mapping-quality gate (the rules every pool "
        "hypothesis met)"
    )
    return RuleViolation(
        ErrorCode.INVALID_INPUT,
        f"{lead}:\n" + "\n".join(failure_lines(verdict)) + f"\nFix the table ({GATE_ROWS}) and call again, or "
        "build on a pool hypothesis of the brief by passing its id as hypothesis_id.",
    )


async def search_cross_domain(ctx: ToolContext, args: CrossDomainInput) -> ToolOutcome:
    by_words = check_research_before_cross_domain(ctx.state, args.source_domain)
    judged = await judge_where_words_fail(ctx, args.source_domain, by_words)
    violation = check_research_before_cross_domain(ctx.state, args.source_domain, judged.judgment)
    if violation:
        return judged.failed(violation)
    score = gated_score(ctx.state, args)
    if isinstance(score, RuleViolation):
        return judged.failed(score)
    analogy = Analogy(
        AnalogyId(ctx.new_id()),
        args.source_domain,
        args.target_application,
        args.analogy_description,
        args.semantic_distance,
        tuple(MappingRow(m.source_concept, m.target_concept, m.relation) for m in args.mapping),
        args.observable,
        args.failure_mode,
        hypothesis_id=args.hypothesis_id or "",
        mapping_score=score,
    )
    ctx.state.cross_domain_analogies.append(analogy)
    ctx.state.cross_domain_search_count += 1
    index = len(ctx.state.cross_domain_analogies) - 1
    payload = {"analogy_index": index, "searches": ctx.state.cross_domain_search_count, "mapping_score": score}
    builds_on = {"builds_on": args.hypothesis_id} if args.hypothesis_id else {"gate": "passed"}
    return ToolOutcome(payload | builds_on, f"analogy from {args.source_domain}", notices=judged.notices)


def _matrix_resolution(ctx: ToolContext, args: ContradictionInput) -> TrizResolution | RuleViolation | None:
    """The matrix cell for the named parameters; None when the model named none."""
    if args.improving_parameter is None and args.worsening_parameter is None:
        return None
    if args.improving_parameter is None or args.worsening_parameter is None:
        return RuleViolation(
            ErrorCode.INVALID_INPUT,
            "Give both improving_parameter and worsening_parameter (the matrix needs the pair), or neither.",
        )
    if ctx.triz is None:  # a run is always given the shipped matrix; only a bare test context lacks it
        return RuleViolation(ErrorCode.TOOL_FAILED, "The TRIZ matrix is not loaded in this run.")
    return resolve_contradiction(ctx.triz, args.improving_parameter, args.worsening_parameter, args.principles)


async def identify_contradictions(ctx: ToolContext, args: ContradictionInput) -> ToolOutcome:
    resolution = _matrix_resolution(ctx, args)
    if isinstance(resolution, RuleViolation):
        return ToolOutcome.failed(resolution)
    contradiction = Contradiction(
        ContradictionId(ctx.new_id()),
        args.property_a,
        args.property_b,
        args.description,
        args.resolution_direction,
        resolution.principles if resolution else tuple(args.principles),
        resolution.cell if resolution else None,
    )
    ctx.state.contradictions.append(contradiction)
    payload: dict[str, object] = {"contradictions": len(ctx.state.contradictions)}
    if resolution is not None:
        payload |= {
            "matrix_cell": [resolution.cell.improving, resolution.cell.worsening],
            "matrix_principles": list(resolution.principles[: len(resolution.cell.principles)]),
            "your_additions": list(resolution.added_by_model),
        }
        if not resolution.cell.principles:
            payload["note"] = "The classic matrix is empty for this pair; your principles were recorded."
        if resolution.not_principles:
            payload["not_among_the_40"] = list(resolution.not_principles)
    return ToolOutcome(payload, f"{args.property_a} vs {args.property_b}")


async def map_adjacent_possible(ctx: ToolContext, args: AdjacentPossibleInput) -> ToolOutcome:
    ctx.state.adjacent_possible.extend(i.strip() for i in args.items if i.strip())
    return ToolOutcome({"adjacent_possible": len(ctx.state.adjacent_possible)}, f"{len(args.items)} item(s)")


EXPLORE_TOOLS = (
    ToolSpec(
        "build_morphological_box",
        "Record the solution space as a morphological box: independent design dimensions, each with its "
        "options. Use it early in EXPLORE so analogies and contradictions can be placed in it; a later call "
        "replaces the box. It only records what you write; it does not search.",
        MorphologicalBoxInput,
        build_morphological_box,
    ),
    ToolSpec(
        "search_cross_domain",
        "Record a structural analogy from a distant domain: a mechanism that solves the same structural problem "
        "there. Call research with a query naming the source domain in this phase first (rule 13); this tool "
        "records, it does not search. At least 2 analogies from different domains are needed; each needs a "
        "mapping table, an observable and a failure mode. Pass hypothesis_id to promote a pool hypothesis of the "
        "brief; a new analogy's table must pass the mapping-quality gate (>= 6 rows that each add something, "
        "each with both relations and an observable_link, >= 2 mapping types, one systematicity group of >= 3 "
        "rows, rows the observable or failure mode uses).",
        CrossDomainInput,
        search_cross_domain,
    ),
    ToolSpec(
        "identify_contradictions",
        "Record a TRIZ contradiction: improving one property of the system worsens another, plus the direction "
        "that resolves it without a compromise and the inventive principles behind it. At least 1 is needed. "
        "Name the two TRIZ engineering parameters (improving_parameter, worsening_parameter) and the classic "
        "contradiction matrix supplies the principles; add your own from the 40 by number and name.",
        ContradictionInput,
        identify_contradictions,
    ),
    ToolSpec(
        "map_adjacent_possible",
        "Record what lies just beyond current capabilities: combinations that existing parts and knowledge "
        "make reachable next. Calls accumulate. Optional for the phase gate, but it feeds SYNTHESIZE.",
        AdjacentPossibleInput,
        map_adjacent_possible,
    ),
)

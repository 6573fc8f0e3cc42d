"""Phase 1 (DECOMPOSE) tools: fundamentals, state of the art, assumptions, reframings.

Invariants:
    - map_state_of_art is gated by rule 12 and cites only researched sources (rule 7).
    - Assumptions and reframings accumulate; duplicates (same text) are ignored.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.phases.evidence_from_research import CITED_SOURCES, QUOTED_EVIDENCE, evidence_for_sources
from forge.agent.phases.research_relevance_gate import judge_where_words_fail
from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import EvidenceType, ReframingId, ReframingType
from forge.core.rules.claim_rules import check_sources_researched
from forge.core.rules.phase_gates import check_research_before_state_of_art
from forge.core.rules.verdicts import first_violation
from forge.core.session.records import Assumption, Reframing, StateOfArt


class FundamentalsInput(BaseModel):
    fundamentals: list[str] = Field(
        min_length=1,
        max_length=12,
        description="Irreducible elements, one per item, each a full sentence naming a quantity, mechanism or "
        "constraint (good: 'Crack width grows with each freeze-thaw cycle once water reaches the pores'; bad: 'durability').",
    )


class StateOfArtInput(BaseModel):
    summary: str = Field(
        min_length=10,
        max_length=4000,
        description="What is known and tried today, with numbers where research gave them, and where it falls "
        "short; every statement traceable to one of `sources`.",
    )
    sources: list[str] = Field(min_length=1, description=CITED_SOURCES + QUOTED_EVIDENCE)


class AssumptionsInput(BaseModel):
    assumptions: list[str] = Field(
        min_length=1,
        max_length=10,
        description="Hidden assumptions in how the problem is posed, each one a testable sentence "
        "(good: 'Applicants cannot file the permit stages in parallel'; bad: 'resources are limited').",
    )


class ReframingItem(BaseModel):
    text: str = Field(
        min_length=3, max_length=2000, description="The problem restated as a question, in the problem's language."
    )
    reframing_type: ReframingType = Field(
        description="scope_change: widen or narrow the system; entity_question: ask about a different actor or "
        "object; variable_change: optimise a different quantity; domain_change: pose it as a problem of another field."
    )


class ReframeInput(BaseModel):
    reframings: list[ReframingItem] = Field(
        min_length=1, max_length=8, description="New formulations; ideally one of each type."
    )


async def decompose_to_fundamentals(ctx: ToolContext, args: FundamentalsInput) -> ToolOutcome:
    known = set(ctx.state.fundamentals)
    ctx.state.fundamentals.extend(f.strip() for f in args.fundamentals if f.strip() and f.strip() not in known)
    return ToolOutcome({"fundamentals": ctx.state.fundamentals}, f"{len(ctx.state.fundamentals)} fundamental(s)")


async def map_state_of_art(ctx: ToolContext, args: StateOfArtInput) -> ToolOutcome:
    s = ctx.state
    judged = await judge_where_words_fail(ctx, s.problem, check_research_before_state_of_art(s))
    violation = first_violation(
        check_research_before_state_of_art(s, judged.judgment), check_sources_researched(s, args.sources)
    )
    if violation:
        return judged.failed(violation)
    evidence = evidence_for_sources(
        ctx.state, args.sources, EvidenceType.CONTEXTUAL, ctx.new_id, recorded_text=args.summary
    )
    ctx.state.state_of_art = StateOfArt(args.summary, evidence)
    return ToolOutcome(
        {"recorded": True, "sources": [e.source for e in evidence]},
        f"state of the art with {len(evidence)} source(s)",
        notices=judged.notices,
    )


async def extract_assumptions(ctx: ToolContext, args: AssumptionsInput) -> ToolOutcome:
    known = {a.text for a in ctx.state.assumptions}
    ctx.state.assumptions.extend(
        Assumption(t.strip()) for t in args.assumptions if t.strip() and t.strip() not in known
    )
    count = len(ctx.state.assumptions)
    return ToolOutcome({"assumptions": [a.text for a in ctx.state.assumptions]}, f"{count} assumption(s)")


async def reframe_problem(ctx: ToolContext, args: ReframeInput) -> ToolOutcome:
    known = {r.text for r in ctx.state.reframings}
    for item in args.reframings:
        if item.text.strip() not in known:
            ctx.state.reframings.append(Reframing(ReframingId(ctx.new_id()), item.text.strip(), item.reframing_type))
    listed = [{"index": i, "text": r.text, "type": r.reframing_type.value} for i, r in enumerate(ctx.state.reframings)]
    return ToolOutcome({"reframings": listed}, f"{len(listed)} reframing(s)")


DECOMPOSE_TOOLS = (
    ToolSpec(
        "decompose_to_fundamentals",
        "Record the problem's irreducible elements: the quantities, mechanisms and constraints any solution "
        "must deal with. Use it once you understand the problem, before mapping the state of the art; calls "
        "accumulate and exact duplicates are ignored. It only records what you write; it does not search.",
        FundamentalsInput,
        decompose_to_fundamentals,
    ),
    ToolSpec(
        "map_state_of_art",
        "Record what is known and tried today, citing research. Call research with a query about the problem "
        "in this phase first (rule 12), then pass the `source` strings of the results you relied on. A later "
        "call replaces the earlier summary. It does not search; cite only what research returned (rule 7).",
        StateOfArtInput,
        map_state_of_art,
    ),
    ToolSpec(
        "extract_assumptions",
        "Record hidden assumptions in the problem as posed: what everyone takes for granted that might be "
        "false. At least 3 in total are needed; calls accumulate. The person confirms or rejects each one at "
        "the review, and rejected assumptions must not shape later work.",
        AssumptionsInput,
        extract_assumptions,
    ),
    ToolSpec(
        "reframe_problem",
        "Record alternative formulations of the problem that open different solution spaces. At least 3 in "
        "total are needed, ideally one of each type; calls accumulate. The person selects at least one, and "
        "the selected ones guide every later phase.",
        ReframeInput,
        reframe_problem,
    ),
)

"""Phase 1 (DECOMPOSE) tools: fundamentals, state of the art, assumptions, reframings.

Invariants:
    - map_state_of_art is gated by rule 12 and cites only researched sources (rule 7).
    - Assumptions and reframings accumulate; duplicates (same text) are ignored.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.agent.phases.evidence_from_research import evidence_for_sources
from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import EvidenceType, ReframingId, ReframingType
from forge.core.enforce_claim_rules import check_sources_researched
from forge.core.enforce_phase_gates import check_research_before_state_of_art
from forge.core.records import Assumption, Reframing, StateOfArt
from forge.core.rule_verdicts import first_violation

Text = Field(min_length=3, max_length=2000)


class FundamentalsInput(BaseModel):
    fundamentals: list[str] = Field(min_length=1, max_length=12, description="Irreducible elements of the problem.")


class StateOfArtInput(BaseModel):
    summary: str = Field(min_length=10, max_length=4000)
    sources: list[str] = Field(min_length=1, description="`source` values returned by research.")


class AssumptionsInput(BaseModel):
    assumptions: list[str] = Field(min_length=1, max_length=10)


class ReframingItem(BaseModel):
    text: str = Text
    reframing_type: ReframingType


class ReframeInput(BaseModel):
    reframings: list[ReframingItem] = Field(min_length=1, max_length=8)


async def decompose_to_fundamentals(ctx: ToolContext, args: FundamentalsInput) -> ToolOutcome:
    known = set(ctx.state.fundamentals)
    ctx.state.fundamentals.extend(f.strip() for f in args.fundamentals if f.strip() and f.strip() not in known)
    return ToolOutcome({"fundamentals": ctx.state.fundamentals}, f"{len(ctx.state.fundamentals)} fundamental(s)")


async def map_state_of_art(ctx: ToolContext, args: StateOfArtInput) -> ToolOutcome:
    violation = first_violation(
        check_research_before_state_of_art(ctx.state), check_sources_researched(ctx.state, args.sources)
    )
    if violation:
        return ToolOutcome.failed(violation)
    evidence = evidence_for_sources(ctx.state, args.sources, EvidenceType.CONTEXTUAL, ctx.new_id)
    ctx.state.state_of_art = StateOfArt(args.summary, evidence)
    return ToolOutcome(
        {"recorded": True, "sources": [e.source for e in evidence]}, f"state of the art with {len(evidence)} source(s)"
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
        "Break the problem into irreducible elements.",
        FundamentalsInput,
        decompose_to_fundamentals,
    ),
    ToolSpec(
        "map_state_of_art",
        "Record the current state of the art, citing research sources. Requires research "
        "about the problem first (rule 12).",
        StateOfArtInput,
        map_state_of_art,
    ),
    ToolSpec(
        "extract_assumptions",
        "Identify hidden assumptions (at least 3 in total).",
        AssumptionsInput,
        extract_assumptions,
    ),
    ToolSpec(
        "reframe_problem",
        "Generate alternative formulations of the problem (at least 3 in total; the user selects at least one).",
        ReframeInput,
        reframe_problem,
    ),
)

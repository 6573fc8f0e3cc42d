"""Phase 3 (SYNTHESIZE) tools: thesis -> antithesis -> synthesis, at most three claims per round.

Invariants:
    - state_thesis: rules 10 (negative knowledge in rounds 2+), 8 (claim limit), 7 (cited sources).
    - find_antithesis: rule 14 (research on the thesis' terms) and rule 7 for its sources.
    - create_synthesis: rules 3 (antithesis first), 10 and 9 (rounds 2+ build on earlier claims).
"""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from pydantic import BaseModel, Field

from forge.agent.phases.evidence_from_research import evidence_for_sources
from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import ClaimId, ClaimType, EvidenceType, Phase
from forge.core.enforce_claim_rules import (
    check_antithesis_exists,
    check_claim_index,
    check_claim_limit,
    check_cumulative,
    check_sources_researched,
)
from forge.core.enforce_phase_gates import check_negative_knowledge_consulted, check_research_before_antithesis
from forge.core.records import Claim
from forge.core.rule_verdicts import first_violation


class ThesisInput(BaseModel):
    thesis: str = Field(min_length=10, max_length=2000)
    evidence_sources: list[str] = Field(default_factory=list, description="Research `source` values.")
    cross_domain_source: str | None = Field(default=None, description="The analogy's source domain, if any.")


class AntithesisInput(BaseModel):
    claim_index: int = Field(ge=0, le=2)
    antithesis: str = Field(min_length=10, max_length=2000)
    evidence_sources: list[str] = Field(default_factory=list)


class SynthesisInput(BaseModel):
    claim_index: int = Field(ge=0, le=2)
    claim_text: str = Field(min_length=10, max_length=2000)
    falsifiability_condition: str = Field(min_length=10, max_length=1000)
    builds_on_claim_id: str | None = Field(default=None, description="Required in rounds 2+ (rule 9).")


def _parse_claim_id(raw: str | None) -> tuple[ClaimId, ...]:
    try:
        return (ClaimId(UUID(raw)),) if raw else ()
    except ValueError:
        return ()


async def state_thesis(ctx: ToolContext, args: ThesisInput) -> ToolOutcome:
    s = ctx.state
    violation = first_violation(
        check_negative_knowledge_consulted(s), check_claim_limit(s), check_sources_researched(s, args.evidence_sources)
    )
    if violation:
        return ToolOutcome.failed(violation)
    claim_id = ClaimId(ctx.new_id())
    evidence = evidence_for_sources(s, args.evidence_sources, EvidenceType.SUPPORTING, ctx.new_id, claim_id)
    s.current_round_claims.append(
        Claim(
            claim_id,
            args.thesis,
            ClaimType.THESIS,
            s.current_round,
            Phase.SYNTHESIZE,
            thesis_text=args.thesis,
            evidence=evidence,
            cross_domain_source=args.cross_domain_source,
        )
    )
    s.theses_stated += 1
    index = len(s.current_round_claims) - 1
    return ToolOutcome(
        {"claim_index": index, "claim_id": str(claim_id), "claims_remaining": s.claims_remaining},
        f"thesis {index} stated",
    )


async def find_antithesis(ctx: ToolContext, args: AntithesisInput) -> ToolOutcome:
    s = ctx.state
    violation = check_claim_index(s, args.claim_index)
    if violation:
        return ToolOutcome.failed(violation)
    claim = s.current_round_claims[args.claim_index]
    violation = first_violation(
        check_research_before_antithesis(s, claim.thesis_text), check_sources_researched(s, args.evidence_sources)
    )
    if violation:
        return ToolOutcome.failed(violation)
    evidence = evidence_for_sources(s, args.evidence_sources, EvidenceType.CONTRADICTING, ctx.new_id, claim.id)
    s.current_round_claims[args.claim_index] = replace(
        claim, antithesis_text=args.antithesis, claim_type=ClaimType.ANTITHESIS, evidence=claim.evidence + evidence
    )
    s.antitheses_searched.add(args.claim_index)
    return ToolOutcome(
        {"claim_index": args.claim_index, "antithesis_recorded": True}, f"antithesis for claim {args.claim_index}"
    )


async def create_synthesis(ctx: ToolContext, args: SynthesisInput) -> ToolOutcome:
    s = ctx.state
    builds_on = _parse_claim_id(args.builds_on_claim_id)
    violation = first_violation(
        check_claim_index(s, args.claim_index),
        check_antithesis_exists(s, args.claim_index),
        check_negative_knowledge_consulted(s),
        check_cumulative(s, builds_on),
    )
    if violation:
        return ToolOutcome.failed(violation)
    if s.current_round > 0 and builds_on:
        s.previous_claims_referenced = True
    claim = s.current_round_claims[args.claim_index]
    s.current_round_claims[args.claim_index] = replace(
        claim,
        text=args.claim_text,
        claim_type=ClaimType.SYNTHESIS,
        synthesized=True,
        falsifiability_condition=args.falsifiability_condition,
        builds_on=claim.builds_on + builds_on,
    )
    return ToolOutcome(
        {"claim_index": args.claim_index, "claim_id": str(claim.id)}, f"synthesis for claim {args.claim_index}"
    )


SYNTHESIZE_TOOLS = (
    ToolSpec(
        "state_thesis",
        "State a knowledge direction (a thesis) citing research sources. At most 3 per round "
        "(rule 8); in rounds 2+ call get_negative_knowledge first (rule 10).",
        ThesisInput,
        state_thesis,
    ),
    ToolSpec(
        "find_antithesis",
        "Record the strongest counter-position to a thesis. Requires research for "
        "counter-evidence on the thesis' terms first (rule 14).",
        AntithesisInput,
        find_antithesis,
    ),
    ToolSpec(
        "create_synthesis",
        "Create the claim that transcends thesis and antithesis, with a concrete "
        "falsifiability condition. Requires find_antithesis for that claim (rule 3); rounds 2+ must pass "
        "builds_on_claim_id (rule 9).",
        SynthesisInput,
        create_synthesis,
    ),
)

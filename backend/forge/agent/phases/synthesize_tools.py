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

from forge.agent.phases.evidence_from_research import CITED_SOURCES, QUOTED_EVIDENCE, evidence_for_sources
from forge.agent.phases.research_relevance_gate import judge_research_for
from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import ClaimId, ClaimType, EvidenceType, Phase
from forge.core.explore.pool_offer import suggested_offer
from forge.core.rules.claim_rules import (
    check_antithesis_exists,
    check_claim_index,
    check_claim_limit,
    check_cumulative,
    check_sources_researched,
)
from forge.core.rules.phase_gates import check_negative_knowledge_consulted, check_research_before_antithesis
from forge.core.rules.verdicts import ErrorCode, RuleViolation, first_violation
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim

CLAIM_INDEX = "Index of the claim in this round (0, 1 or 2), as state_thesis returned it."


class ThesisInput(BaseModel):
    thesis: str = Field(
        min_length=10,
        max_length=2000,
        description="A knowledge direction that answers the problem, stated as a mechanism with its expected effect.",
    )
    evidence_sources: list[str] = Field(min_length=1, description="At least one; " + CITED_SOURCES + QUOTED_EVIDENCE)
    cross_domain_source: str | None = Field(
        default=None, description="The source domain of the analogy this thesis transfers, if it comes from one."
    )
    hypothesis_ids: list[str] = Field(
        default_factory=list,
        max_length=6,
        description="Ids of the pool hypotheses this thesis builds on: a search_candidates id, a starred "
        "analogy's hypothesis_id or a suggested_domain_results candidate id from the brief.",
    )


class AntithesisInput(BaseModel):
    claim_index: int = Field(ge=0, le=2, description=CLAIM_INDEX)
    antithesis: str = Field(
        min_length=10,
        max_length=2000,
        description="The strongest case against the thesis: the evidence or mechanism that makes it fail or "
        "reverse, not a weak objection (strong: 'Cooking and heating are 60% of evening load in the cited survey "
        "and cannot move, so the shiftable share is below the 8% claimed'; weak: 'People may ignore prices').",
    )
    evidence_sources: list[str] = Field(
        default_factory=list, description="Counter-evidence found by research; " + CITED_SOURCES + QUOTED_EVIDENCE
    )


class SynthesisInput(BaseModel):
    claim_index: int = Field(ge=0, le=2, description=CLAIM_INDEX)
    claim_text: str = Field(
        min_length=10,
        max_length=2000,
        description="The claim that survives the antithesis: scoped to where it holds, with a mechanism and an "
        "effect size (good: 'A 3:1 peak-to-off-peak tariff shifts 8-12% of household load out of the evening "
        "peak where meters show the price live, because...'; bad: 'Better pricing reduces peaks').",
    )
    falsifiability_condition: str = Field(
        min_length=10,
        max_length=1000,
        description="The observation that would show the claim wrong: metric, baseline, threshold and time window "
        "(good: 'If the evening-peak share of household load does not fall >= 5% below its 12-month baseline "
        "within 3 months of the tariff, the claim is false').",
    )
    builds_on_claim_id: str | None = Field(
        default=None,
        description="Id of an earlier round's claim this one builds on; required in rounds 2+ (rule 9).",
    )


def offered_hypotheses(state: ForgeState) -> list[str]:
    """The pool ids SYNTHESIZE's brief offers: SEARCH's candidates, the starred pool hypotheses and the
    results on the domains the person suggested."""
    search = state.search
    searched = [c.id for c in search.candidates] if search is not None and search.round == state.current_round else []
    starred = [a.hypothesis_id for a in state.starred_analogies if a.hypothesis_id]
    suggested = [c.id for c in suggested_offer(state)]
    return list(dict.fromkeys([*searched, *starred, *suggested]))


def check_hypothesis_ids(state: ForgeState, ids: list[str]) -> RuleViolation | None:
    offered = offered_hypotheses(state)
    unknown = [i for i in ids if i not in offered]
    if not unknown:
        return None
    shown = ", ".join(offered) or "none: this round has no SEARCH candidates or starred pool hypotheses"
    return RuleViolation(
        ErrorCode.INVALID_INPUT,
        f"hypothesis_ids {unknown} are not in the brief; the ids offered are: {shown}.",
    )


def _parse_claim_id(raw: str | None) -> tuple[ClaimId, ...]:
    try:
        return (ClaimId(UUID(raw)),) if raw else ()
    except ValueError:
        return ()


async def state_thesis(ctx: ToolContext, args: ThesisInput) -> ToolOutcome:
    s = ctx.state
    violation = first_violation(
        check_negative_knowledge_consulted(s),
        check_claim_limit(s),
        check_sources_researched(s, args.evidence_sources),
        check_hypothesis_ids(s, args.hypothesis_ids),
    )
    if violation:
        return ToolOutcome.failed(violation)
    claim_id = ClaimId(ctx.new_id())
    evidence = evidence_for_sources(
        s, args.evidence_sources, EvidenceType.SUPPORTING, ctx.new_id, claim_id, s.problem, args.thesis
    )
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
            hypothesis_ids=tuple(dict.fromkeys(args.hypothesis_ids)),
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
    judged = await judge_research_for(ctx, claim.thesis_text)
    violation = first_violation(
        check_research_before_antithesis(s, claim.thesis_text, judged.judgment),
        check_sources_researched(s, args.evidence_sources),
    )
    if violation:
        return judged.failed(violation)
    evidence = evidence_for_sources(
        s, args.evidence_sources, EvidenceType.CONTRADICTING, ctx.new_id, claim.id, recorded_text=args.antithesis
    )
    s.current_round_claims[args.claim_index] = replace(
        claim, antithesis_text=args.antithesis, claim_type=ClaimType.ANTITHESIS, evidence=claim.evidence + evidence
    )
    s.antitheses_searched.add(args.claim_index)
    return ToolOutcome(
        {"claim_index": args.claim_index, "antithesis_recorded": True},
        f"antithesis for claim {args.claim_index}",
        notices=judged.notices,
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
        "State a knowledge direction (a thesis) that would answer the problem, citing at least one research "
        "source. At most 3 per round (rule 8): choose directions that differ in mechanism, not wording. In "
        "rounds 2+ call get_negative_knowledge first (rule 10) and do not restate a rejected direction. Returns "
        "the claim_index the next tools use.",
        ThesisInput,
        state_thesis,
    ),
    ToolSpec(
        "find_antithesis",
        "Record the strongest counter-position to a thesis. First call research for counter-evidence with a query "
        "on the thesis' own terms (rule 14); this tool records, it does not search. A weak antithesis makes a "
        "weak synthesis: look for the case where the mechanism fails or reverses.",
        AntithesisInput,
        find_antithesis,
    ),
    ToolSpec(
        "create_synthesis",
        "Record the claim that survives both thesis and antithesis, scoped to where it holds, with a "
        "falsifiability condition naming metric, baseline, threshold and time window. Requires find_antithesis "
        "for that claim first (rule 3); in rounds 2+ pass builds_on_claim_id of an earlier claim (rule 9). "
        "Calling it again for the same claim_index replaces the claim text.",
        SynthesisInput,
        create_synthesis,
    ),
)

"""Phase 4 (VALIDATE) tools: falsification, novelty, scoring.

Invariants:
    - attempt_falsification: rule 15 (research aimed at disproving the claim).
    - score_claim: rules 5 (falsification first), 6 (novelty first) and 7 (claim has evidence).
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import BaseModel, Field

from forge.agent.phases.evidence_from_research import evidence_for_sources
from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import EvidenceType
from forge.core.enforce_claim_rules import (
    check_claim_grounded,
    check_claim_index,
    check_falsification_attempted,
    check_novelty_checked,
    check_sources_researched,
)
from forge.core.enforce_phase_gates import check_research_before_falsification
from forge.core.records import ClaimScores
from forge.core.rule_verdicts import first_violation

Score = Field(ge=0.0, le=1.0)


class FalsificationInput(BaseModel):
    claim_index: int = Field(ge=0, le=2)
    approach: str = Field(min_length=5, max_length=2000)
    result: str = Field(min_length=5, max_length=2000)
    survived: bool
    evidence_sources: list[str] = Field(default_factory=list)


class NoveltyInput(BaseModel):
    claim_index: int = Field(ge=0, le=2)
    assessment: str = Field(min_length=5, max_length=2000)
    is_novel: bool


class ScoreInput(BaseModel):
    claim_index: int = Field(ge=0, le=2)
    novelty: float = Score
    groundedness: float = Score
    falsifiability: float = Score
    significance: float = Score


async def attempt_falsification(ctx: ToolContext, args: FalsificationInput) -> ToolOutcome:
    s = ctx.state
    violation = check_claim_index(s, args.claim_index)
    if violation:
        return ToolOutcome.failed(violation)
    claim = s.current_round_claims[args.claim_index]
    violation = first_violation(
        check_research_before_falsification(s, claim.text), check_sources_researched(s, args.evidence_sources)
    )
    if violation:
        return ToolOutcome.failed(violation)
    kind = EvidenceType.CONTEXTUAL if args.survived else EvidenceType.CONTRADICTING
    evidence = evidence_for_sources(s, args.evidence_sources, kind, ctx.new_id, claim.id)
    verdict = "survived" if args.survived else "did not survive"
    s.current_round_claims[args.claim_index] = replace(
        claim, evidence=claim.evidence + evidence, falsification_summary=f"{args.approach} → {args.result} ({verdict})"
    )
    s.falsification_attempted.add(args.claim_index)
    return ToolOutcome(
        {"claim_index": args.claim_index, "survived": args.survived}, f"claim {args.claim_index} {verdict}"
    )


async def check_novelty(ctx: ToolContext, args: NoveltyInput) -> ToolOutcome:
    s = ctx.state
    violation = check_claim_index(s, args.claim_index)
    if violation:
        return ToolOutcome.failed(violation)
    claim = s.current_round_claims[args.claim_index]
    label = "novel" if args.is_novel else "known"
    s.current_round_claims[args.claim_index] = replace(claim, novelty_summary=f"{label}: {args.assessment}")
    s.novelty_checked.add(args.claim_index)
    return ToolOutcome(
        {"claim_index": args.claim_index, "is_novel": args.is_novel}, f"claim {args.claim_index}: {label}"
    )


async def score_claim(ctx: ToolContext, args: ScoreInput) -> ToolOutcome:
    s = ctx.state
    violation = check_claim_index(s, args.claim_index)
    if violation:
        return ToolOutcome.failed(violation)
    claim = s.current_round_claims[args.claim_index]
    violation = first_violation(
        check_falsification_attempted(s, args.claim_index),
        check_novelty_checked(s, args.claim_index),
        check_claim_grounded(claim),
    )
    if violation:
        return ToolOutcome.failed(violation)
    scores = ClaimScores(args.novelty, args.groundedness, args.falsifiability, args.significance)
    s.current_round_claims[args.claim_index] = replace(claim, scores=scores)
    return ToolOutcome(
        {"claim_index": args.claim_index, "mean": round(scores.mean, 3)},
        f"claim {args.claim_index} scored {scores.mean:.2f}",
    )


VALIDATE_TOOLS = (
    ToolSpec(
        "attempt_falsification",
        "Try to disprove a claim. Requires research aimed at disproving it first "
        "(rule 15); required before score_claim (rule 5).",
        FalsificationInput,
        attempt_falsification,
    ),
    ToolSpec(
        "check_novelty",
        "Assess whether the claim is already known. Required before score_claim (rule 6).",
        NoveltyInput,
        check_novelty,
    ),
    ToolSpec(
        "score_claim",
        "Score a claim 0-1 on novelty, groundedness, falsifiability and significance. The claim "
        "must have external evidence (rule 7).",
        ScoreInput,
        score_claim,
    ),
)

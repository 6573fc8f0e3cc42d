"""Phase 4 (VALIDATE) tools: acting on the person's feedback, falsification, novelty, scoring.

Invariants:
    - revise_claim acts on the person's feedback from the claims review, first: it rewrites the
      claim (its earlier text kept in `revised_from`) or keeps it with a response saying why it
      stands. Only a claim with feedback can be revised, and only before it is tested.
    - The three checks refuse a claim whose feedback is not acted on yet (FEEDBACK_UNADDRESSED).
    - attempt_falsification: rule 15 (research aimed at disproving the claim).
    - score_claim: rules 5 (falsification first), 6 (novelty first) and 7 (claim has evidence).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic import BaseModel, Field

from forge.agent.phases.evidence_from_research import CITED_SOURCES, QUOTED_EVIDENCE, evidence_for_sources
from forge.agent.phases.research_relevance_gate import judge_research_for
from forge.agent.tool_context import ToolContext, ToolOutcome, ToolSpec
from forge.core.domain_types import EvidenceType
from forge.core.rules.claim_rules import (
    check_claim_grounded,
    check_claim_index,
    check_falsification_attempted,
    check_feedback_addressed,
    check_novelty_checked,
    check_sources_researched,
)
from forge.core.rules.phase_gates import check_research_before_falsification
from forge.core.rules.verdicts import ErrorCode, RuleViolation, first_violation
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ClaimScores

CLAIM_INDEX = "Index of the claim in this round (0, 1 or 2), as in the claims of the brief."


def _scale(what: str, low: str, mid: str, high: str) -> Any:
    return Field(ge=0.0, le=1.0, description=f"{what} 0.0-1.0. 0.2: {low}; 0.5: {mid}; 0.8+: {high}.")


class RevisionInput(BaseModel):
    claim_index: int = Field(ge=0, le=2, description=CLAIM_INDEX)
    response: str = Field(
        min_length=10,
        max_length=2000,
        description="Your answer to the person's feedback: what the revision changes and why, or, when the claim "
        "stands as written, the reason, answering the feedback point by point.",
    )
    revised_text: str | None = Field(
        default=None,
        min_length=20,
        max_length=2000,
        description="The claim rewritten so it acts on the feedback. Omit it to keep the text as it stands.",
    )
    falsifiability_condition: str | None = Field(
        default=None,
        min_length=10,
        max_length=1000,
        description="The revised claim's test (metric, threshold, time window), when the revision changes it.",
    )


def _revision_refused(s: ForgeState, index: int) -> RuleViolation | None:
    claim = s.current_round_claims[index]
    if not claim.user_feedback:
        return RuleViolation(
            ErrorCode.INVALID_INPUT, f"Claim {index} has no feedback from the person; revise_claim acts on feedback."
        )
    if index in s.falsification_attempted or index in s.novelty_checked:
        return RuleViolation(
            ErrorCode.INVALID_INPUT, f"Claim {index} is already being tested as it stands; it can no longer be revised."
        )
    return None


async def revise_claim(ctx: ToolContext, args: RevisionInput) -> ToolOutcome:
    s = ctx.state
    violation = check_claim_index(s, args.claim_index) or _revision_refused(s, args.claim_index)
    if violation:
        return ToolOutcome.failed(violation)
    claim = s.current_round_claims[args.claim_index]
    text = " ".join((args.revised_text or "").split())
    revised = bool(text) and text != claim.text
    s.current_round_claims[args.claim_index] = replace(
        claim,
        text=text if revised else claim.text,
        revised_from=(claim.revised_from or claim.text) if revised else claim.revised_from,
        falsifiability_condition=args.falsifiability_condition or claim.falsifiability_condition,
        feedback_response=args.response,
    )
    payload: dict[str, object] = {"claim_index": args.claim_index, "claim_id": str(claim.id), "revised": revised}
    if revised and claim.id in s.verifications:
        payload["note"] = "VERIFY judged the wording before this revision: aim your falsification at the revised text."
    verb = "revised" if revised else "kept as it stands, feedback answered"
    return ToolOutcome(payload, f"claim {args.claim_index} {verb}")


class FalsificationInput(BaseModel):
    claim_index: int = Field(ge=0, le=2, description=CLAIM_INDEX)
    approach: str = Field(
        min_length=5,
        max_length=2000,
        description="How you tried to break the claim: the counter-case, data or mechanism you tested it against.",
    )
    result: str = Field(
        min_length=5, max_length=2000, description="What the attempt found, quoting the research it relied on."
    )
    survived: bool = Field(description="True if the claim withstood the attempt; false if the attempt broke it.")
    evidence_sources: list[str] = Field(
        default_factory=list, description="Sources the attempt relied on; " + CITED_SOURCES + QUOTED_EVIDENCE
    )
    evidence_role: EvidenceType | None = Field(
        default=None,
        description="What these sources do to the claim: supporting, contradicting or contextual. "
        "Default: contextual if it survived, contradicting if not.",
    )


class NoveltyInput(BaseModel):
    claim_index: int = Field(ge=0, le=2, description=CLAIM_INDEX)
    closest_prior_work: str = Field(
        min_length=5,
        max_length=1000,
        description="The closest existing work you found (method, paper, product or practice) and how the claim differs.",
    )
    prior_work_sources: list[str] = Field(
        default_factory=list, description="Sources of that prior work; " + CITED_SOURCES
    )
    assessment: str = Field(
        min_length=5, max_length=2000, description="Why the claim is or is not new beyond that prior work."
    )
    is_novel: bool = Field(description="True only if no prior work already states the claim's mechanism and scope.")


class ScoreInput(BaseModel):
    claim_index: int = Field(ge=0, le=2, description=CLAIM_INDEX)
    rationale: str = Field(
        min_length=20,
        max_length=2000,
        description="First, before the scores: one or two sentences per score saying why, citing the "
        "falsification and novelty results. Score honestly: a verifier is not generous.",
    )
    novelty: float = _scale(
        "Novelty", "restates known practice", "known parts in a new combination", "no prior work found for it"
    )
    groundedness: float = _scale(
        "Groundedness",
        "plausible but unsupported",
        "one relevant source supports the mechanism",
        "several independent sources support mechanism and effect",
    )
    falsifiability: float = _scale(
        "Falsifiability",
        "vague, no test named",
        "a test without a threshold or time window",
        "metric, baseline, threshold and window all stated",
    )
    significance: float = _scale(
        "Significance", "a marginal gain", "a clear gain for part of the problem", "changes how the problem is solved"
    )


async def attempt_falsification(ctx: ToolContext, args: FalsificationInput) -> ToolOutcome:
    s = ctx.state
    violation = check_claim_index(s, args.claim_index)
    if violation:
        return ToolOutcome.failed(violation)
    claim = s.current_round_claims[args.claim_index]
    violation = check_feedback_addressed(s, args.claim_index)  # before the verifier is asked (and billed)
    if violation:
        return ToolOutcome.failed(violation)
    judged = await judge_research_for(ctx, claim.text)
    violation = first_violation(
        check_research_before_falsification(s, claim.text, judged.judgment),
        check_sources_researched(s, args.evidence_sources),
    )
    if violation:
        return judged.failed(violation)
    kind = args.evidence_role or (EvidenceType.CONTEXTUAL if args.survived else EvidenceType.CONTRADICTING)
    recorded = f"{args.approach}\n{args.result}"
    evidence = evidence_for_sources(s, args.evidence_sources, kind, ctx.new_id, claim.id, s.problem, recorded)
    verdict = "survived" if args.survived else "did not survive"
    s.current_round_claims[args.claim_index] = replace(
        claim, evidence=claim.evidence + evidence, falsification_summary=f"{args.approach} → {args.result} ({verdict})"
    )
    s.falsification_attempted.add(args.claim_index)
    return ToolOutcome(
        {"claim_index": args.claim_index, "survived": args.survived},
        f"claim {args.claim_index} {verdict}",
        notices=judged.notices,
    )


async def check_novelty(ctx: ToolContext, args: NoveltyInput) -> ToolOutcome:
    s = ctx.state
    violation = check_claim_index(s, args.claim_index)
    if violation:
        return ToolOutcome.failed(violation)
    violation = check_feedback_addressed(s, args.claim_index) or check_sources_researched(s, args.prior_work_sources)
    if violation:
        return ToolOutcome.failed(violation)
    claim = s.current_round_claims[args.claim_index]
    label = "novel" if args.is_novel else "known"
    summary = f"{label}: {args.assessment} Closest prior work: {args.closest_prior_work}"
    s.current_round_claims[args.claim_index] = replace(claim, novelty_summary=summary)
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
        "revise_claim",
        "Act on the person's feedback on a claim (from the claims review), before testing it: give the revised "
        "text (and its new falsifiability condition if the test changes), or keep the text and answer the "
        "feedback in `response` with why the claim stands. The other VALIDATE tools refuse a claim whose "
        "feedback is not acted on yet.",
        RevisionInput,
        revise_claim,
    ),
    ToolSpec(
        "attempt_falsification",
        "Record a serious attempt to break a claim. First call research aimed at disproving it, with a query on "
        "the claim's own terms (rule 15); this tool records, it does not search. Required before score_claim "
        "(rule 5). Report survived=false when the evidence breaks the claim: a claim that fails here is useful "
        "negative knowledge.",
        FalsificationInput,
        attempt_falsification,
    ),
    ToolSpec(
        "check_novelty",
        "Record whether the claim is already known, naming the closest prior work and its sources. Search for "
        "prior art with research first (e.g. the mechanism plus 'study' or 'trial'). Required before score_claim "
        "(rule 6).",
        NoveltyInput,
        check_novelty,
    ),
    ToolSpec(
        "score_claim",
        "Score a claim on four anchored 0-1 scales with a rationale, after attempt_falsification and check_novelty "
        "for it (rules 5 and 6). The claim must carry research evidence (rule 7). Scores are read by the person "
        "and the autopilot to accept or reject: inflated scores waste their review.",
        ScoreInput,
        score_claim,
    ),
)

"""Applying a validated review to the state: the person's decisions and the phase transition.

Invariants:
    - Works on a copy: either the whole review applies and the transition rule (1, 2, 4 or 11)
      passes, or the caller gets a rejection and the original state is untouched.
    - Transitions are user-initiated only: this is the sole place the phase advances between phases.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from uuid import UUID

from forge.core.domain_types import (
    BuildDecision,
    ClaimConfidence,
    ClaimId,
    ClaimStatus,
    ClaimType,
    Contributor,
    EvidenceId,
    EvidenceType,
    Phase,
    ReframingId,
    ReframingType,
    VerdictType,
)
from forge.core.enforce_phase_gates import (
    check_can_start_new_round,
    check_decompose_complete,
    check_explore_complete,
    check_synthesis_complete,
)
from forge.core.forge_state import ForgeState
from forge.core.records import Assumption, Claim, Evidence, NegativeKnowledge, Reframing
from forge.core.review_inputs import (
    BuildDecisionReview,
    ClaimsReview,
    DecomposeReview,
    ExploreReview,
    RejectionKind,
    ReviewInput,
    ReviewRejection,
    VerdictsReview,
    check_review,
)
from forge.core.rule_verdicts import RuleViolation

NewId = Callable[[], UUID]


@dataclass(frozen=True, slots=True)
class ReviewApplied:
    state: ForgeState
    next_phase: Phase | None  # None: the session keeps waiting (e.g. after add_insight)
    summary: str


def _rejected(violation: RuleViolation) -> ReviewRejection:
    return ReviewRejection(RejectionKind.INVALID, f"{violation.code.value}: {violation.message}")


def _apply_decompose(s: ForgeState, r: DecomposeReview, new_id: NewId) -> str:
    for i, a in enumerate(s.assumptions):
        if i in r.confirmed_assumptions:
            s.assumptions[i] = replace(a, confirmed=True)
        elif i in r.rejected_assumptions:
            s.assumptions[i] = replace(a, confirmed=False)
    s.assumptions.extend(Assumption(t.strip(), Contributor.USER, True) for t in r.added_assumptions if t.strip())
    s.reframings = [replace(f, selected=i in r.selected_reframings) for i, f in enumerate(s.reframings)]
    s.reframings.extend(
        Reframing(ReframingId(new_id()), t.strip(), ReframingType.SCOPE_CHANGE, True, Contributor.USER)
        for t in r.added_reframings
        if t.strip()
    )
    return f"selected {len(s.selected_reframings)} reframing(s), confirmed {len(s.confirmed_assumptions)} assumption(s)"


def _apply_explore(s: ForgeState, r: ExploreReview) -> str:
    s.cross_domain_analogies = [
        replace(a, starred=i in r.starred_analogies) for i, a in enumerate(s.cross_domain_analogies)
    ]
    s.suggested_domains.extend(d.strip() for d in r.suggested_domains if d.strip())
    return f"starred {len(s.starred_analogies)} analogy(ies)"


def _apply_claims(s: ForgeState, r: ClaimsReview) -> str:
    for f in r.feedback:
        s.current_round_claims[f.claim_index] = replace(s.current_round_claims[f.claim_index], user_feedback=f.feedback)
    return f"feedback on {len(r.feedback)} claim(s)"


def _confidence_for(claim: Claim) -> ClaimConfidence:
    mean = claim.scores.mean if claim.scores else 0.0
    if mean >= 0.7 and len(claim.evidence) >= 2:
        return ClaimConfidence.GROUNDED
    return ClaimConfidence.EMERGING if mean >= 0.5 else ClaimConfidence.SPECULATIVE


def _apply_verdicts(s: ForgeState, r: VerdictsReview) -> str:
    for v in r.verdicts:
        claim = s.current_round_claims[v.claim_index]
        if v.verdict == VerdictType.ACCEPT:
            claim = replace(claim, status=ClaimStatus.VALIDATED, confidence=_confidence_for(claim))
        elif v.verdict == VerdictType.QUALIFY:
            claim = replace(
                claim, status=ClaimStatus.QUALIFIED, qualification=v.qualification, confidence=_confidence_for(claim)
            )
        elif v.verdict == VerdictType.REJECT:
            reason = v.reason or "rejected by the user"
            claim = replace(claim, status=ClaimStatus.REJECTED, rejection_reason=reason)
            s.negative_knowledge.append(NegativeKnowledge(claim.id, claim.text, reason, s.current_round))
        else:
            into = s.current_round_claims[v.merge_with_index or 0]
            claim = replace(claim, status=ClaimStatus.SUPERSEDED, rejection_reason=f"merged into: {into.text}")
        s.current_round_claims[v.claim_index] = claim
    counts = {t: sum(1 for v in r.verdicts if v.verdict == t) for t in VerdictType}
    return ", ".join(f"{n} {t.value}" for t, n in counts.items() if n)


def _user_insight_claim(s: ForgeState, r: BuildDecisionReview, new_id: NewId) -> Claim:
    claim_id = ClaimId(new_id())
    evidence = tuple(
        Evidence(
            EvidenceId(new_id()),
            url,
            "Provided by the user",
            "Evidence supplied with a user insight.",
            EvidenceType.SUPPORTING,
            Contributor.USER,
            claim_id=claim_id,
        )
        for url in r.user_evidence_urls
    )
    return Claim(
        id=claim_id,
        text=(r.user_insight or "").strip(),
        claim_type=ClaimType.USER_CONTRIBUTED,
        round_created=s.current_round,
        phase_created=Phase.BUILD,
        status=ClaimStatus.VALIDATED,
        confidence=ClaimConfidence.EMERGING if evidence else ClaimConfidence.SPECULATIVE,
        evidence=evidence,
    )


def _apply_build(s: ForgeState, r: BuildDecisionReview, new_id: NewId) -> tuple[Phase | None, str]:
    if r.decision == BuildDecision.ADD_INSIGHT:
        claim = _user_insight_claim(s, r, new_id)
        s.knowledge_graph_nodes.append(claim)
        s.user_insights.append(claim.text)
        return None, "added a user insight to the knowledge graph"
    if r.decision == BuildDecision.RESOLVE:
        return Phase.CRYSTALLIZE, "resolved: crystallize the knowledge"
    s.reset_for_new_round()
    s.deep_dive_active = r.decision == BuildDecision.DEEP_DIVE
    s.deep_dive_target_claim_id = (
        ClaimId(UUID(r.deep_dive_claim_id)) if s.deep_dive_active and r.deep_dive_claim_id else None
    )
    return Phase.SYNTHESIZE, f"{r.decision.value}: round {s.current_round + 1}"


def _transition_rule(state: ForgeState, review: ReviewInput, next_phase: Phase | None) -> RuleViolation | None:
    if isinstance(review, DecomposeReview):
        return check_decompose_complete(state)
    if isinstance(review, ExploreReview):
        return check_explore_complete(state)
    if isinstance(review, ClaimsReview):
        return check_synthesis_complete(state)
    return None


def apply_review(state: ForgeState, review: ReviewInput, new_id: NewId) -> ReviewApplied | ReviewRejection:
    rejection = check_review(state, review)
    if rejection:
        return rejection
    if isinstance(review, BuildDecisionReview) and review.decision in (BuildDecision.CONTINUE, BuildDecision.DEEP_DIVE):
        violation = check_can_start_new_round(state)
        if violation:
            return _rejected(violation)
    s = copy.deepcopy(state)
    next_phase: Phase | None
    if isinstance(review, DecomposeReview):
        summary, next_phase = _apply_decompose(s, review, new_id), Phase.EXPLORE
    elif isinstance(review, ExploreReview):
        summary, next_phase = _apply_explore(s, review), Phase.SYNTHESIZE
    elif isinstance(review, ClaimsReview):
        summary, next_phase = _apply_claims(s, review), Phase.VALIDATE
    elif isinstance(review, VerdictsReview):
        summary, next_phase = _apply_verdicts(s, review), Phase.BUILD
    else:
        next_phase, summary = _apply_build(s, review, new_id)
    violation = _transition_rule(s, review, next_phase)
    if violation:
        return _rejected(violation)
    if next_phase is not None:
        s.enter_phase(next_phase)
    return ReviewApplied(state=s, next_phase=next_phase, summary=summary)

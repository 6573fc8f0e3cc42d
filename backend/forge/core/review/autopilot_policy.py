"""Autopilot: a review policy that answers each review the way a cautious person would.

Invariants:
    - Pure and deterministic: the same state gives the same review.
    - Selects the first reframing, stars the `star_top` strongest of the whole pool offer by score
      (BISO's head, the suggested domains' results and the agent's gated analogies; an analogy that
      cites a pool hypothesis stands for it — `pool_offer.stars_by_score`), accepts a claim by VERIFY's final score
      when the independent verifier judged it (not abstained) — against VERIFY's pass threshold, or
      the person's stricter `accept_threshold` on VERIFY's 0-10 scale (the default 0.6 is 6.0, the
      same) — else by the agent's mean score against `accept_threshold`, rejecting the rest with a
      reason that says which; and resolves after `rounds` rounds or at the round limit.
    - It never decides what only the person may: `stop_reason` says why it stops instead (a CP-1
      conflict between the person's constraints: which one to drop or relax is theirs to choose).
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.domain_types import BuildDecision, ReviewType, VerdictType
from forge.core.explore.pool_offer import stars_by_score
from forge.core.frame.constraint_changes import how_to_resolve, open_conflicts
from forge.core.review.inputs import (
    BuildDecisionReview,
    ClaimsReview,
    ClaimVerdictInput,
    DecomposeReview,
    ExploreReview,
    ReviewInput,
    VerdictsReview,
)
from forge.core.session.forge_state import ForgeState
from forge.core.verify.verdicts import FINAL_PASS_THRESHOLD, VerifyStatus


@dataclass(frozen=True, slots=True)
class AutopilotPolicy:
    accept_threshold: float = 0.6
    rounds: int = 1
    star_top: int = 2

    def stop_reason(self, state: ForgeState, review: ReviewType) -> str | None:
        """Why the autopilot must hand this review to the person (None: it can answer it)."""
        conflicts = open_conflicts(state.problem_frame) if review == ReviewType.DECOMPOSE_REVIEW else []
        if not conflicts:
            return None
        return (
            "Autopilot stopped at the decompose review: the constraints conflict, so no answer can meet them "
            "all, and which one to drop or relax is your decision. "
            + " ".join(how_to_resolve(c) for c in conflicts)
            + " Submit the decompose review yourself, then the autopilot can go on."
        )

    def review_for(self, state: ForgeState, review: ReviewType) -> ReviewInput:
        if review == ReviewType.DECOMPOSE_REVIEW:
            confirmed = tuple(range(len(state.assumptions)))
            return DecomposeReview(selected_reframings=(0,), confirmed_assumptions=confirmed)
        if review == ReviewType.EXPLORE_REVIEW:
            stars = stars_by_score(state, self.star_top)
            if stars.analogies or stars.hypotheses:
                return ExploreReview(starred_analogies=stars.analogies, starred_hypotheses=stars.hypotheses)
            count = min(self.star_top, len(state.cross_domain_analogies))  # nothing scored: the first ones
            return ExploreReview(starred_analogies=tuple(range(count)))
        if review == ReviewType.CLAIMS_REVIEW:
            return ClaimsReview()
        if review == ReviewType.VERDICTS:
            return VerdictsReview(tuple(self._verdict(i, state) for i in range(len(state.current_round_claims))))
        done = state.current_round + 1 >= self.rounds or state.max_rounds_reached
        return BuildDecisionReview(BuildDecision.RESOLVE if done else BuildDecision.CONTINUE)

    def _verdict(self, index: int, state: ForgeState) -> ClaimVerdictInput:
        claim = state.current_round_claims[index]
        verified = state.verifications.get(claim.id)
        if verified is not None and verified.status is not VerifyStatus.ABSTAINED:
            threshold = max(FINAL_PASS_THRESHOLD, 10 * self.accept_threshold)  # never below VERIFY's own
            if verified.final_score >= threshold:
                return ClaimVerdictInput(index, VerdictType.ACCEPT)
            reason = (
                f"autopilot: VERIFY final score {verified.final_score:.1f} below threshold "
                f"{threshold:.1f} (status {verified.status.value})"
            )
            return ClaimVerdictInput(index, VerdictType.REJECT, reason=reason)
        mean = claim.scores.mean if claim.scores else 0.0
        if mean >= self.accept_threshold:
            return ClaimVerdictInput(index, VerdictType.ACCEPT)
        unverified = " (not verified by VERIFY)" if verified is None else " (VERIFY abstained)"
        reason = f"autopilot: mean score {mean:.2f} below threshold {self.accept_threshold:.2f}{unverified}"
        return ClaimVerdictInput(index, VerdictType.REJECT, reason=reason)

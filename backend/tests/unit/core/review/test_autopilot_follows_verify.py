"""The autopilot accepts a claim by VERIFY's final score against VERIFY's threshold, not by the
agent's own score; without a verdict (or when VERIFY abstained) the agent's mean score decides."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from forge.core.domain_types import ClaimId, ClaimType, Phase, ReviewType, VerdictType
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.review.inputs import VerdictsReview
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ClaimScores
from forge.core.verify.claim_verification import ClaimVerification
from forge.core.verify.verdicts import VerifyStatus


def claim(n: int, score: float) -> Claim:
    c = Claim(ClaimId(UUID(int=n)), f"claim {n}", ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE)
    return replace(c, scores=ClaimScores(score, score, score, score))


def verdict(n: int, status: VerifyStatus, final: float) -> ClaimVerification:
    return ClaimVerification(
        ClaimId(UUID(int=n)), "verifier", status, final, None, None, 0.9, 0.9, None, True, (), 3, (), ""
    )


def test_verify_decides_where_it_judged_and_the_agents_score_elsewhere() -> None:
    state = ForgeState(problem="p", current_round_claims=[claim(1, 0.9), claim(2, 0.2), claim(3, 0.9), claim(4, 0.9)])
    state.verifications = {
        ClaimId(UUID(int=1)): verdict(1, VerifyStatus.FAILED, 4.2),  # the agent liked it; VERIFY did not
        ClaimId(UUID(int=2)): verdict(2, VerifyStatus.PASSED, 7.5),  # the agent scored it low; VERIFY passed it
        ClaimId(UUID(int=3)): verdict(3, VerifyStatus.ABSTAINED, 0.0),  # no verdict: the agent's score decides
    }
    review = AutopilotPolicy(accept_threshold=0.6).review_for(state, ReviewType.VERDICTS)
    assert isinstance(review, VerdictsReview)
    decided = [(v.verdict, v.reason) for v in review.verdicts]
    assert decided[0][0] is VerdictType.REJECT
    assert decided[0][1] == "autopilot: VERIFY final score 4.2 below threshold 6.0 (status failed)"
    assert decided[1] == (VerdictType.ACCEPT, None)
    assert decided[2] == (VerdictType.ACCEPT, None)
    assert decided[3] == (VerdictType.ACCEPT, None)
    low = AutopilotPolicy(accept_threshold=0.95).review_for(state, ReviewType.VERDICTS)
    assert isinstance(low, VerdictsReview)
    # A stricter person's threshold holds on VERIFY's scale too (0.95 -> 9.5); a laxer one never
    # goes below VERIFY's own 6.0 (claim 1 stays rejected at accept_threshold 0).
    assert low.verdicts[1].reason == "autopilot: VERIFY final score 7.5 below threshold 9.5 (status passed)"
    lax = AutopilotPolicy(accept_threshold=0.0).review_for(state, ReviewType.VERDICTS)
    assert isinstance(lax, VerdictsReview) and lax.verdicts[0].verdict is VerdictType.REJECT
    assert low.verdicts[2].reason == "autopilot: mean score 0.90 below threshold 0.95 (VERIFY abstained)"
    assert low.verdicts[3].reason == "autopilot: mean score 0.90 below threshold 0.95 (not verified by VERIFY)"

"""Closing VALIDATE: its work gate (every claim scored) and the verdicts review.

Invariants:
    - The work gate first asks that the person's feedback on each claim (from the claims review) was
      acted on by revise_claim — the claim revised, or its text kept with a response saying why —
      then that every claim is scored.
    - The verdicts give exactly one verdict per claim of the round; a qualification needs its
      text, a merge names another claim. Accepted and qualified claims get a confidence from
      their scores and evidence; rejected ones become negative knowledge for later rounds.
"""

from __future__ import annotations

from dataclasses import replace

from forge.core.domain_types import ClaimConfidence, ClaimStatus, Phase, ReviewType, VerdictType
from forge.core.phases.phase_review import NewId, PhaseReview
from forge.core.phases.verify_breakdown import verdicts_payload
from forge.core.review.inputs import ReviewRejection, VerdictsReview, indices_out_of_range, invalid_review
from forge.core.rules.claim_rules import feedback_unaddressed
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, NegativeKnowledge


def check_validate_work_complete(state: ForgeState) -> RuleViolation | None:
    claims = state.current_round_claims
    open_feedback = feedback_unaddressed(state)
    if open_feedback:
        return RuleViolation(
            ErrorCode.FEEDBACK_UNADDRESSED,
            "VALIDATE is incomplete: the person's feedback is not acted on yet for claims (by index): "
            f"{', '.join(map(str, open_feedback))}. Call revise_claim for each: revise it or say why it stands.",
        )
    unscored = [str(i) for i, c in enumerate(claims) if c.scores is None]
    if unscored:
        return RuleViolation(
            ErrorCode.PHASE_WORK_INCOMPLETE,
            f"VALIDATE is incomplete: claims not yet scored (by index): {', '.join(unscored)}. "
            "Attempt falsification, check novelty, then score_claim for each.",
        )
    return None


def check_verdicts_review(state: ForgeState, review: VerdictsReview) -> ReviewRejection | None:
    count = len(state.current_round_claims)
    indices = tuple(v.claim_index for v in review.verdicts)
    problem = indices_out_of_range("verdicts.claim_index", indices, count)
    if problem:
        return problem
    missing = sorted(set(range(count)) - set(indices))
    if missing:
        return invalid_review(
            f"verdicts must give exactly one verdict per claim index 0..{count - 1}; missing {missing}."
        )
    repeated = sorted({i for i in indices if indices.count(i) > 1})
    if repeated:
        return invalid_review(f"verdicts must give exactly one verdict per claim; repeated indices {repeated}.")
    for v in review.verdicts:
        if v.verdict == VerdictType.QUALIFY and not (v.qualification or "").strip():
            return invalid_review(f"verdict 'qualify' on claim {v.claim_index} needs a qualification text.")
        if v.verdict == VerdictType.MERGE and (v.merge_with_index is None or v.merge_with_index == v.claim_index):
            return invalid_review(f"verdict 'merge' on claim {v.claim_index} needs merge_with_index of another claim.")
        if v.merge_with_index is not None and not 0 <= v.merge_with_index < count:
            return invalid_review(f"merge_with_index {v.merge_with_index} is out of range 0..{count - 1}.")
    return None


def _confidence_for(claim: Claim) -> ClaimConfidence:
    mean = claim.scores.mean if claim.scores else 0.0
    if mean >= 0.7 and len(claim.evidence) >= 2:
        return ClaimConfidence.GROUNDED
    return ClaimConfidence.EMERGING if mean >= 0.5 else ClaimConfidence.SPECULATIVE


def apply_verdicts_review(s: ForgeState, r: VerdictsReview, new_id: NewId) -> tuple[Phase | None, str]:
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
    return Phase.BUILD, ", ".join(f"{n} {t.value}" for t, n in counts.items() if n)


REVIEW: PhaseReview[VerdictsReview] = PhaseReview(
    ReviewType.VERDICTS,
    payload=verdicts_payload,
    check=check_verdicts_review,
    apply=apply_verdicts_review,
)

"""Closing SYNTHESIZE: rule 4 (its work gate and its transition rule) and the claims review.

Invariants:
    - Rule 4: every claim of the round has an antithesis and a synthesis; it decides both when
      the claims review opens and whether the review may move the session on to VALIDATE.
    - The claims review only attaches the person's feedback to claims, by index.
    - Its payload also carries the round's SEARCH summary (operators, lineage counts, HKG outcomes,
      Transform Gate records — rejected proposals are shown only here), or null before any search.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from forge.core.domain_types import Phase, ReviewType
from forge.core.phases.index_review_items import claims_payload
from forge.core.phases.phase_review import NewId, PhaseReview
from forge.core.review.inputs import ClaimsReview, ReviewRejection, indices_out_of_range
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import encode_value


def check_synthesis_complete(state: ForgeState) -> RuleViolation | None:
    """Rule 4: every claim of the round has an antithesis (and a synthesis) before VALIDATE."""
    claims = state.current_round_claims
    if not claims:
        return RuleViolation(ErrorCode.SYNTHESIS_INCOMPLETE, "No claims this round: state a thesis first.")
    lacking = [str(i) for i in range(len(claims)) if i not in state.antitheses_searched]
    if lacking:
        return RuleViolation(
            ErrorCode.SYNTHESIS_INCOMPLETE,
            f"Claims without antithesis (by index): {', '.join(lacking)}. Call find_antithesis for each.",
        )
    unsynthesized = [str(i) for i, c in enumerate(claims) if not c.synthesized]
    if unsynthesized:
        return RuleViolation(
            ErrorCode.SYNTHESIS_INCOMPLETE,
            f"Claims without synthesis (by index): {', '.join(unsynthesized)}. Call create_synthesis.",
        )
    return None


def check_claims_review(state: ForgeState, review: ClaimsReview) -> ReviewRejection | None:
    indices = tuple(f.claim_index for f in review.feedback)
    return indices_out_of_range("claim_feedback.claim_index", indices, len(state.current_round_claims))


def apply_claims_review(s: ForgeState, r: ClaimsReview, new_id: NewId) -> tuple[Phase | None, str]:
    for f in r.feedback:
        s.current_round_claims[f.claim_index] = replace(s.current_round_claims[f.claim_index], user_feedback=f.feedback)
    return Phase.VALIDATE, f"feedback on {len(r.feedback)} claim(s)"


def claims_review_payload(state: ForgeState) -> dict[str, Any]:
    return {**claims_payload(state), "search": encode_value(state.search)}


REVIEW: PhaseReview[ClaimsReview] = PhaseReview(
    ReviewType.CLAIMS_REVIEW,
    payload=claims_review_payload,
    check=check_claims_review,
    apply=apply_claims_review,
    transition_rule=check_synthesis_complete,
)

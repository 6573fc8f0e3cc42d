"""The verdicts review's VERIFY breakdown: each claim's view gains `verify`, the independent
verifier's verdict (logic dimensions, novelty with its evidence, confidence, position bias,
injection findings, status), next to the agent's four 003 scores.

Invariants:
    - Built from the state alone (`ForgeState.verifications`); a claim without a verdict (VERIFY
      did not run: no verifier configured, or a session older than VERIFY) has `verify: null`.
    - The logic view adds its average and whether it passed (all three ≥ 6), so a client never
      recomputes the seed's rule.
"""

from __future__ import annotations

from typing import Any

from forge.core.phases.index_review_items import claims_payload
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import encode_value
from forge.core.verify.claim_verification import ClaimVerification


def verification_view(verification: ClaimVerification) -> dict[str, Any]:
    view: dict[str, Any] = encode_value(verification)
    if verification.logic is not None:
        view["logic"] |= {
            "average": round(verification.logic.average, 3),
            "passed": verification.logic.passed,
        }
    return view


def verdicts_payload(state: ForgeState) -> dict[str, Any]:
    payload = claims_payload(state)
    for view, claim in zip(payload["claims"], state.current_round_claims, strict=True):
        verification = state.verifications.get(claim.id)
        view["verify"] = verification_view(verification) if verification else None
    return payload

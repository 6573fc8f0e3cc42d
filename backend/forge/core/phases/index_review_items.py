"""The item views review payloads share: every list item carries its `index`.

Invariants:
    - The index is the number a review refers to, so a client never has to guess positions;
      claims also carry their `id` and their mean score (None before scoring).
"""

from __future__ import annotations

from typing import Any

from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim
from forge.core.session.state_codec import encode_value


def indexed(items: list[Any]) -> list[dict[str, Any]]:
    return [{"index": i, **encode_value(item)} for i, item in enumerate(items)]


def claim_view(index: int, claim: Claim) -> dict[str, Any]:
    view: dict[str, Any] = {"index": index, **encode_value(claim)}
    view["score_mean"] = round(claim.scores.mean, 3) if claim.scores else None
    return view


def claims_payload(state: ForgeState) -> dict[str, Any]:
    """The round's claims, as the claims review (after SYNTHESIZE) and the verdicts (after VALIDATE) show them."""
    return {
        "round": state.current_round,
        "claims": [claim_view(i, c) for i, c in enumerate(state.current_round_claims)],
    }

"""A valid review for each review event, as a person would post it to /user-input."""

from __future__ import annotations

from typing import Any

from support.sse_client import Received

REVIEW_EVENTS = ("review_decompose", "review_explore", "review_claims", "review_verdicts", "review_build")


def review_for(event: Received) -> dict[str, Any]:
    """Select the first reframing, star two analogies, no feedback, accept every claim, resolve."""
    if event.type == "review_decompose":
        return {"type": "decompose_review", "selected_reframings": [0]}
    if event.type == "review_explore":
        return {"type": "explore_review", "starred_analogies": [0, 1]}
    if event.type == "review_claims":
        return {"type": "claims_review"}
    if event.type == "review_verdicts":
        return {
            "type": "verdicts",
            "verdicts": [{"claim_index": c["index"], "verdict": "accept"} for c in event.data["claims"]],
        }
    assert event.type == "review_build", f"{event.type} is not a review event"
    return {"type": "build_decision", "decision": "resolve"}

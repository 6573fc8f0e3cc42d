"""Payloads of the five review events, built from the state alone.

Invariants:
    - The payload starts with `review` (the review type); the rest is the phase's own
      (`phases/close_<phase>.py`), reached through `PHASE_REVIEWS`.
    - Every list item carries its `index`, the number a review refers to, so a client never has
      to guess positions; claims also carry their `id` (`phases/index_review_items.py`).
"""

from __future__ import annotations

from typing import Any

from forge.core.domain_types import ReviewType
from forge.core.phases.review_registry import phase_review
from forge.core.session.forge_state import ForgeState


def build_review_payload(state: ForgeState, review: ReviewType) -> dict[str, Any]:
    return phase_review(review).present(state)

"""Closing EXPLORE: its work gate, the explore review, and rule 2 (EXPLORE -> SYNTHESIZE).

Invariants:
    - The work gate (the agent's share) and rule 2 share one list of what is missing; rule 2 adds
      the person's part: at least one starred analogy.
    - The review stars analogies by index (at least one) and may suggest domains for later rounds.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from forge.core.domain_types import MIN_CONTRADICTIONS, MIN_CROSS_DOMAIN_SEARCHES, Phase, ReviewType
from forge.core.hypotheses.star_from_pool import star_pool_hypotheses
from forge.core.phases.index_review_items import indexed
from forge.core.phases.phase_review import NewId, PhaseReview
from forge.core.review.inputs import ExploreReview, ReviewRejection, indices_out_of_range, invalid_review
from forge.core.rules.verdicts import ErrorCode, RuleViolation, missing_work
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import encode_value


def _work_missing(state: ForgeState) -> list[str]:
    missing = []
    if not state.morphological_box:
        missing.append("a morphological box (call build_morphological_box)")
    if state.cross_domain_search_count < MIN_CROSS_DOMAIN_SEARCHES:
        missing.append(
            f"at least {MIN_CROSS_DOMAIN_SEARCHES} cross-domain searches (have {state.cross_domain_search_count})"
        )
    if len(state.contradictions) < MIN_CONTRADICTIONS:
        missing.append(f"at least {MIN_CONTRADICTIONS} contradiction (call identify_contradictions)")
    return missing


def check_explore_work_complete(state: ForgeState) -> RuleViolation | None:
    return missing_work(ErrorCode.EXPLORE_INCOMPLETE, "EXPLORE", _work_missing(state))


def check_explore_complete(state: ForgeState) -> RuleViolation | None:
    """Rule 2: EXPLORE -> SYNTHESIZE."""
    missing = _work_missing(state)
    if not state.starred_analogies:
        missing.append("an analogy starred by the user (star at least one)")
    return missing_work(ErrorCode.EXPLORE_INCOMPLETE, "EXPLORE", missing)


def explore_review_payload(state: ForgeState) -> dict[str, Any]:
    return {
        "morphological_box": encode_value(state.morphological_box),
        "analogies": indexed(state.cross_domain_analogies),
        "contradictions": indexed(state.contradictions),
        "adjacent": list(state.adjacent_possible),
        "domain_selection": encode_value(state.domain_selection),
        "pool": encode_value(state.biso),
        "suggestion_outcomes": encode_value(state.suggestion_outcomes),
    }


def check_explore_review(state: ForgeState, review: ExploreReview) -> ReviewRejection | None:
    if not review.starred_analogies and not review.pool_stars:
        return invalid_review(
            f"starred_analogies must star at least one analogy (indices 0..{len(state.cross_domain_analogies) - 1}), "
            "or starred_hypotheses at least one hypothesis of the pool."
        )
    return indices_out_of_range("starred_analogies", review.starred_analogies, len(state.cross_domain_analogies))


def apply_explore_review(s: ForgeState, r: ExploreReview, new_id: NewId) -> tuple[Phase | None, str]:
    s.cross_domain_analogies = [
        replace(a, starred=i in r.starred_analogies) for i, a in enumerate(s.cross_domain_analogies)
    ]
    ids = [new_id() for _ in r.pool_stars]
    s.cross_domain_analogies = star_pool_hypotheses(s.cross_domain_analogies, r.pool_stars, ids, s.domain_selection)
    s.suggested_domains.extend(d.strip() for d in r.suggested_domains if d.strip())
    from_pool = f", {len(r.pool_stars)} from the pool" if r.pool_stars else ""
    return Phase.SYNTHESIZE, f"starred {len(s.starred_analogies)} analogy(ies){from_pool}"


REVIEW: PhaseReview[ExploreReview] = PhaseReview(
    ReviewType.EXPLORE_REVIEW,
    payload=explore_review_payload,
    check=check_explore_review,
    apply=apply_explore_review,
    transition_rule=check_explore_complete,
)

"""Starring pool hypotheses at the explore review: they become starred analogies, traced to the pool."""

from __future__ import annotations

from uuid import UUID

from forge.core.domain_types import ContradictionId, Phase, ReviewType, SemanticDistance
from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.hypotheses.star_from_pool import MAX_POOL_STARS, resolve_pool_stars
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.inputs import ExploreReview, ReviewRejection
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Contradiction, MorphologicalParameter

ROWS = (
    MappingRow("buffer", "absorbs bursts", "waiting room", "holds surges", MappingType.RELATION, "g", "queue"),
    MappingRow("server", "serves jobs", "triage nurse", "assesses patients", MappingType.ENTITY, "g", "minutes"),
)


def _hypothesis(n: int) -> Hypothesis:
    return Hypothesis(
        HypothesisId(f"biso-0-queueing-{n}"),
        "queueing",
        "Queueing theory",
        "Buffers",
        f"Surge buffer {n}",
        f"Use the waiting room as buffer number {n}.",
        "Arrivals above capacity accumulate.",
        MappingTable(ROWS),
        "median waiting minutes",
        ("Breaks when beds, not triage, block.", "second"),
        GateSummary(GateStatus.PASSED, (), 6, 7.0),
    )


def _awaiting_explore_review() -> ForgeState:
    """EXPLORE's work done by the agent (box, two searches, a contradiction), no analogy kept by it."""
    state = ForgeState(
        problem="How can a hospital cut emergency wait times?",
        current_phase=Phase.EXPLORE,
        morphological_box=[MorphologicalParameter("triage", ("nurse", "algorithm"))],
        cross_domain_search_count=2,
        contradictions=[Contradiction(ContradictionId(UUID(int=40)), "speed", "safety", "d", "r")],
    )
    state.await_review(ReviewType.EXPLORE_REVIEW)
    return state


def _ids() -> UUID:
    return UUID(int=42)


def test_an_id_not_in_the_pool_refuses_the_review_and_names_it() -> None:
    review = ExploreReview(starred_hypotheses=("biso-0-queueing-1", "made-up"))
    refused = resolve_pool_stars(review, {"biso-0-queueing-1": _hypothesis(1)})
    assert isinstance(refused, ReviewRejection) and "'made-up'" in refused.message and "hypotheses" in refused.message


def test_too_many_stars_are_refused() -> None:
    ids = tuple(f"h{n}" for n in range(MAX_POOL_STARS + 1))
    refused = resolve_pool_stars(ExploreReview(starred_hypotheses=ids), {i: _hypothesis(1) for i in ids})
    assert isinstance(refused, ReviewRejection) and str(MAX_POOL_STARS) in refused.message


def test_pool_stars_alone_pass_the_review_and_become_traced_starred_analogies() -> None:
    state = _awaiting_explore_review()
    review = resolve_pool_stars(
        ExploreReview(starred_hypotheses=("biso-0-queueing-1",)), {"biso-0-queueing-1": _hypothesis(1)}
    )
    assert isinstance(review, ExploreReview)
    applied = apply_review(state, review, _ids)
    assert isinstance(applied, ReviewApplied) and applied.next_phase is Phase.SYNTHESIZE
    (analogy,) = applied.state.starred_analogies
    assert analogy.hypothesis_id == "biso-0-queueing-1" and analogy.source_domain == "Queueing theory"
    assert analogy.semantic_distance is SemanticDistance.FAR  # not in the domain selection: far by default
    assert analogy.mapping[0].relation == "absorbs bursts → holds surges"
    assert analogy.observable == "median waiting minutes" and analogy.failure_mode.startswith("Breaks when beds")
    assert "1 from the pool" in applied.summary


def test_a_review_with_no_star_at_all_is_refused_and_says_both_ways() -> None:
    state = _awaiting_explore_review()
    refused = apply_review(state, ExploreReview(), _ids)
    assert isinstance(refused, ReviewRejection) and "starred_hypotheses" in refused.message


def test_starring_the_same_hypothesis_again_keeps_one_analogy() -> None:
    state = _awaiting_explore_review()
    review = resolve_pool_stars(
        ExploreReview(starred_hypotheses=("biso-0-queueing-2",)), {"biso-0-queueing-2": _hypothesis(2)}
    )
    assert isinstance(review, ExploreReview)
    first = apply_review(state, review, _ids)
    assert isinstance(first, ReviewApplied)
    again = first.state
    again.current_phase = Phase.EXPLORE
    again.await_review(ReviewType.EXPLORE_REVIEW)
    second = apply_review(again, review, _ids)
    assert isinstance(second, ReviewApplied)
    assert [a.hypothesis_id for a in second.state.cross_domain_analogies] == ["biso-0-queueing-2"]
    assert second.state.cross_domain_analogies[0].starred

"""A session round's SEARCH summary across search_depth rounds: the first opens it, later ones add up."""

from __future__ import annotations

from forge.core.hypotheses.pool import HypothesisId
from forge.core.search.summary import SearchSummary, after_round


def summary(round_: int, seeds: tuple[str, ...], children: int, operators: dict[str, int]) -> SearchSummary:
    ids = tuple(HypothesisId(s) for s in seeds)
    return SearchSummary(
        round_, "research", "mome", ids, 5, children + 1, children, operators, 1, 0, 0, 0.5 + round_ / 10
    )


def test_the_first_round_of_a_session_round_starts_the_count() -> None:
    first = after_round(None, summary(0, ("a", "b"), 4, {"refine": 4}))
    assert (first.depth, first.stalled, first.seeds) == (1, False, ("a", "b"))
    older = after_round(first, summary(1, ("c",), 2, {"oppose": 2}))
    assert (older.depth, older.round, older.children) == (1, 1, 2)  # a new session round starts again


def test_later_rounds_sum_counts_and_keep_every_seed_in_order() -> None:
    first = after_round(None, summary(0, ("a", "b"), 4, {"refine": 3, "oppose": 1}))
    second = after_round(first, summary(0, ("c",), 2, {"refine": 1, "combine": 1}))
    assert second.depth == 2 and second.seeds == ("a", "b", "c")
    assert (second.children, second.calls, second.degraded) == (6, 8, 2)
    assert second.operators == {"refine": 4, "oppose": 1, "combine": 1}


def test_a_round_without_seeds_or_children_stalls_the_search() -> None:
    assert after_round(None, summary(0, (), 0, {})).stalled
    first = after_round(None, summary(0, ("a",), 3, {"refine": 3}))
    assert after_round(first, summary(0, ("b",), 0, {})).stalled

"""C-value rules of seed 004: bounds, monotonicity and sequences."""

from __future__ import annotations

import itertools

import pytest

from forge.core.hypotheses.confidence import (
    C_MAX,
    C_MIN,
    INITIAL_C,
    MemoryOutcome,
    after_outcome,
    contradicted,
    refined_child,
    refined_parent,
    supported,
)

GRID = [i / 100 for i in range(101)]


def test_support_moves_a_tenth_of_the_way_to_one() -> None:
    assert supported(INITIAL_C) == pytest.approx(0.37)
    assert supported(0.5) == pytest.approx(0.55)


def test_support_never_exceeds_the_ceiling_and_never_lowers_c() -> None:
    for c in GRID:
        assert supported(c) <= C_MAX
        assert supported(c) >= min(c, C_MAX)


def test_contradiction_takes_a_tenth_off_down_to_the_floor() -> None:
    assert contradicted(INITIAL_C) == pytest.approx(0.27)
    assert contradicted(0.05) == C_MIN
    for c in GRID:
        assert C_MIN <= contradicted(c) <= max(c, C_MIN)


def test_refinement_lowers_the_parent_to_no_less_than_the_initial_value_and_never_raises_it() -> None:
    assert refined_parent(0.8) == pytest.approx(0.72)
    assert refined_parent(0.31) == 0.3
    assert refined_parent(0.2) == 0.2  # the seed's max(0.3, c·0.9) would raise it to 0.3
    assert refined_parent(0.1) == 0.1


def test_refined_child_inherits_more_than_its_parent_up_to_the_ceiling() -> None:
    assert refined_child(0.5) == pytest.approx(0.6)
    assert refined_child(0.9) == C_MAX


def test_repeated_support_converges_below_the_ceiling() -> None:
    c = INITIAL_C
    history = []
    for _ in range(60):
        c = supported(c)
        history.append(c)
    assert all(a <= b for a, b in itertools.pairwise(history))
    assert history[9] > 0.7  # seed 004 §7.3: good hypotheses converge above 0.7
    assert history[-1] == pytest.approx(C_MAX)


def test_repeated_contradiction_drops_a_bad_hypothesis_below_a_fifth_and_stops_at_the_floor() -> None:
    c = INITIAL_C
    for _ in range(4):
        c = contradicted(c)
    assert c < 0.2  # below the retrieval threshold after four contradictions
    for _ in range(100):
        c = contradicted(c)
    assert c == C_MIN


def test_mixed_sequence_applies_each_rule_in_order() -> None:
    c = INITIAL_C
    for outcome in (MemoryOutcome.SUPPORTED, MemoryOutcome.SUPPORTED, MemoryOutcome.CONTRADICTED):
        c = after_outcome(c, outcome)
    assert c == pytest.approx(contradicted(supported(supported(INITIAL_C))))
    assert after_outcome(0.8, MemoryOutcome.REFINED) == pytest.approx(0.72)

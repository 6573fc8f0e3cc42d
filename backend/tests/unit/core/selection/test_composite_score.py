import pytest

from forge.core.selection.composite_score import (
    COMPOSITE_WEIGHTS,
    ScoreVector,
    SelectionPoint,
    composite_score,
    conditional_scalar,
    novelty_weight,
    selection_point,
)


def test_weights_are_the_seeds_and_sum_to_one() -> None:
    assert COMPOSITE_WEIGHTS == {
        "divergence": 0.21,
        "testability": 0.26,
        "rationale": 0.21,
        "robustness": 0.17,
        "feasibility": 0.15,
    }
    assert sum(COMPOSITE_WEIGHTS.values()) == pytest.approx(1.0)


def test_composite_is_the_weighted_sum() -> None:
    scores = ScoreVector(divergence=10, testability=0, rationale=5, robustness=0, feasibility=2)
    assert composite_score(scores) == pytest.approx(2.1 + 1.05 + 0.3)


def test_rejects_a_dimension_outside_zero_to_ten() -> None:
    with pytest.raises(ValueError, match="testability"):
        ScoreVector(divergence=5, testability=11, rationale=5, robustness=5, feasibility=5)


def test_selection_axes_are_divergence_and_the_mean_of_the_rest() -> None:
    point = selection_point(ScoreVector(divergence=8, testability=6, rationale=4, robustness=2, feasibility=8))
    assert point == SelectionPoint(pytest.approx(0.8), pytest.approx(0.5))


def test_novelty_weight_pushes_low_novelty_toward_innovation() -> None:
    assert novelty_weight(0.0) == pytest.approx(0.7)
    assert novelty_weight(1.0) == pytest.approx(0.3)
    assert novelty_weight(0.5) == pytest.approx(0.3 + 0.4 * 0.25)
    assert novelty_weight(0.2) > novelty_weight(0.8)


def test_conditional_scalar_weighs_feasibility_more_for_novel_points() -> None:
    novel = SelectionPoint(0.9, 0.5)
    weight = novelty_weight(0.9)
    assert conditional_scalar(novel) == pytest.approx(weight * 0.9 + (1 - weight) * 0.5)

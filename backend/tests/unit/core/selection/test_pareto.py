import math
import random

import numpy as np
import pytest

from forge.core.selection.composite_score import SelectionPoint, conditional_scalar
from forge.core.selection.pareto import (
    conditional_scalars,
    crowding_distances,
    dominates,
    front_ranks,
    non_dominated_ranks,
    rank_points,
    select_pareto,
)


def brute_force_ranks(points: list[tuple[float, float]]) -> list[int]:
    """Peel fronts by checking every pair: the definition, O(N^3)."""
    remaining = set(range(len(points)))
    ranks = [-1] * len(points)
    rank = 0
    while remaining:
        front = {i for i in remaining if not any(dominates(points[j], points[i]) for j in remaining if j != i)}
        for i in front:
            ranks[i] = rank
        remaining -= front
        rank += 1
    return ranks


@pytest.mark.parametrize("seed", range(12))
def test_ranks_match_brute_force_dominance_on_random_points(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randint(1, 120)
    # A coarse grid makes ties and duplicate points common, the cases a sort gets wrong.
    grid = rng.choice([4, 10, 1000])
    points = [(rng.randint(0, grid) / grid, rng.randint(0, grid) / grid) for _ in range(size)]
    assert list(rank_points(points).ranks) == brute_force_ranks(points)


def reference_crowding(points: list[tuple[float, float]], front: list[int]) -> dict[int, float]:
    """Crowding distance straight from its definition, one front at a time."""
    if len(front) <= 2:
        return dict.fromkeys(front, math.inf)
    distance = dict.fromkeys(front, 0.0)
    for axis in (0, 1):
        ordered = sorted(front, key=lambda i: (points[i][axis], i))
        low, high = points[ordered[0]][axis], points[ordered[-1]][axis]
        distance[ordered[0]] = distance[ordered[-1]] = math.inf
        if high == low:
            continue
        for before, current, after in zip(ordered, ordered[1:], ordered[2:], strict=False):
            distance[current] += (points[after][axis] - points[before][axis]) / (high - low)
    return distance


def random_points_with_ties(rng: random.Random, size: int) -> list[tuple[float, float]]:
    grid = rng.choice([2, 4, 10, 40, 1000])
    points = [(rng.randint(0, grid) / grid, rng.randint(0, grid) / grid) for _ in range(size)]
    # Exact duplicates of earlier points, anywhere in the list.
    for _ in range(rng.randint(0, size // 3)):
        points.insert(rng.randrange(len(points) + 1), rng.choice(points))
    return points


@pytest.mark.parametrize("seed", range(40))
def test_ranks_and_crowding_match_the_definitions_with_ties_and_duplicates(seed: int) -> None:
    rng = random.Random(1000 + seed)
    points = random_points_with_ties(rng, rng.randint(1, 300))
    ranking = rank_points(points)
    assert list(ranking.ranks) == brute_force_ranks(points)
    for front in ranking.fronts:
        expected = reference_crowding(points, list(front))
        assert [ranking.crowding[i] for i in front] == [expected[i] for i in front]


def test_array_and_list_inputs_give_the_same_ranks() -> None:
    rng = random.Random(5)
    points = random_points_with_ties(rng, 500)
    assert front_ranks(np.asarray(points)).tolist() == non_dominated_ranks(points)


def test_infinite_objectives_rank_as_the_definition_says() -> None:
    points = [(1.0, math.inf), (0.5, -math.inf), (1.0, math.inf), (-math.inf, 0.0), (math.inf, -1.0), (0.5, 0.5)]
    assert non_dominated_ranks(points) == brute_force_ranks(points)


def test_a_nan_objective_is_refused() -> None:
    with pytest.raises(ValueError, match="NaN"):
        rank_points([(0.5, math.nan), (0.1, 0.2)])


def test_empty_input_has_no_fronts() -> None:
    ranking = rank_points([])
    assert ranking.ranks == () and ranking.fronts == () and ranking.crowding == ()


def test_vectorised_conditional_scalar_matches_the_scalar_one() -> None:
    rng = random.Random(8)
    points = [SelectionPoint(rng.random(), rng.random()) for _ in range(50)]
    vectorised = conditional_scalars(np.asarray([(p.novelty, p.feasibility) for p in points]))
    assert vectorised.tolist() == pytest.approx([conditional_scalar(p) for p in points], abs=1e-12)


def test_every_front_is_mutually_non_dominated_and_dominated_by_the_previous() -> None:
    rng = random.Random(99)
    points = [(rng.random(), rng.random()) for _ in range(300)]
    fronts = rank_points(points).fronts
    for k, front in enumerate(fronts):
        assert not any(dominates(points[a], points[b]) for a in front for b in front)
        if k:
            assert all(any(dominates(points[a], points[b]) for a in fronts[k - 1]) for b in front)


def test_identical_points_share_a_front() -> None:
    ranking = rank_points([(0.5, 0.5), (0.5, 0.5), (0.4, 0.4)])
    assert ranking.ranks == (0, 0, 1)


def test_crowding_distance_of_a_four_point_front_by_hand() -> None:
    # Novelty spans 0..0.9 and feasibility 0.1..1.0 (both ranges 0.9).
    points = [(0.0, 1.0), (0.3, 0.7), (0.6, 0.4), (0.9, 0.1)]
    distance = crowding_distances(points, [0, 1, 2, 3])
    assert distance[0] == math.inf and distance[3] == math.inf
    # Point 1: novelty neighbours 0.0 and 0.6 → 0.6/0.9; feasibility neighbours 1.0 and 0.4 → 0.6/0.9.
    assert distance[1] == pytest.approx(0.6 / 0.9 * 2)
    assert distance[2] == pytest.approx(0.6 / 0.9 * 2)


def test_crowding_distance_prefers_the_isolated_inner_point() -> None:
    points = [(0.0, 1.0), (0.1, 0.9), (0.8, 0.2), (1.0, 0.0)]
    distance = crowding_distances(points, [0, 1, 2, 3])
    # Point 1: (0.8-0.0)/1 + (1.0-0.2)/1 = 1.6; point 2: (1.0-0.1) + (0.9-0.0) = 1.8.
    assert distance[1] == pytest.approx(1.6)
    assert distance[2] == pytest.approx(1.8)


def test_small_fronts_are_all_boundary_points() -> None:
    assert crowding_distances([(0.1, 0.2), (0.3, 0.0)], [0, 1]) == {0: math.inf, 1: math.inf}


def test_constant_objective_adds_nothing_to_crowding() -> None:
    points = [(0.0, 0.5), (0.5, 0.5), (1.0, 0.5)]
    distance = crowding_distances(points, [0, 1, 2])
    assert distance[1] == pytest.approx(1.0)


def test_selection_takes_the_first_front_before_any_dominated_point() -> None:
    points = [
        SelectionPoint(0.9, 0.2),  # front 0
        SelectionPoint(0.5, 0.5),  # front 0
        SelectionPoint(0.4, 0.4),  # front 1
        SelectionPoint(0.2, 0.9),  # front 0
        SelectionPoint(0.1, 0.1),  # front 2
    ]
    assert sorted(select_pareto(points, 3)) == [0, 1, 3]
    assert select_pareto(points, 5)[3:] == [2, 4]


def test_selection_within_a_front_prefers_boundaries_then_the_less_crowded() -> None:
    points = [SelectionPoint(0.0, 1.0), SelectionPoint(0.1, 0.9), SelectionPoint(0.8, 0.2), SelectionPoint(1.0, 0.0)]
    chosen = select_pareto(points, 3)
    assert set(chosen[:2]) == {0, 3}
    assert chosen[2] == 2


def test_selection_of_zero_or_of_an_empty_pool_is_empty() -> None:
    assert select_pareto([SelectionPoint(0.5, 0.5)], 0) == []
    assert select_pareto([], 3) == []

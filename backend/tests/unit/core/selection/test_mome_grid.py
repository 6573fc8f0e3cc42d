import random

import pytest

from forge.core.selection.composite_score import SelectionPoint, conditional_scalar
from forge.core.selection.mome_grid import BehaviorDescriptor, GridAxes, build_mome_grid, select_mome
from forge.core.selection.pareto import crowding_distances, dominates

AXES = GridAxes(("feedback", "flow"), ("individual", "aggregate"))
FEEDBACK_IND = BehaviorDescriptor("feedback", "individual")
FLOW_AGG = BehaviorDescriptor("flow", "aggregate")


def test_cell_front_is_capacity_limited_keeping_the_least_crowded() -> None:
    # Five mutually non-dominated points in one cell, capacity 3: the two extremes and the most isolated inner one.
    points = [
        SelectionPoint(0.0, 1.0),
        SelectionPoint(0.1, 0.9),
        SelectionPoint(0.2, 0.8),
        SelectionPoint(0.7, 0.3),
        SelectionPoint(1.0, 0.0),
    ]
    grid = build_mome_grid(points, [FEEDBACK_IND] * 5, AXES, capacity=3)
    (cell,) = grid.cells
    assert cell.explored == 5
    assert set(cell.front) == {0, 4, 3}


def test_cell_keeps_only_its_non_dominated_points() -> None:
    points = [SelectionPoint(0.5, 0.5), SelectionPoint(0.4, 0.4), SelectionPoint(0.6, 0.2)]
    grid = build_mome_grid(points, [FEEDBACK_IND] * 3, AXES, capacity=5)
    assert set(grid.cells[0].front) == {0, 2}


def test_points_of_different_cells_do_not_compete() -> None:
    points = [SelectionPoint(0.9, 0.9), SelectionPoint(0.1, 0.1)]
    grid = build_mome_grid(points, [FEEDBACK_IND, FLOW_AGG], AXES, capacity=1)
    assert [c.front for c in grid.cells] == [(0,), (1,)]


def test_coverage_ratio_is_filled_over_all_cells() -> None:
    points = [SelectionPoint(0.5, 0.5)] * 3
    grid = build_mome_grid(points, [FEEDBACK_IND, FEEDBACK_IND, FLOW_AGG], AXES)
    assert grid.coverage_ratio == pytest.approx(2 / 4)


def test_selection_seeds_the_sparsest_cell_first() -> None:
    points = [SelectionPoint(0.0, 1.0), SelectionPoint(1.0, 0.0), SelectionPoint(0.5, 0.5), SelectionPoint(0.3, 0.3)]
    grid = build_mome_grid(points, [FEEDBACK_IND, FEEDBACK_IND, FEEDBACK_IND, FLOW_AGG], AXES)
    chosen = select_mome(grid, 3)
    assert chosen[0] == 3  # the flow cell was explored once, the feedback cell three times
    assert len(chosen) == 3 and len(set(chosen)) == 3


def test_selection_stops_when_every_front_is_exhausted() -> None:
    grid = build_mome_grid([SelectionPoint(0.5, 0.5)], [FLOW_AGG], AXES)
    assert select_mome(grid, 10) == [0]


def test_rejects_a_descriptor_outside_the_axes() -> None:
    with pytest.raises(ValueError, match="outside the grid"):
        build_mome_grid([SelectionPoint(0.5, 0.5)], [BehaviorDescriptor("magic", "individual")], AXES)


def test_rejects_a_capacity_below_one() -> None:
    with pytest.raises(ValueError, match="at least one"):
        build_mome_grid([], [], AXES, capacity=0)


def reference_cell_front(points: list[SelectionPoint], indices: list[int], capacity: int) -> tuple[int, ...]:
    pairs = {i: (points[i].novelty, points[i].feasibility) for i in indices}
    front = [i for i in indices if not any(dominates(pairs[j], pairs[i]) for j in indices)]
    crowding = crowding_distances([pairs.get(i, (0.0, 0.0)) for i in range(len(points))], front)
    best = sorted(front, key=lambda i: (-crowding[i], -conditional_scalar(points[i]), i))
    return tuple(best[:capacity])


@pytest.mark.parametrize("seed", range(20))
def test_cell_fronts_match_the_definition_on_random_points_with_ties(seed: int) -> None:
    rng = random.Random(seed)
    axes = GridAxes(("feedback", "flow", "network"), ("individual", "group", "aggregate"))
    grid_step = rng.choice([2, 5, 10, 1000])
    size, capacity = rng.randint(1, 150), rng.randint(1, 5)
    points = [
        SelectionPoint(rng.randint(0, grid_step) / grid_step, rng.randint(0, grid_step) / grid_step)
        for _ in range(size)
    ]
    points += [rng.choice(points) for _ in range(size // 4)]
    descriptors = [rng.choice(axes.cells) for _ in points]
    grid = build_mome_grid(points, descriptors, axes, capacity=capacity)
    for cell in grid.cells:
        members = [i for i, d in enumerate(descriptors) if d == cell.descriptor]
        assert cell.explored == len(members)
        assert cell.front == reference_cell_front(points, members, capacity)
    assert {c.descriptor for c in grid.cells} == set(descriptors)

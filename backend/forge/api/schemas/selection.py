"""Response models of the selection plot (GET /sessions/{id}/selection): the pool on the novelty ×
feasibility plane with its Pareto fronts, and the MOME grid with coverage.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from forge.api.schemas.engine_names import HypothesisOperator
from forge.core.selection.plot import SelectionPlot


class PlotPointOut(BaseModel):
    id: str
    title: str
    domain_name: str
    operator: HypothesisOperator
    novelty: float = Field(description="Novelty axis (divergence / 10), 0..1.")
    feasibility: float = Field(
        description="Feasibility axis (mean of testability, rationale, robustness, feasibility / 10), 0..1."
    )
    composite: float = Field(description="The five-dimension composite score, 0..10.")
    rank: int = Field(description="NSGA-II front: 0 is the Pareto front.")
    crowding: float | None = Field(description="Crowding distance in its front; null = infinite (a front's end).")
    mechanism_family: str
    data_granularity: str
    in_cell_front: bool = Field(description="Kept by its MOME cell's capacity-limited front.")
    seed: bool = Field(description="Expanded by the latest SEARCH round.")


class GridCellOut(BaseModel):
    mechanism_family: str
    data_granularity: str
    explored: int = Field(description="Hypotheses that landed in this cell.")
    kept: int = Field(description="How many the cell's Pareto front keeps (at most `capacity`).")


class SelectionPlotOut(BaseModel):
    points: list[PlotPointOut]
    pruned: int = Field(description="Hypotheses that failed the mapping gate (not plotted).")
    mechanism_families: list[str]
    data_granularities: list[str]
    cells: list[GridCellOut]
    capacity: int
    coverage_ratio: float = Field(description="Filled cells / all cells.")


def selection_out(plot: SelectionPlot) -> SelectionPlotOut:
    return SelectionPlotOut(
        points=[PlotPointOut.model_validate(p, from_attributes=True) for p in plot.points],
        pruned=plot.pruned,
        mechanism_families=list(plot.mechanism_families),
        data_granularities=list(plot.data_granularities),
        cells=[GridCellOut.model_validate(c, from_attributes=True) for c in plot.cells],
        capacity=plot.capacity,
        coverage_ratio=plot.coverage_ratio,
    )

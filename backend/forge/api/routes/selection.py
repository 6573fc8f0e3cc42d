"""What the claims review plots: the pool on the novelty × feasibility plane with its Pareto fronts,
and the MOME grid with coverage (seed 000 §8). Read-only; 404 for an unknown session."""

from __future__ import annotations

from fastapi import APIRouter

from forge.api.deps import ContainerDep, session_id_of, unwrap
from forge.api.error_responses import error_responses
from forge.api.schemas.selection import SelectionPlotOut, selection_out
from forge.services.selection_queries import selection_plot_of

router = APIRouter(prefix="/api/v1/sessions", tags=["engine"])


@router.get("/{session_id}/selection", response_model=SelectionPlotOut, responses=error_responses(404, 422))
async def get_selection(session_id: str, container: ContainerDep) -> SelectionPlotOut:
    sid = session_id_of(session_id)
    plot = unwrap(await selection_plot_of(container.uow_factory, sid))
    return selection_out(plot)

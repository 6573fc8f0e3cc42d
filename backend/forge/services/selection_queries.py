"""Reading what SEARCH selection sees for a session: the pool on the Pareto plane and the MOME grid
(read-only; one short transaction)."""

from __future__ import annotations

from forge.core.domain_types import SessionId
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.judged_scores import model_scores
from forge.core.selection.plot import SelectionPlot, selection_plot
from forge.ports import HypothesisFilter, UnitOfWorkFactory
from forge.services.hypothesis_queries import POOL_READ_LIMIT
from forge.services.service_results import ServiceFailure, not_found
from forge.services.stages.supervision import supervised_weights


async def selection_plot_of(uow_factory: UnitOfWorkFactory, session_id: SessionId) -> SelectionPlot | ServiceFailure:
    async with uow_factory() as uow:
        if await uow.sessions.get(session_id) is None:
            return not_found(session_id)
        state = await uow.sessions.load_state(session_id)
        page = await uow.hypotheses.page(session_id, HypothesisFilter(), limit=POOL_READ_LIMIT, offset=0)
    frame = (
        state.problem_frame.frame
        if state.problem_frame is not None
        else ProblemFrame(objective=(state.problem.splitlines() or [""])[0], target_object="", target_outcome="")
    )
    seeds = state.search.seeds if state.search else ()
    judged = model_scores(state.hypothesis_scores)
    return selection_plot(page.items, frame, seeds, supervised_weights(state), judged)  # the axes SEARCH selected on

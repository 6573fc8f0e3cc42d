"""Reading what the supervisor (SAGA) recorded for a session (read-only; no lock, no write)."""

from __future__ import annotations

from forge.core.domain_types import SessionId
from forge.core.saga.state import SupervisionState
from forge.ports import UnitOfWorkFactory
from forge.services.service_results import ServiceFailure, not_found


async def supervision_of_session(
    uow_factory: UnitOfWorkFactory, session_id: SessionId
) -> SupervisionState | ServiceFailure:
    """The session's supervision (empty when no checkpoint has run yet), or 404."""
    async with uow_factory() as uow:
        if await uow.sessions.get(session_id) is None:
            return not_found(session_id)
        state = await uow.sessions.load_state(session_id)
    return state.supervision or SupervisionState()

"""Reading a session's hypothesis pool (read-only; no lock, no write)."""

from __future__ import annotations

from forge.core.domain_types import SessionId
from forge.ports import HypothesisFilter, HypothesisPage, UnitOfWorkFactory
from forge.services.service_results import FailureKind, ServiceFailure


async def hypothesis_page(
    uow_factory: UnitOfWorkFactory, session_id: SessionId, where: HypothesisFilter, *, limit: int, offset: int
) -> HypothesisPage | ServiceFailure:
    async with uow_factory() as uow:
        if await uow.sessions.get(session_id) is None:
            return ServiceFailure(FailureKind.NOT_FOUND, f"Session {session_id} does not exist.")
        return await uow.hypotheses.page(session_id, where, limit=limit, offset=offset)

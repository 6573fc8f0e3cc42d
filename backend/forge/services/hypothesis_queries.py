"""Reading a session's hypothesis pool (read-only; no lock, no write)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from forge.core.domain_types import SessionId
from forge.core.hypotheses.pool import Hypothesis
from forge.ports import HypothesisFilter, HypothesisPage, UnitOfWorkFactory
from forge.services.service_results import ServiceFailure, not_found


async def hypothesis_page(
    uow_factory: UnitOfWorkFactory, session_id: SessionId, where: HypothesisFilter, *, limit: int, offset: int
) -> HypothesisPage | ServiceFailure:
    async with uow_factory() as uow:
        if await uow.sessions.get(session_id) is None:
            return not_found(session_id)
        return await uow.hypotheses.page(session_id, where, limit=limit, offset=offset)


POOL_READ_LIMIT = 2_000  # a SEARCH round reads at most this many hypotheses, best mapping score first


def pool_reader(uow_factory: UnitOfWorkFactory) -> Callable[[SessionId], Awaitable[Sequence[Hypothesis]]]:
    """What the SYNTHESIZE stage searches: the session's pool, best first, in its own short transaction."""

    async def read(session_id: SessionId) -> Sequence[Hypothesis]:
        async with uow_factory() as uow:
            page = await uow.hypotheses.page(session_id, HypothesisFilter(), limit=POOL_READ_LIMIT, offset=0)
        return page.items

    return read

"""Reading a session's AnswerPack (read-only; no lock, no write).

Invariants:
    - 404 (NOT_FOUND) for an unknown session; 409 (CONFLICT) while no AnswerPack exists, with a
      message saying when it will (Solve runs at the start of CRYSTALLIZE) or why it did not.
    - The pack is returned with the session's spend as it stands now (`with_current_spend`): the
      document is written after Solve, and its cost belongs to the methodology too.
"""

from __future__ import annotations

from forge.core.answer.build import with_current_spend
from forge.core.answer.pack import AnswerPack
from forge.core.domain_types import Phase, SessionId
from forge.core.session.forge_state import ForgeState
from forge.ports import UnitOfWorkFactory
from forge.services.service_results import FailureKind, ServiceFailure, not_found


def missing_answer(state: ForgeState) -> ServiceFailure:
    if state.current_phase is not Phase.CRYSTALLIZE:
        return ServiceFailure(
            FailureKind.CONFLICT,
            f"No answer yet: the session is in {state.current_phase.value.upper()}; "
            "Solve builds the AnswerPack at the start of CRYSTALLIZE.",
        )
    if state.knowledge_document_markdown is None:
        return ServiceFailure(
            FailureKind.CONFLICT, "No answer yet: Solve has not finished; POST /run if no run is working on it."
        )
    return ServiceFailure(
        FailureKind.CONFLICT,
        "This session has no AnswerPack: Solve produced no answer (its `engine_stage` event says why).",
    )


async def answer_pack(uow_factory: UnitOfWorkFactory, session_id: SessionId) -> AnswerPack | ServiceFailure:
    async with uow_factory() as uow:
        if await uow.sessions.get(session_id) is None:
            return not_found(session_id)
        state = await uow.sessions.load_state(session_id)
    if state.answer_pack is None:
        return missing_answer(state)
    return with_current_spend(state.answer_pack, state)

"""The session's AnswerPack: Markdown (`/answer`) and typed JSON (`/answer.json`).

Invariants:
    - Read-only. 404 for an unknown session; 409 with a message while no AnswerPack exists.
    - `/answer` answers text/markdown (errors stay JSON) with its fixed words in the question's
      language (en, zh or ja); `/answer.json` is `AnswerPackOut`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from forge.api.deps import ContainerDep, session_id_of, unwrap
from forge.api.error_responses import error_responses
from forge.api.routes.session_stream import MarkdownResponse
from forge.api.schemas.answer import AnswerPackOut
from forge.core.answer.render import answer_pack_json, render_answer_markdown
from forge.services.answer_queries import answer_pack

router = APIRouter(prefix="/api/v1/sessions", tags=["answer"])
ANSWER_MARKDOWN_OK: dict[int | str, dict[str, Any]] = {
    200: {"description": "The AnswerPack as Markdown.", "content": {"text/markdown": {"schema": {"type": "string"}}}},
}


@router.get(
    "/{session_id}/answer",
    response_class=MarkdownResponse,
    responses={**ANSWER_MARKDOWN_OK, **error_responses(404, 409)},
)
async def get_answer_markdown(session_id: str, container: ContainerDep) -> MarkdownResponse:
    pack = unwrap(await answer_pack(container.uow_factory, session_id_of(session_id)))
    return MarkdownResponse(render_answer_markdown(pack))


@router.get("/{session_id}/answer.json", response_model=AnswerPackOut, responses=error_responses(404, 409))
async def get_answer_json(session_id: str, container: ContainerDep) -> AnswerPackOut:
    pack = unwrap(await answer_pack(container.uow_factory, session_id_of(session_id)))
    return AnswerPackOut.model_validate(answer_pack_json(pack))

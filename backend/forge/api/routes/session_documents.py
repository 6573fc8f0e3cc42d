"""The person's own documents for a session's research: add and list."""

from __future__ import annotations

from fastapi import APIRouter

from forge.api.authentication import OwnedSession
from forge.api.deps import SessionServiceDep, unwrap
from forge.api.error_responses import BODY_ERRORS, error_responses
from forge.api.schemas.sessions import DocumentCreate, DocumentResponse

router = APIRouter(prefix="/api/v1/sessions", tags=["documents"])


@router.post(
    "/{session_id}/documents",
    status_code=201,
    response_model=DocumentResponse,
    responses=error_responses(*BODY_ERRORS, 404, 409),
)
async def add_document(session_id: OwnedSession, body: DocumentCreate, service: SessionServiceDep) -> DocumentResponse:
    document = unwrap(await service.add_document(session_id, body.title, body.text))
    return DocumentResponse.of(document)


@router.get("/{session_id}/documents", response_model=list[DocumentResponse], responses=error_responses(404))
async def list_documents(session_id: OwnedSession, service: SessionServiceDep) -> list[DocumentResponse]:
    documents = unwrap(await service.documents(session_id))
    return [DocumentResponse.of(d) for d in documents]

"""The agent's stream, reviews, the event log and the document.

Invariants:
    - GET /stream never starts model work (a cross-site GET must not spend money): it replays events
      after Last-Event-ID and follows live until the run pauses; POST /run starts or resumes the
      run. A stream that finds work with no live run ends with RUN_NOT_RUNNING (see `follow`).
    - POST /user-input validates the review before anything changes (409/422 otherwise) and
      streams from the review onwards; POST /autopilot does the same with the autopilot's review of
      the current state (409 unless the session waits for a review).
    - GET /events returns every event validated against its typed model (`SessionEventOut`).
    - Cursors (`after`, `Last-Event-ID`, `?last_event_id=`) are integers in 0..MAX_INT64; anything
      else is a 422 that says so, before the database is asked.
    - GET /document answers text/markdown; its errors, like every error, are JSON.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, HTTPException, Query
from fastapi.responses import PlainTextResponse

from forge.api.authentication import OwnedSession, within_limits
from forge.api.deps import SessionServiceDep, SseFramesDep, unwrap
from forge.api.error_responses import BODY_ERRORS, error_responses
from forge.api.event_stream_response import EventStreamResponse
from forge.api.request_limits import MAX_INT64
from forge.api.schemas.events import event_out
from forge.api.schemas.sessions import AutopilotRequest, EventPage, UserInput
from forge.api.sse_encoding import SSE_EVENT_SCHEMA, encode_sse, parse_last_event_id
from forge.core.accounts.user_limits import LimitedAction
from forge.core.review.autopilot_policy import AutopilotPolicy

router = APIRouter(prefix="/api/v1/sessions", tags=["agent"])
SSE_OK: dict[int | str, dict[str, Any]] = {
    200: {
        "content": {"text/event-stream": {"schema": SSE_EVENT_SCHEMA}},
        "description": (
            "Server-Sent Events. Each message has `event` = the event type, `id` = the event id and `data` = "
            "the JSON of that event's `data` (see `SessionEventOut`, discriminated on `type`). The stream "
            "ends after a `done` event when the run pauses or finishes."
        ),
    },
}
MARKDOWN_OK: dict[int | str, dict[str, Any]] = {
    200: {"description": "The knowledge document (Markdown), as an attachment."},
}


class MarkdownResponse(PlainTextResponse):
    media_type = "text/markdown"


def _cursor(header: str | None, query: str | None) -> int:
    cursor = parse_last_event_id(header, query)
    if isinstance(cursor, str):
        raise HTTPException(422, cursor)
    return cursor


@router.get(
    "/{session_id}/stream", response_class=EventStreamResponse, responses={**SSE_OK, **error_responses(404, 422)}
)
async def stream_session(
    session_id: OwnedSession,
    service: SessionServiceDep,
    frames: SseFramesDep,
    last_event_id: Annotated[str | None, Query(description="Resume after this event id.")] = None,
    last_event_id_header: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
) -> EventStreamResponse:
    """Follow the session's events: replay after Last-Event-ID, then live until the run pauses.
    Starts nothing: POST /run starts or resumes the agent."""
    after = _cursor(last_event_id_header, last_event_id)
    # OwnedSession has answered 404 for a session that does not exist (or is not the caller's): no
    # second read here — under a connection storm every query per connect counts.
    feed = service.follow_batches(session_id, after)
    return EventStreamResponse(encode_sse(frames, session_id, feed))


@router.post(
    "/{session_id}/user-input",
    response_class=EventStreamResponse,
    responses={**SSE_OK, **error_responses(*BODY_ERRORS, 404, 409, 429)},
    dependencies=[within_limits(LimitedAction.START_WORK)],
)
async def submit_user_input(
    session_id: OwnedSession, body: UserInput, service: SessionServiceDep, frames: SseFramesDep
) -> EventStreamResponse:
    review = body.to_review()
    if isinstance(review, str):
        raise HTTPException(422, review)
    cursor = unwrap(await service.submit_review(session_id, review))
    return EventStreamResponse(encode_sse(frames, session_id, service.follow_batches(session_id, cursor)))


@router.post(
    "/{session_id}/autopilot",
    response_class=EventStreamResponse,
    responses={**SSE_OK, **error_responses(*BODY_ERRORS, 404, 409, 429)},
    dependencies=[within_limits(LimitedAction.START_WORK)],
)
async def submit_autopilot_review(
    session_id: OwnedSession,
    service: SessionServiceDep,
    frames: SseFramesDep,
    body: Annotated[AutopilotRequest | None, Body()] = None,
) -> EventStreamResponse:
    """Answer the review the session waits for as the CLI's autopilot would, then stream like /user-input."""
    options = body or AutopilotRequest()
    policy = AutopilotPolicy(accept_threshold=options.accept_threshold, rounds=options.rounds)
    cursor = unwrap(await service.submit_autopilot_review(session_id, policy))
    return EventStreamResponse(encode_sse(frames, session_id, service.follow_batches(session_id, cursor)))


@router.get("/{session_id}/events", response_model=EventPage, responses=error_responses(404, 422))
async def list_events(
    session_id: OwnedSession,
    service: SessionServiceDep,
    after: Annotated[int, Query(ge=0, le=MAX_INT64, description="Return events with id > after.")] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> EventPage:
    events = unwrap(await service.events(session_id, after, limit + 1))
    page = events[:limit]
    return EventPage(
        events=[event_out(e) for e in page],
        next_after=page[-1].seq if page else after,
        has_more=len(events) > limit,
    )


@router.get(
    "/{session_id}/document", response_class=MarkdownResponse, responses={**MARKDOWN_OK, **error_responses(404, 409)}
)
async def download_document(session_id: OwnedSession, service: SessionServiceDep) -> MarkdownResponse:
    markdown = unwrap(await service.document(session_id))
    filename = f"knowledge-document-{session_id}.md"
    return MarkdownResponse(markdown, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

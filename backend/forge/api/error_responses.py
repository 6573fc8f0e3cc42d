"""The error body every 4xx of the API has, and its declaration in the OpenAPI document.

Invariants:
    - Every 4xx is JSON `ErrorResponse`: `detail` is one sentence saying what is wrong and what to
      fix; `errors` lists the invalid fields of a request validation error (422) and is absent
      otherwise. `detail` is always a string, never FastAPI's default list.
    - `error_responses(...)` is the only way routes declare their 4xx statuses, so each declared
      status has our schema and a description; a route that declares 422 replaces FastAPI's default
      `HTTPValidationError` (which does not describe what we send).
    - `errors_as_json` makes every declared 4xx/5xx `application/json` in the document, whatever the
      route's own media type (FastAPI would file them under text/markdown or text/event-stream), and
      removes the 422 FastAPI adds by itself to routes that did not declare one (`HTTPValidationError`,
      on routes whose only parameter is the session id in the path, which cannot fail validation).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

DESCRIPTIONS = {
    400: "The body could not be read: it must be UTF-8 encoded JSON.",
    401: "Authentication required (FORGE_AUTH=on): a bearer token or a browser login; see WWW-Authenticate.",
    403: "Refused: a browser login's state-changing request without its X-CSRF-Token, or an admin-only action.",
    404: "No such session.",
    409: "The session is not in a state that allows this (the message says which state it is in).",
    413: "The request body is larger than the limit (256 KiB).",
    422: "A parameter, header or body field is invalid; `errors` lists each invalid field.",
    429: "A per-user limit is reached; the message names it (running sessions, sessions per hour, monthly spend).",
}

BODY_ERRORS = (400, 413, 422)


class FieldError(BaseModel):
    """One invalid field: where it is (`loc`, e.g. `["body", "problem"]`), what is wrong and its kind."""

    loc: list[str | int]
    msg: str
    type: str


class ErrorResponse(BaseModel):
    """What went wrong and how to fix it."""

    detail: str = Field(description="What is wrong and what to fix, in one sentence.")
    errors: list[FieldError] = Field(
        default_factory=list, description="For request validation errors (422): one entry per invalid field."
    )


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` entries of a route for these error statuses, in ascending order."""
    return {status: {"model": ErrorResponse, "description": DESCRIPTIONS[status]} for status in sorted(set(statuses))}


FASTAPI_422 = "#/components/schemas/HTTPValidationError"


def _is_fastapi_422(response: dict[str, Any]) -> bool:
    schemas = [media.get("schema", {}) for media in response.get("content", {}).values()]
    return any(schema.get("$ref") == FASTAPI_422 for schema in schemas)


def errors_as_json(document: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document (changed in place) with every 4xx/5xx under `application/json` and
    FastAPI's own 422 removed."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            responses: dict[str, Any] = operation.get("responses", {})
            if _is_fastapi_422(responses.get("422", {})):
                del responses["422"]
            for status, response in responses.items():
                content = response.get("content")
                if status[:1] in ("4", "5") and content:
                    response["content"] = {"application/json": next(iter(content.values()))}
    _declare_csrf_refusals(document)
    schemas = document.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    return document


SAFE_OPERATIONS = ("get", "head", "options")


def _declare_csrf_refusals(document: dict[str, Any]) -> None:
    """Every authenticated (401-declaring) state-changing operation may also answer 403 (CSRF)."""
    refusal = {
        "description": DESCRIPTIONS[403],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
    }
    for operations in document.get("paths", {}).values():
        for method, operation in operations.items():
            responses: dict[str, Any] = operation.get("responses", {})
            if method not in SAFE_OPERATIONS and "401" in responses and "403" not in responses:
                responses["403"] = refusal
                operation["responses"] = dict(sorted(responses.items()))

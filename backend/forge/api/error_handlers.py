"""Exception handlers: every error the app raises becomes an `ErrorResponse` that says what to fix.

Invariants:
    - Request validation errors are 422 with `detail` = one readable sentence (at most five problems)
      and `errors` = every problem as `{loc, msg, type}`; client-supplied parts of `loc` (object keys)
      are cut to MAX_ECHO_CHARS characters.
    - FastAPI's "error parsing the body" 400 gets a message saying how to send the body.
    - A 405 names the methods the path allows, in the message and in `Allow`, taken from every route
      (see `allowed_methods`); under the API prefixes a path no route has is a 404 instead.
    - Other HTTP errors keep their status, detail and headers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from forge.api.allowed_methods import allowed_methods
from forge.api.request_limits import MAX_ECHO_CHARS, quote_input
from forge.api.serve_spa import CATCH_ALL_PATH, is_reserved

FASTAPI_BODY_ERROR = "There was an error parsing the body"
UNREADABLE_BODY = (
    "The body could not be read: send a JSON object encoded as UTF-8, with Content-Type: application/json."
)


def _loc_part(part: Any) -> str | int:
    if isinstance(part, int):
        return part
    text = str(part)
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS] + "…"


def _field_errors(error: RequestValidationError) -> list[dict[str, Any]]:
    return [
        {"loc": [_loc_part(p) for p in item.get("loc", ())], "msg": item.get("msg", "invalid"), "type": item["type"]}
        for item in error.errors()
    ]


def _readable(errors: list[dict[str, Any]]) -> str:
    parts = []
    for item in errors[:5]:
        loc = item["loc"]
        if item["type"] == "json_invalid":
            position = loc[1] if len(loc) > 1 else "?"
            parts.append(f"the body is not valid JSON (error at character {position}); send a JSON object")
        elif item["type"] == "model_attributes_type" and loc == ["body"]:
            parts.append("the body must be a JSON object (Content-Type: application/json)")
        else:
            where = ".".join(str(p) for p in loc if p != "body") or "body"
            parts.append(f"{where}: {item['msg']}")
    return "Invalid request — " + "; ".join(parts)


async def validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = _field_errors(error)
    return JSONResponse({"detail": _readable(errors), "errors": errors}, status_code=422)


def _method_not_allowed(request: Request, headers: Mapping[str, str] | None) -> JSONResponse:
    path = request.url.path
    skip = frozenset({CATCH_ALL_PATH}) if is_reserved(path) else frozenset()
    methods = allowed_methods(request.app.routes, request.scope, skip)
    if not methods:
        detail = f"No route for {quote_input(path)}; the API lives under /api/v1 (see /docs)."
        return JSONResponse({"detail": detail}, status_code=404)
    allow = ", ".join(methods)
    detail = f"Method {request.method} is not allowed on this path; use {allow}."
    return JSONResponse({"detail": detail}, status_code=405, headers={**(headers or {}), "Allow": allow})


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 405:
        return _method_not_allowed(request, error.headers)
    detail = UNREADABLE_BODY if error.status_code == 400 and error.detail == FASTAPI_BODY_ERROR else error.detail
    if error.status_code in (204, 304):
        return Response(status_code=error.status_code, headers=error.headers)
    return JSONResponse({"detail": detail}, status_code=error.status_code, headers=error.headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)

"""Errors are what the OpenAPI document says: `ErrorResponse` JSON, with the statuses each route lists.

A 422's `detail` is a sentence (FastAPI's default schema said a list); `/document` is Markdown but its
errors are JSON; a method a path does not have is a 405 whose `Allow` lists every method it has;
OPTIONS, with or without CORS, never answers with a status or body outside that contract.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from support.api_client import api_client

from forge.api.export_openapi import openapi_document
from forge.config import Settings

ERROR_REF = {"$ref": "#/components/schemas/ErrorResponse"}
UNKNOWN = "00000000-0000-0000-0000-00000000abcd"
ALLOWED_ORIGIN = "http://app.example"
STATUSES = {
    ("get", "/api/v1/health/"): {"200"},
    ("get", "/api/v1/health/ready"): {"200", "503"},
    ("get", "/api/v1/sessions"): {"200", "422", "401"},
    ("post", "/api/v1/sessions"): {"201", "400", "413", "422", "401", "403", "429"},
    ("get", "/api/v1/sessions/{session_id}"): {"200", "404", "401"},
    ("delete", "/api/v1/sessions/{session_id}"): {"204", "404", "401", "403"},
    ("post", "/api/v1/sessions/{session_id}/cancel"): {"200", "404", "409", "401", "403"},
    ("post", "/api/v1/sessions/{session_id}/run"): {"200", "404", "409", "401", "403", "429"},
    ("get", "/api/v1/sessions/{session_id}/stream"): {"200", "404", "422", "401"},
    ("post", "/api/v1/sessions/{session_id}/user-input"): {
        "200",
        "400",
        "404",
        "409",
        "413",
        "422",
        "401",
        "403",
        "429",
    },
    ("post", "/api/v1/sessions/{session_id}/autopilot"): {
        "200",
        "400",
        "404",
        "409",
        "413",
        "422",
        "401",
        "403",
        "429",
    },
    ("get", "/api/v1/sessions/{session_id}/events"): {"200", "404", "422", "401"},
    ("get", "/api/v1/sessions/{session_id}/document"): {"200", "404", "409", "401"},
    ("get", "/api/v1/sessions/{session_id}/graph"): {"200", "404", "401"},
    ("get", "/api/v1/sessions/{session_id}/graph.graphml"): {"200", "404", "401"},
    ("get", "/api/v1/sessions/{session_id}/answer"): {"200", "404", "409", "401"},
    ("get", "/api/v1/sessions/{session_id}/answer.json"): {"200", "404", "409", "401"},
    ("get", "/api/v1/sessions/{session_id}/supervisor"): {"200", "404", "401"},
    ("get", "/api/v1/sessions/{session_id}/selection"): {"200", "404", "422", "401"},
    ("post", "/api/v1/sessions/{session_id}/documents"): {"201", "400", "404", "409", "413", "422", "401", "403"},
    ("get", "/api/v1/sessions/{session_id}/documents"): {"200", "404", "401"},
    ("get", "/api/v1/sessions/{session_id}/hypotheses"): {"200", "404", "422", "401"},
    ("get", "/api/v1/memory/hypotheses"): {"200", "422", "401"},
    ("post", "/api/v1/auth/login"): {"200", "400", "401", "403", "409", "413", "422", "429"},
    ("post", "/api/v1/auth/logout"): {"204", "401", "403"},
    ("get", "/api/v1/auth/me"): {"200", "401"},
    ("get", "/api/v1/auth/tokens"): {"200", "401"},
    ("post", "/api/v1/auth/tokens"): {"201", "400", "401", "403", "413", "422"},
    ("delete", "/api/v1/auth/tokens/{token_id}"): {"204", "401", "403", "404"},
    ("get", "/api/v1/admin/users"): {"200", "401", "403"},
    ("post", "/api/v1/admin/users"): {"201", "400", "401", "403", "409", "413", "422"},
    ("patch", "/api/v1/admin/users/{user_id}"): {"200", "400", "401", "403", "404", "409", "413", "422"},
    ("get", "/api/v1/admin/usage"): {"200", "401", "403"},
    ("get", "/api/v1/admin/curation"): {"200", "401", "403"},
    ("put", "/api/v1/admin/curation"): {"200", "400", "401", "403", "413", "422"},
    ("get", "/api/v1/knowledge/domains"): {"200", "401"},
    ("get", "/api/v1/knowledge/triz/parameters"): {"200", "401"},
    ("get", "/api/v1/knowledge/triz/principles"): {"200", "401"},
    ("get", "/api/v1/knowledge/triz/matrix/{improving}/{worsening}"): {"200", "422", "401"},
}


def _operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(method, path): op for path, ops in document["paths"].items() for method, op in ops.items()}


def test_each_route_documents_the_statuses_it_can_answer() -> None:
    operations = _operations(openapi_document())
    assert {key: set(op["responses"]) for key, op in operations.items()} == STATUSES


def test_every_documented_4xx_is_the_json_error_model_and_fastapis_422_is_gone() -> None:
    document = openapi_document()
    errors = {
        (method, path, status): response["content"]
        for (method, path), op in _operations(document).items()
        for status, response in op["responses"].items()
        if status.startswith("4")
    }
    assert errors and all(content == {"application/json": {"schema": ERROR_REF}} for content in errors.values())
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "ValidationError" not in schemas
    assert schemas["ErrorResponse"]["properties"]["detail"]["type"] == "string"
    assert schemas["ErrorResponse"]["required"] == ["detail"]


def test_success_content_types_are_markdown_and_event_streams_where_they_are() -> None:
    operations = _operations(openapi_document())
    document_ok = operations[("get", "/api/v1/sessions/{session_id}/document")]["responses"]["200"]["content"]
    assert list(document_ok) == ["text/markdown"]
    for key in [("get", "{}/stream"), ("post", "{}/user-input"), ("post", "{}/autopilot")]:
        content = operations[(key[0], key[1].format("/api/v1/sessions/{session_id}"))]["responses"]["200"]["content"]
        assert list(content) == ["text/event-stream"]


def test_every_reference_in_the_document_resolves() -> None:
    document = openapi_document()
    text = json.dumps(document)
    referenced = set(re.findall(r'"#/components/schemas/([^"]+)"', text))
    assert "SessionEventOut" in referenced and "ToolCallData" in referenced  # the event stream's data
    assert referenced <= set(document["components"]["schemas"])


async def test_a_422_has_a_sentence_in_detail_and_the_fields_in_errors(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/v1/sessions", params={"limit": 0, "status": "nope"})
    assert response.status_code == 422
    body = response.json()
    assert isinstance(body["detail"], str) and body["detail"].startswith("Invalid request — ")
    assert [e["loc"] for e in body["errors"]] == [["query", "limit"], ["query", "status"]]
    assert all(set(e) == {"loc", "msg", "type"} for e in body["errors"])


async def test_document_errors_are_json_though_the_document_is_markdown(
    client: httpx.AsyncClient, paused_session: str
) -> None:
    missing = await client.get(f"/api/v1/sessions/{UNKNOWN}/document")
    early = await client.get(f"/api/v1/sessions/{paused_session}/document")
    for response, status in ((missing, 404), (early, 409)):
        assert response.status_code == status
        assert response.headers["content-type"] == "application/json"
        assert isinstance(response.json()["detail"], str)


async def test_a_body_that_is_not_utf8_gets_400_saying_how_to_send_it(client: httpx.AsyncClient) -> None:
    body = b'{"problem": "caf\xe9 owners want a longer opening"}'
    response = await client.post("/api/v1/sessions", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json() == {
        "detail": "The body could not be read: send a JSON object encoded as UTF-8, with Content-Type: application/json."
    }
    assert (await client.get("/api/v1/sessions")).json()["total"] == 0


async def test_a_long_unknown_key_is_cut_short_in_the_error(client: httpx.AsyncClient, paused_session: str) -> None:
    key = "k" * 1000
    response = await client.post(f"/api/v1/sessions/{paused_session}/autopilot", json={key: 1})
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["body", "k" * 32 + "…"]
    assert len(response.text) < 500


@dataclass(frozen=True)
class Bare:
    http: httpx.AsyncClient
    cors: bool


@pytest.fixture(params=[False, True], ids=["without-cors", "with-cors"])
async def bare(request: pytest.FixtureRequest) -> AsyncIterator[Bare]:
    """The app without a database behind it (nothing here reaches one), with and without CORS."""
    origins = (ALLOWED_ORIGIN,) if request.param else ()
    settings = Settings(database_url="sqlite+aiosqlite:///:memory:", model="offline", cors_origins=origins)
    async with api_client(settings) as http:
        yield Bare(http, request.param)


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PATCH", f"/api/v1/sessions/{UNKNOWN}", "GET, DELETE"),
        ("GET", f"/api/v1/sessions/{UNKNOWN}/cancel", "POST"),
        ("PUT", "/api/v1/sessions", "GET, POST"),
        ("DELETE", "/api/v1/health/", "GET"),
        ("POST", "/openapi.json", "GET, HEAD"),
    ],
)
async def test_a_method_the_path_lacks_is_405_naming_every_method_it_has(
    bare: Bare, method: str, path: str, allow: str
) -> None:
    response = await bare.http.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allow
    assert response.json()["detail"] == f"Method {method} is not allowed on this path; use {allow}."


@pytest.mark.parametrize("method", ["GET", "POST", "OPTIONS"])
async def test_a_path_under_the_api_that_no_route_has_is_404(bare: Bare, method: str) -> None:
    response = await bare.http.request(method, "/api/v1/nothing-here")
    assert response.status_code == 404
    assert "No route for '/api/v1/nothing-here'" in response.json()["detail"]


def _documented_paths() -> dict[str, set[str]]:
    return {
        path.replace("{session_id}", UNKNOWN): {method.upper() for method in ops}
        for path, ops in openapi_document()["paths"].items()
    }


@pytest.mark.parametrize(("path", "methods"), sorted(_documented_paths().items()))
async def test_options_is_405_listing_exactly_the_documented_methods(bare: Bare, path: str, methods: set[str]) -> None:
    response = await bare.http.options(path, headers={"origin": ALLOWED_ORIGIN})
    assert response.status_code == 405, response.text
    assert set(response.headers["allow"].split(", ")) - {"HEAD"} == methods
    assert response.json()["detail"].startswith("Method OPTIONS is not allowed")


@pytest.mark.parametrize(("path", "methods"), sorted(_documented_paths().items()))
async def test_a_cors_preflight_is_answered_by_cors_alone(bare: Bare, path: str, methods: set[str]) -> None:
    for origin in (ALLOWED_ORIGIN, "http://elsewhere.example"):
        preflight = {"origin": origin, "access-control-request-method": sorted(methods)[0]}
        response = await bare.http.options(path, headers=preflight)
        if not bare.cors:
            assert response.status_code == 405  # no CORS: an OPTIONS like any other
        elif origin == ALLOWED_ORIGIN:
            assert response.status_code == 200 and response.headers["access-control-allow-origin"] == origin
        else:
            assert response.status_code == 400 and "Disallowed CORS origin" in response.text

"""Isolation on every endpoint, found by walking the OpenAPI document (FORGE_AUTH=on, SQLite and PostgreSQL).

- Anonymous: every operation but the public ones (health probes, login) is a 401 with
  `WWW-Authenticate: Bearer ...`, and so are /docs, /redoc and /openapi.json.
- Another user: every operation whose path has `{session_id}` answers 404 for a session of someone
  else, exactly as for a session that does not exist, and changes nothing.
Endpoints added later are walked too: nothing here lists them by hand except the public ones.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any
from uuid import uuid4

import pytest
from support.accounts import AuthApp, Member, auth_app

PUBLIC = {("get", "/api/v1/health/"), ("get", "/api/v1/health/ready"), ("post", "/api/v1/auth/login")}
DOCS = ("/docs", "/redoc", "/openapi.json", "/docs/swagger-init.js")
WITH_BODY = ("post", "put", "patch")
PARAM = re.compile(r"\{([^}]+)\}")


@pytest.fixture
async def forge(database_url: str) -> AsyncIterator[AuthApp]:
    async with auth_app(database_url) as app:
        yield app


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, ops in document["paths"].items() for method, op in ops.items()]


def _url(path: str, session_id: str) -> str:
    """The path with the session id in `{session_id}`, a fresh UUID in other ids, 1 in anything else."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        return session_id if name == "session_id" else str(uuid4()) if name.endswith("_id") else "1"

    return PARAM.sub(value, path)


def _streams(operation: dict[str, Any]) -> bool:
    return "text/event-stream" in operation["responses"].get("200", {}).get("content", {})


async def _session_of(forge: AuthApp, owner: Member) -> str:
    async with forge.client(headers=owner.headers) as http:
        created = await http.post("/api/v1/sessions", json={"problem": "How can a town store summer heat for winter?"})
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


async def _document(forge: AuthApp, member: Member) -> dict[str, Any]:
    async with forge.client(headers=member.headers) as http:
        response = await http.get("/openapi.json")
    assert response.status_code == 200, response.text
    document: dict[str, Any] = response.json()
    return document


async def test_anonymous_calls_get_401_with_a_challenge_on_every_non_public_operation(forge: AuthApp) -> None:
    alice = await forge.member("alice@example.org")
    session_id = await _session_of(forge, alice)
    operations = _operations(await _document(forge, alice))
    refused = []
    async with forge.client() as anonymous:
        for method, path, _ in operations:
            if (method, path) in PUBLIC:
                continue
            body = {"json": {}} if method in WITH_BODY else {}
            response = await anonymous.request(method.upper(), _url(path, session_id), **body)
            assert response.status_code == 401, (method, path, response.status_code, response.text)
            assert response.headers["www-authenticate"].startswith("Bearer"), (method, path)
            refused.append((method, path))
        for page in DOCS:
            assert (await anonymous.get(page)).status_code == 401, page
    assert len(refused) >= 25  # the walk saw the whole API, not an empty document


async def test_another_users_session_is_404_on_every_session_operation_and_stays_intact(forge: AuthApp) -> None:
    alice, bob = await forge.member("alice@example.org"), await forge.member("bob@example.org")
    session_id = await _session_of(forge, alice)
    scoped = [(m, p, op) for m, p, op in _operations(await _document(forge, alice)) if "{session_id}" in p]
    async with forge.client(headers=bob.headers) as http:
        for method, path, _ in scoped:
            body = {"json": {}} if method in WITH_BODY else {}
            response = await http.request(method.upper(), _url(path, session_id), **body)
            assert response.status_code == 404, (method, path, response.status_code, response.text)
            unknown = str(uuid4())
            nobodys = await http.request(method.upper(), _url(path, unknown), **body)
            assert (nobodys.status_code, nobodys.json()["detail"].replace(unknown, session_id)) == (
                404,
                response.json()["detail"],
            ), path  # indistinguishable from a session that does not exist
        assert (await http.get("/api/v1/sessions")).json()["total"] == 0
    async with forge.client(headers=alice.headers) as http:
        for method, path, operation in scoped:
            if method == "get" and not _streams(operation):  # the owner reaches every one of them
                response = await http.get(_url(path, session_id))
                assert response.status_code != 404, (path, response.text)
        mine = await http.get(f"/api/v1/sessions/{session_id}")
        assert mine.status_code == 200 and mine.json()["status"] != "cancelled"  # bob's DELETE/cancel did nothing
        assert (await http.get("/api/v1/sessions")).json()["total"] == 1
    assert len(scoped) >= 12

"""Personal API tokens (FORGE_AUTH=on): created and shown once, stored as a digest, used as a bearer
token with its last use recorded, revoked by their owner (or an admin); on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import select
from support.accounts import AuthApp, auth_app

from forge.core.accounts.users import Role
from forge.db.tables import ApiTokenRow


@pytest.fixture
async def forge(database_url: str) -> AsyncIterator[AuthApp]:
    async with auth_app(database_url) as app:
        yield app


async def test_a_token_is_shown_once_stored_as_a_digest_and_records_its_last_use(forge: AuthApp) -> None:
    ada = await forge.member("ada@example.org")
    async with forge.client(headers=ada.headers) as http:
        created = await http.post("/api/v1/auth/tokens", json={"name": "nightly import"})
        assert created.status_code == 201, created.text
        secret, token_id = created.json()["token"], created.json()["id"]
        assert secret.startswith("kf_") and created.json()["prefix"] == secret[:9]
        listed = (await http.get("/api/v1/auth/tokens")).text
        assert secret not in listed and token_id in listed
    async with forge.container.engine.connect() as connection:
        stored = (await connection.execute(select(ApiTokenRow.digest, ApiTokenRow.prefix))).all()
    assert all(secret not in (digest, prefix) for digest, prefix in stored)
    async with forge.client(headers={"Authorization": f"Bearer {secret}"}) as http:
        before = {t["id"]: t for t in (await http.get("/api/v1/auth/tokens")).json()}
        assert before[token_id]["last_used_at"] is not None  # this very request used it
        assert (await http.get("/api/v1/sessions")).status_code == 200


async def test_a_revoked_token_gets_401_and_revoking_twice_is_harmless(forge: AuthApp) -> None:
    ada = await forge.member("ada@example.org")
    async with forge.client(headers=ada.headers) as http:
        created = (await http.post("/api/v1/auth/tokens", json={"name": "ci"})).json()
        assert (await http.delete(f"/api/v1/auth/tokens/{created['id']}")).status_code == 204
        assert (await http.delete(f"/api/v1/auth/tokens/{created['id']}")).status_code == 204
        listed = {t["id"]: t for t in (await http.get("/api/v1/auth/tokens")).json()}
        assert listed[created["id"]]["revoked_at"] is not None
    async with forge.client(headers={"Authorization": f"Bearer {created['token']}"}) as http:
        refused = await http.get("/api/v1/sessions")
    assert refused.status_code == 401 and 'error="invalid_token"' in refused.headers["www-authenticate"]


async def test_only_the_owner_or_an_admin_revokes_a_token(forge: AuthApp) -> None:
    ada, bob = await forge.member("ada@example.org"), await forge.member("bob@example.org")
    admin = await forge.member("root@example.org", Role.ADMIN)
    async with forge.client(headers=ada.headers) as http:
        tokens = (await http.get("/api/v1/auth/tokens")).json()
    async with forge.client(headers=bob.headers) as http:
        assert (await http.delete(f"/api/v1/auth/tokens/{tokens[0]['id']}")).status_code == 404
        assert (await http.get("/api/v1/auth/tokens")).json()[0]["id"] != tokens[0]["id"]  # bob sees only his
    async with forge.client(headers=ada.headers) as http:
        assert (await http.get("/api/v1/sessions")).status_code == 200  # still works
    async with forge.client(headers=admin.headers) as http:
        assert (await http.delete(f"/api/v1/auth/tokens/{tokens[0]['id']}")).status_code == 204
    async with forge.client(headers=ada.headers) as http:
        assert (await http.get("/api/v1/sessions")).status_code == 401


@pytest.mark.parametrize(
    "authorization", ["Bearer kf_not-a-real-token", "Bearer ", "Basic YWRhOnNlY3JldA==", "Bearer kf_" + "A" * 43]
)
async def test_a_malformed_or_unknown_credential_is_401_even_with_a_valid_cookie(
    forge: AuthApp, authorization: str
) -> None:
    await forge.member("ada@example.org")
    async with forge.client() as http:
        login = await http.post(
            "/api/v1/auth/login", json={"email": "ada@example.org", "password": "a long enough password"}
        )
        assert login.status_code == 200
        response = await http.get("/api/v1/sessions", headers={"Authorization": authorization})
    assert response.status_code == 401 and response.headers["www-authenticate"].startswith("Bearer")

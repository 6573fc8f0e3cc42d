"""Browser login (FORGE_AUTH=on): the cookie's attributes, the CSRF token on state-changing requests,
logout, a disabled user, a cross-site login; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from support.accounts import PASSWORD, AuthApp, auth_app

from forge.core.accounts.users import Role

PROBLEM = {"problem": "How can a small museum double its visitors without more space?"}


@pytest.fixture
async def forge(database_url: str) -> AsyncIterator[AuthApp]:
    async with auth_app(database_url) as app:
        yield app


async def _login(http: httpx.AsyncClient, email: str, password: str = PASSWORD) -> httpx.Response:
    return await http.post("/api/v1/auth/login", json={"email": email, "password": password})


async def test_login_sets_an_httponly_lax_cookie_and_returns_the_csrf_token(forge: AuthApp) -> None:
    await forge.member("ada@example.org")
    async with forge.client() as http:
        response = await _login(http, "  ADA@example.org ")  # emails compare trimmed and lower-cased
        assert response.status_code == 200, response.text
        cookie = response.headers["set-cookie"]
        assert cookie.startswith("forge_session=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
        assert "Secure" not in cookie  # plain http here
        body = response.json()
        assert body["auth_enabled"] is True and body["user"]["email"] == "ada@example.org"
        me = await http.get("/api/v1/auth/me")
        assert me.status_code == 200 and me.json()["csrf_token"] == body["csrf_token"]


async def test_the_cookie_is_secure_behind_an_https_public_url(database_url: str) -> None:
    async with auth_app(database_url, public_url="https://forge.example.org", allowed_hosts=("localhost",)) as forge:
        await forge.member("ada@example.org")
        async with forge.client() as http:
            response = await _login(http, "ada@example.org")
        assert response.status_code == 200 and "Secure" in response.headers["set-cookie"]
        assert "max-age=31536000" in response.headers["strict-transport-security"]


async def test_a_wrong_password_and_an_unknown_email_get_the_same_401(forge: AuthApp) -> None:
    await forge.member("ada@example.org")
    async with forge.client() as http:
        wrong = await _login(http, "ada@example.org", "not the password")
        unknown = await _login(http, "nobody@example.org")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "Wrong email or password."}
    assert "set-cookie" not in wrong.headers


async def test_state_changing_requests_with_the_cookie_need_the_csrf_header(forge: AuthApp) -> None:
    await forge.member("ada@example.org")
    async with forge.client() as http:
        csrf = (await _login(http, "ada@example.org")).json()["csrf_token"]
        assert (await http.get("/api/v1/sessions")).status_code == 200  # reads need no token
        missing = await http.post("/api/v1/sessions", json=PROBLEM)
        assert missing.status_code == 403 and "X-CSRF-Token" in missing.json()["detail"]
        wrong = await http.post("/api/v1/sessions", json=PROBLEM, headers={"X-CSRF-Token": "0" * 64})
        assert wrong.status_code == 403
        assert (await http.get("/api/v1/sessions")).json()["total"] == 0  # nothing was created
        created = await http.post("/api/v1/sessions", json=PROBLEM, headers={"X-CSRF-Token": csrf})
        assert created.status_code == 201, created.text


async def test_logout_ends_the_login(forge: AuthApp) -> None:
    await forge.member("ada@example.org")
    async with forge.client() as http:
        csrf = (await _login(http, "ada@example.org")).json()["csrf_token"]
        stolen = http.cookies["forge_session"]
        out = await http.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf})
        assert out.status_code == 204 and 'forge_session=""' in out.headers["set-cookie"]
        assert (await http.get("/api/v1/auth/me")).status_code == 401
    async with forge.client(cookies={"forge_session": stolen}) as replay:
        assert (await replay.get("/api/v1/auth/me")).status_code == 401  # the server forgot it, too


async def test_a_disabled_user_can_neither_log_in_nor_use_a_login_or_token(forge: AuthApp) -> None:
    admin = await forge.member("root@example.org", Role.ADMIN)
    ada = await forge.member("ada@example.org")
    async with forge.client() as browser:
        assert (await _login(browser, "ada@example.org")).status_code == 200
        async with forge.client(headers=admin.headers) as http:
            changed = await http.patch(f"/api/v1/admin/users/{ada.user.id}", json={"disabled": True})
            assert changed.status_code == 200 and changed.json()["disabled"] is True
        assert (await browser.get("/api/v1/auth/me")).status_code == 401
        assert (await _login(browser, "ada@example.org")).status_code == 401
    async with forge.client(headers=ada.headers) as http:
        assert (await http.get("/api/v1/sessions")).status_code == 401


async def test_a_cross_site_login_is_refused(forge: AuthApp) -> None:
    await forge.member("ada@example.org")
    async with forge.client(headers={"Origin": "https://evil.example"}) as http:
        response = await _login(http, "ada@example.org")
    assert response.status_code == 403 and "set-cookie" not in response.headers
    async with forge.client(headers={"Origin": "http://localhost"}) as http:
        assert (await _login(http, "ada@example.org")).status_code == 200


async def test_members_get_403_on_admin_routes_and_admins_manage_users(forge: AuthApp) -> None:
    admin = await forge.member("root@example.org", Role.ADMIN)
    member = await forge.member("ada@example.org")
    async with forge.client(headers=member.headers) as http:
        assert (await http.get("/api/v1/admin/users")).status_code == 403
        assert (await http.post("/api/v1/admin/users", json={"email": "x@example.org"})).status_code == 403
    async with forge.client(headers=admin.headers) as http:
        added = await http.post("/api/v1/admin/users", json={"email": "new@example.org"})
        assert added.status_code == 201 and len(added.json()["generated_password"]) >= 20
        again = await http.post("/api/v1/admin/users", json={"email": "NEW@example.org"})
        assert again.status_code == 409
        emails = [u["email"] for u in (await http.get("/api/v1/admin/users")).json()]
        assert {"root@example.org", "ada@example.org", "new@example.org"} <= set(emails)
        yourself = await http.patch(f"/api/v1/admin/users/{admin.user.id}", json={"disabled": True})
        assert yourself.status_code == 409
    async with forge.client() as http:
        login = await _login(http, "new@example.org", added.json()["generated_password"])
        assert login.status_code == 200 and login.json()["user"]["role"] == "member"


async def test_with_auth_off_me_is_the_local_user_and_login_is_not_needed(client: httpx.AsyncClient) -> None:
    me = await client.get("/api/v1/auth/me")
    assert me.status_code == 200
    assert me.json()["auth_enabled"] is False and me.json()["user"]["email"] == "local@localhost"
    assert (await _login(client, "local@localhost")).status_code == 409

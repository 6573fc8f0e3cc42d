"""Brute force on POST /auth/login: wrong passwords per (account, client address) are throttled with 429
and Retry-After; other accounts and other addresses are not; a success clears the count."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from support.accounts import PASSWORD, AuthApp, auth_app

from forge.core.accounts.login_throttle import LoginThrottlePolicy

POLICY = LoginThrottlePolicy(max_failures=3, window_seconds=600)


@pytest.fixture
async def forge(database_url: str) -> AsyncIterator[AuthApp]:
    async with auth_app(database_url, login_throttle=POLICY) as app:
        await app.member("ada@example.org")
        await app.member("bob@example.org")
        yield app


def _from(forge: AuthApp, address: str) -> httpx.AsyncClient:
    return forge.client(client_address=(address, 40000))


async def _login(http: httpx.AsyncClient, email: str, password: str = PASSWORD) -> httpx.Response:
    return await http.post("/api/v1/auth/login", json={"email": email, "password": password})


async def test_after_the_allowed_failures_even_the_right_password_gets_429_with_retry_after(forge: AuthApp) -> None:
    async with _from(forge, "203.0.113.7") as http:
        for _ in range(POLICY.max_failures):
            assert (await _login(http, "ada@example.org", "guess")).status_code == 401
        refused = await _login(http, "ADA@example.org")  # the same account, however it is spelled
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 600
    assert refused.json()["detail"].startswith("Too many failed logins for this account from your address (3 in")
    assert "set-cookie" not in refused.headers


async def test_another_account_or_another_address_is_not_throttled(forge: AuthApp) -> None:
    async with _from(forge, "203.0.113.7") as attacker, _from(forge, "198.51.100.2") as colleague:
        for _ in range(POLICY.max_failures):
            await _login(attacker, "ada@example.org", "guess")
        assert (await _login(attacker, "ada@example.org")).status_code == 429
        assert (await _login(attacker, "bob@example.org")).status_code == 200
        assert (await _login(colleague, "ada@example.org")).status_code == 200


async def test_a_successful_login_clears_the_failures(forge: AuthApp) -> None:
    async with _from(forge, "203.0.113.7") as http:
        for _ in range(POLICY.max_failures - 1):
            await _login(http, "ada@example.org", "typo")
        assert (await _login(http, "ada@example.org")).status_code == 200
        for _ in range(POLICY.max_failures - 1):
            assert (await _login(http, "ada@example.org", "typo")).status_code == 401
        assert (await _login(http, "ada@example.org")).status_code == 200

"""Credential formats and checks: tokens, cookies, CSRF, digests, bearer parsing, last-use throttling."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

import pytest

from forge.core.accounts.credentials import (
    api_token_from_secret,
    bearer_credential,
    csrf_matches,
    csrf_token_for,
    is_api_token,
    is_session_secret,
    needs_csrf,
    secret_digest,
    should_touch,
    token_display_prefix,
)

NOW = datetime(2026, 11, 23, 12, tzinfo=UTC)


def test_a_token_made_from_a_fresh_secret_has_the_token_format() -> None:
    token = api_token_from_secret(secrets.token_urlsafe(32))
    assert is_api_token(token) and token.startswith("kf_")
    assert not is_api_token(token[:-1]) and not is_api_token(token + "x") and not is_api_token("kf_" + "!" * 43)
    assert token_display_prefix(token) == token[:9] and len(token) == 46


def test_cookie_secrets_are_43_url_safe_characters() -> None:
    assert is_session_secret(secrets.token_urlsafe(32))
    assert not is_session_secret("short") and not is_session_secret("a" * 42 + "/")


@pytest.mark.parametrize(
    ("header", "credential"),
    [(None, None), ("Bearer kf_abc", "kf_abc"), ("bearer   kf_abc  ", "kf_abc"), ("Basic eDp5", ""), ("Bearer", "")],
)
def test_bearer_credential_reads_only_the_bearer_scheme(header: str | None, credential: str | None) -> None:
    assert bearer_credential(header) == credential


def test_the_digest_is_sha256_hex_and_differs_per_secret() -> None:
    assert secret_digest("a") == "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"
    assert secret_digest("a") != secret_digest("b")


def test_the_csrf_token_belongs_to_its_cookie_secret() -> None:
    secret, other = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    token = csrf_token_for(secret)
    assert csrf_matches(secret, token) and csrf_matches(secret, f" {token} ")
    assert not csrf_matches(other, token) and not csrf_matches(secret, None) and not csrf_matches(secret, "")
    assert token != secret_digest(secret)  # knowing a cookie's stored digest does not give its CSRF token


@pytest.mark.parametrize(
    ("method", "needed"),
    [("GET", False), ("head", False), ("OPTIONS", False), ("POST", True), ("delete", True), ("PATCH", True)],
)
def test_only_state_changing_methods_need_the_csrf_token(method: str, needed: bool) -> None:
    assert needs_csrf(method) is needed


def test_last_use_is_written_at_most_once_a_minute() -> None:
    assert should_touch(None, NOW)
    assert not should_touch(NOW - timedelta(seconds=59), NOW)
    assert should_touch(NOW - timedelta(seconds=60), NOW)

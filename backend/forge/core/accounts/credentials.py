"""Credential formats and checks (pure): API tokens, login-session cookies and CSRF tokens.

Invariants:
    - Secrets are made in the shell (from `secrets`) and handed in; this module only formats,
      parses, digests and compares them.
    - Only digests are stored: `secret_digest` (SHA-256). Tokens and cookies carry 256 random bits,
      so a fast digest is enough (a slow password hash is for low-entropy passwords); a leaked
      table yields no usable credential.
    - An API token is `kf_` + 43 url-safe base64 characters; anything else is refused before the
      database is asked.
    - The CSRF token of a login session is derived from its cookie secret (`csrf_token_for`): the
      server recomputes it from the cookie and compares in constant time; a page on another site can
      neither read the HttpOnly cookie nor the token.
    - `last_used_at` is written at most once per TOUCH_INTERVAL per token (`should_touch`), so a busy
      integration does not turn every read into a write.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import datetime, timedelta

TOKEN_PREFIX = "kf_"
SECRET_CHARS = 43  # token_urlsafe(32)
TOKEN_DISPLAY_CHARS = len(TOKEN_PREFIX) + 6
TOUCH_INTERVAL = timedelta(minutes=1)
LOGIN_SESSION_LIFETIME = timedelta(days=14)
SESSION_COOKIE = "forge_session"
CSRF_HEADER = "X-CSRF-Token"
_TOKEN = re.compile(rf"^{TOKEN_PREFIX}[A-Za-z0-9_-]{{{SECRET_CHARS}}}$")
_COOKIE = re.compile(rf"^[A-Za-z0-9_-]{{{SECRET_CHARS}}}$")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def api_token_from_secret(secret: str) -> str:
    return TOKEN_PREFIX + secret


def is_api_token(text: str) -> bool:
    return bool(_TOKEN.match(text))


def is_session_secret(text: str) -> bool:
    return bool(_COOKIE.match(text))


def token_display_prefix(token: str) -> str:
    """What lists show of a token: enough to recognise it, far too little to use it."""
    return token[:TOKEN_DISPLAY_CHARS]


def bearer_credential(authorization: str | None) -> str | None:
    """The credential of an `Authorization: Bearer <token>` header ('' when the scheme is wrong)."""
    if authorization is None:
        return None
    scheme, _, credential = authorization.strip().partition(" ")
    return credential.strip() if scheme.lower() == "bearer" else ""


def secret_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def csrf_token_for(session_secret: str) -> str:
    return hashlib.sha256(b"forge-csrf:" + session_secret.encode("utf-8")).hexdigest()


def csrf_matches(session_secret: str, presented: str | None) -> bool:
    return presented is not None and hmac.compare_digest(csrf_token_for(session_secret), presented.strip())


def needs_csrf(method: str) -> bool:
    """State-changing requests authenticated by the cookie must carry the CSRF header."""
    return method.upper() not in SAFE_METHODS


def should_touch(last_used_at: datetime | None, now: datetime) -> bool:
    return last_used_at is None or now - last_used_at >= TOUCH_INTERVAL


def login_session_expiry(created_at: datetime) -> datetime:
    return created_at + LOGIN_SESSION_LIFETIME

"""Which Host headers the server answers to (`FORGE_ALLOWED_HOSTS`), and the middleware that refuses others.

Invariants:
    - A request whose Host is not allowed gets 400 with a JSON `detail` naming FORGE_ALLOWED_HOSTS,
      before any route runs: a DNS-rebinding page (its own name resolving to 127.0.0.1) cannot read
      or change sessions. A request without a Host header is refused the same way.
    - Default (FORGE_ALLOWED_HOSTS unset): the loopback names, plus the host of FORGE_PUBLIC_URL and
      the bind address when it is a specific one. Bound to a wildcard address (0.0.0.0, ::) with
      neither variable set, any host is accepted and the server logs a warning saying what to set.
    - Hosts compare case-insensitively, without the port, brackets or a trailing dot; `*.example.com`
      matches any subdomain of example.com (not example.com itself); `*` matches any host.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from forge.api.request_limits import quote_input

log = logging.getLogger(__name__)

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
WILDCARD_ADDRESSES = ("0.0.0.0", "::", "")
ANY_HOST = "*"


def normalise_host(raw: str) -> str:
    """`Example.COM:8000` -> `example.com`; `[::1]:8000` -> `::1`."""
    host = raw.strip().lower()
    if host.startswith("["):
        host = host[1 : host.find("]")] if "]" in host else host[1:]
    elif host.count(":") == 1:
        host = host.partition(":")[0]
    return host.rstrip(".")


def is_loopback(host: str) -> bool:
    name = normalise_host(host)
    return name in LOOPBACK_HOSTS or name.startswith("127.")


def public_url_host(public_url: str | None) -> str | None:
    """The host of FORGE_PUBLIC_URL, or None when unset; a ValueError saying what to fix when malformed."""
    if not public_url:
        return None
    parts = urlsplit(public_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"FORGE_PUBLIC_URL must be an http(s) URL like https://forge.example.com; got {public_url!r}")
    return parts.hostname.lower()


def allowed_hosts_for(configured: Sequence[str], bind_host: str, public_url: str | None) -> tuple[str, ...]:
    """The hosts to answer to: FORGE_ALLOWED_HOSTS when set, else the default of the module docstring."""
    if configured:
        return tuple(normalise_host(h) if h != ANY_HOST else ANY_HOST for h in configured)
    public = public_url_host(public_url)
    bind = normalise_host(bind_host)
    if bind in WILDCARD_ADDRESSES and public is None:
        return (ANY_HOST,)
    extra = [h for h in (public, None if bind in WILDCARD_ADDRESSES else bind) if h and h not in LOOPBACK_HOSTS]
    return (*LOOPBACK_HOSTS, *dict.fromkeys(extra))


def host_is_allowed(host: str, allowed: Sequence[str]) -> bool:
    name = normalise_host(host)
    if not name:
        return False
    for pattern in allowed:
        if pattern in (ANY_HOST, name):
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


class TrustedHosts:
    """Pure ASGI middleware: 400 for an HTTP request whose Host header is not allowed."""

    def __init__(self, app: ASGIApp, allowed: Sequence[str]) -> None:
        self.app = app
        self.allowed = tuple(allowed)
        if ANY_HOST in self.allowed:
            log.warning(
                "accepting requests for any Host header: set FORGE_ALLOWED_HOSTS (comma-separated names) "
                "or FORGE_PUBLIC_URL so a DNS-rebinding page cannot reach this server"
            )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or ANY_HOST in self.allowed:
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), "")
        if host_is_allowed(host, self.allowed):
            await self.app(scope, receive, send)
            return
        detail = (
            f"This server does not answer to the host {quote_input(host)}; "
            "if it should, add that name to FORGE_ALLOWED_HOSTS (comma-separated) and restart."
        )
        body = json.dumps({"detail": detail}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})

"""Security headers on every response: CSP, nosniff, no framing, no referrer, HSTS behind TLS.

Invariants:
    - Every HTTP response (the SPA, its assets, the API, SSE, errors) carries
      `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and a
      Content-Security-Policy with `frame-ancestors 'none'`; a header a route set itself is kept.
    - The app's CSP allows no inline script at all (the built index.html has none: Vite emits one
      module script by URL); styles are files too, except the start page's one `<style>`, allowed by
      its hash. Images may be `data:` (the favicon in index.html is a data URL).
    - The API docs (/docs, /redoc) load Swagger UI and ReDoc from the jsDelivr CDN (as FastAPI does by
      default), so only they get a CSP that allows that CDN; their own script is a same-origin file.
    - `Strict-Transport-Security` is sent only when FORGE_PUBLIC_URL is https (behind TLS); on plain
      http a browser would ignore it, and on a loopback address it would pin localhost to https.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from forge.api.start_page import START_PAGE_STYLE

DOCS_PREFIXES = ("/docs", "/redoc")
CDN = "https://cdn.jsdelivr.net"
HSTS = "max-age=31536000; includeSubDomains"


def csp_hash(text: str) -> str:
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


def _policy(directives: Iterable[tuple[str, str]]) -> str:
    return "; ".join(f"{name} {value}" for name, value in directives)


def app_policy() -> str:
    return _policy(
        [
            ("default-src", "'self'"),
            ("script-src", "'self'"),
            ("style-src", f"'self' {csp_hash(START_PAGE_STYLE)}"),
            ("img-src", "'self' data:"),
            ("font-src", "'self'"),
            ("connect-src", "'self'"),
            ("object-src", "'none'"),
            ("base-uri", "'none'"),
            ("form-action", "'self'"),
            ("frame-ancestors", "'none'"),
        ]
    )


def docs_policy() -> str:
    """Swagger UI and ReDoc from the CDN; ReDoc injects its styles and runs a worker from a blob."""
    return _policy(
        [
            ("default-src", "'none'"),
            ("script-src", f"'self' {CDN}"),
            ("style-src", f"'self' 'unsafe-inline' {CDN} https://fonts.googleapis.com"),
            ("font-src", "https://fonts.gstatic.com"),
            ("img-src", "'self' data: https://cdn.redoc.ly"),
            ("connect-src", "'self'"),
            ("worker-src", "blob:"),
            ("base-uri", "'none'"),
            ("form-action", "'none'"),
            ("frame-ancestors", "'none'"),
        ]
    )


def is_docs_path(path: str) -> bool:
    return path == "/docs" or path == "/redoc" or path.startswith("/docs/")


class SecurityHeaders:
    """Pure ASGI middleware adding the module's headers to each `http.response.start`."""

    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        self.app = app
        common = [
            (b"x-content-type-options", b"nosniff"),
            (b"x-frame-options", b"DENY"),
            (b"referrer-policy", b"no-referrer"),
        ]
        if hsts:
            common.append((b"strict-transport-security", HSTS.encode()))
        self._app_headers = [*common, (b"content-security-policy", app_policy().encode())]
        self._docs_headers = [*common, (b"content-security-policy", docs_policy().encode())]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self._docs_headers if is_docs_path(scope["path"]) else self._app_headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                added = [(name, value) for name, value in extra if name not in present]
                message = {**message, "headers": [*message.get("headers", ()), *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

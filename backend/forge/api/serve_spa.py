"""Serves the built browser app (Vite's output) from the same origin as the API.

Invariants:
    - Files under the build directory are served as they are; hashed assets are cached for a
      year, `index.html` never (so a new build is picked up on reload).
    - Any other GET outside `/api`, `/docs`, `/redoc` and `/openapi.json` answers with
      `index.html`, so client-side routes (`/sessions/<id>`) survive a reload.
    - A GET under those prefixes that no other route answers is a 404, or a 405 naming the allowed
      methods when the path exists for other methods (`/api/v1/sessions/{id}/cancel` is POST only).
    - Without a build (a checkout where `npm run build` has not run), `/` explains how to get
      one, and the API keeps working.
    - Paths are resolved and must stay inside the build directory (no `..` escapes).
    - A hashed asset the build precompressed (`x.js.br`, `x.js.gz` beside `x.js`, written by the
      Vite build) is sent compressed when the request accepts that encoding (brotli first, then
      gzip; `q=0` refuses one), with `Content-Encoding`, the original's media type and
      `Vary: Accept-Encoding`; otherwise the plain file (the gzip middleware adds the `Vary`).
      The response's `Content-Encoding` keeps the middleware from compressing it again.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from forge.api.allowed_methods import allowed_methods
from forge.api.request_limits import quote_input
from forge.api.start_page import START_PAGE

SPA_DIR = Path(__file__).resolve().parent / "spa"
RESERVED_PREFIXES = ("api/", "docs", "redoc", "openapi.json")
CATCH_ALL_PATH = "/{path:path}"
IMMUTABLE = "public, max-age=31536000, immutable"
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))  # in order of preference


def accepted_encodings(accept_encoding: str) -> frozenset[str]:
    """The content codings an `Accept-Encoding` header accepts (q > 0); `*` stands for any."""
    accepted: set[str] = set()
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        quality = params.strip().removeprefix("q=").strip() if params.strip().startswith("q=") else "1"
        try:
            acceptable = float(quality) > 0
        except ValueError:
            acceptable = False
        if name.strip() and acceptable:
            accepted.add(name.strip().lower())
    return frozenset(accepted)


def _precompressed(asset: Path, accept_encoding: str) -> tuple[str, Path] | None:
    accepted = accepted_encodings(accept_encoding)
    for encoding, suffix in PRECOMPRESSED:
        sibling = asset.with_name(asset.name + suffix)
        if (encoding in accepted or "*" in accepted) and sibling.is_file():
            return encoding, sibling
    return None


def _asset_response(asset: Path, request: Request, cache: str) -> FileResponse:
    if not any(asset.with_name(asset.name + suffix).is_file() for _, suffix in PRECOMPRESSED):
        return FileResponse(asset, headers={"Cache-Control": cache})
    chosen = _precompressed(asset, request.headers.get("accept-encoding", ""))
    if chosen is None:  # the gzip middleware adds `Vary: Accept-Encoding` to what it passes on
        return FileResponse(asset, headers={"Cache-Control": cache})
    encoding, compressed = chosen
    media_type = mimetypes.guess_type(asset.name)[0] or "application/octet-stream"
    headers = {"Cache-Control": cache, "Vary": "Accept-Encoding", "Content-Encoding": encoding}
    return FileResponse(compressed, media_type=media_type, headers=headers)


def is_reserved(url_path: str) -> bool:
    """Whether the path (with its leading slash) belongs to the API or its docs, not the browser app."""
    return url_path.removeprefix("/").startswith(RESERVED_PREFIXES)


def _not_here(request: Request, path: str) -> HTTPException:
    methods = allowed_methods(request.app.routes, request.scope, frozenset({CATCH_ALL_PATH}))
    if methods:
        return HTTPException(405, headers={"Allow": ", ".join(methods)})
    return HTTPException(404, f"No route for {quote_input('/' + path)}; the API lives under /api/v1 (see /docs).")


def _file_in(build: Path, relative: str) -> Path | None:
    candidate = (build / relative).resolve()
    if not candidate.is_relative_to(build) or not candidate.is_file():
        return None
    return candidate


def mount_spa(app: FastAPI, model_label: str, build_dir: Path = SPA_DIR) -> None:
    build = build_dir.resolve()
    index = build / "index.html"

    @app.get(CATCH_ALL_PATH, include_in_schema=False, response_model=None)
    async def spa(path: str, request: Request) -> Response:
        if is_reserved(path):
            raise _not_here(request, path)
        if not index.is_file():
            return HTMLResponse(START_PAGE.replace("{model}", model_label))
        asset = _file_in(build, path) if path else None
        if asset is not None and asset != index:
            cache = IMMUTABLE if path.startswith("assets/") else "no-cache"
            return _asset_response(asset, request, cache)
        if path.startswith("assets/"):
            raise HTTPException(404, f"No such asset: /{path}. Rebuild the app with `make build`.")
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

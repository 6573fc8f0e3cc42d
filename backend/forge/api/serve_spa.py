"""Serves the built browser app (Vite's output) from the same origin as the API.

Invariants:
    - Files under the build directory are served as they are; hashed assets are cached for a
      year, `index.html` never (so a new build is picked up on reload).
    - Any other GET outside `/api`, `/docs`, `/redoc` and `/openapi.json` answers with
      `index.html`, so client-side routes (`/sessions/<id>`) survive a reload.
    - Without a build (a checkout where `npm run build` has not run), `/` explains how to get
      one, and the API keeps working.
    - Paths are resolved and must stay inside the build directory (no `..` escapes).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, Response

from forge.api.start_page import START_PAGE

SPA_DIR = Path(__file__).resolve().parent / "spa"
RESERVED_PREFIXES = ("api/", "docs", "redoc", "openapi.json")
IMMUTABLE = "public, max-age=31536000, immutable"


def _file_in(build: Path, relative: str) -> Path | None:
    candidate = (build / relative).resolve()
    if not candidate.is_relative_to(build) or not candidate.is_file():
        return None
    return candidate


def mount_spa(app: FastAPI, model_label: str, build_dir: Path = SPA_DIR) -> None:
    build = build_dir.resolve()
    index = build / "index.html"

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    async def spa(path: str) -> Response:
        if path.startswith(RESERVED_PREFIXES):
            raise HTTPException(404, f"No route for /{path}; the API lives under /api/v1 (see /docs).")
        if not index.is_file():
            return HTMLResponse(START_PAGE.replace("{model}", model_label))
        asset = _file_in(build, path) if path else None
        if asset is not None and asset != index:
            cache = IMMUTABLE if path.startswith("assets/") else "no-cache"
            return FileResponse(asset, headers={"Cache-Control": cache})
        if path.startswith("assets/"):
            raise HTTPException(404, f"No such asset: /{path}. Rebuild the app with `make build`.")
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

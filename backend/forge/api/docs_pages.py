"""The API reference pages: Swagger UI at /docs and ReDoc at /redoc, without inline script.

Invariants:
    - The pages are FastAPI's own (`get_swagger_ui_html`, `get_redoc_html`, assets from the jsDelivr
      CDN), except that Swagger UI's start-up script is served from /docs/swagger-init.js (same
      origin) instead of inline, so the docs' CSP needs no 'unsafe-inline' script (security_headers).
    - No favicon or validator badge is fetched from third parties.
    - With FORGE_AUTH=on the pages and /openapi.json need a user like the API (the caller passes
      the authentication dependencies); in a browser, the login cookie is enough.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import FastAPI, params
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse, JSONResponse, Response

SWAGGER_INIT_PATH = "/docs/swagger-init.js"
SWAGGER_CSS = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css"
SWAGGER_JS = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui-bundle.js"


def swagger_page(title: str) -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{SWAGGER_CSS}">
<title>{title} - Swagger UI</title></head>
<body><div id="swagger-ui"></div>
<script src="{SWAGGER_JS}"></script>
<script src="{SWAGGER_INIT_PATH}"></script>
</body></html>
"""


def swagger_init(openapi_url: str) -> str:
    return f"""window.ui = SwaggerUIBundle({{
  url: {openapi_url!r},
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
}});
"""


def mount_docs(app: FastAPI, openapi_url: str = "/openapi.json", dependencies: Sequence[params.Depends] = ()) -> None:
    """Serve /docs, its start-up script, /redoc and the OpenAPI document (the app is created with
    docs_url=redoc_url=openapi_url=None), each behind `dependencies` (authentication when it is on)."""
    page, script = swagger_page(app.title), swagger_init(openapi_url)
    redoc = get_redoc_html(openapi_url=openapi_url, title=f"{app.title} - ReDoc", redoc_favicon_url="data:,")
    guarded = list(dependencies)

    @app.api_route(openapi_url, methods=["GET", "HEAD"], include_in_schema=False, dependencies=guarded)
    async def openapi_document() -> JSONResponse:
        return JSONResponse(app.openapi())

    @app.get("/docs", include_in_schema=False, dependencies=guarded)
    async def swagger_ui() -> HTMLResponse:
        return HTMLResponse(page)

    @app.get(SWAGGER_INIT_PATH, include_in_schema=False, dependencies=guarded)
    async def swagger_ui_init() -> Response:
        return Response(script, media_type="text/javascript")

    @app.get("/redoc", include_in_schema=False, dependencies=guarded)
    async def redoc_ui() -> HTMLResponse:
        return redoc

"""The API's routers, registered here and nowhere else: `create_app` includes `PUBLIC_ROUTERS` as
they are and every router of `SIGNED_IN_ROUTERS` behind authentication and the session-owner guard.

Invariants:
    - Listed by hand (no auto-discovery); a route module nobody lists here serves nothing.
    - Only health and POST /auth/login are public; every other router is signed-in. A new router goes
      in `SIGNED_IN_ROUTERS`: the owner-only test walks the OpenAPI document, so it is checked there
      without being named.
"""

from __future__ import annotations

from fastapi import APIRouter

from forge.api.routes import (
    admin,
    answer,
    auth,
    health,
    hypotheses,
    knowledge,
    knowledge_graph,
    memory,
    metrics,
    selection,
    session_documents,
    session_stream,
    sessions,
    supervisor,
)

PUBLIC_ROUTERS: tuple[APIRouter, ...] = (health.router, auth.public_router)

SIGNED_IN_ROUTERS: tuple[APIRouter, ...] = (  # every request must authenticate; {session_id} paths are owner-only
    auth.router,
    admin.router,
    sessions.router,
    session_stream.router,
    session_documents.router,
    knowledge_graph.router,
    knowledge.router,
    hypotheses.router,
    metrics.router,
    memory.router,
    supervisor.router,
    answer.router,
    selection.router,
)

"""Which methods a path allows, asked of every route of the app: the `Allow` header of a 405.

Invariants:
    - A method is allowed when some route fully matches the request's path with that method (each
      route is asked through Starlette's own `matches`, so included routers and path converters
      count exactly as in routing). Starlette's own 405 names only the first route that matched the
      path, so `/sessions/{id}` would advertise GET but not DELETE.
    - Routes whose `path` is in `skip` do not count (the browser app's catch-all under `/api`, where
      the GET it would answer is a 404, not an allowed method).
    - The result is in a fixed order (GET, HEAD, POST, PUT, PATCH, DELETE).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.routing import BaseRoute, Match
from starlette.types import Scope

CANDIDATES = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(routes: Iterable[BaseRoute], scope: Scope, skip: frozenset[str] = frozenset()) -> tuple[str, ...]:
    counted = [route for route in routes if getattr(route, "path", None) not in skip]
    return tuple(
        method
        for method in CANDIDATES
        if any(route.matches({**scope, "method": method})[0] == Match.FULL for route in counted)
    )

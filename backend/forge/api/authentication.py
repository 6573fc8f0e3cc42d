"""Who a request acts for, and the dependencies that guard routes: `current_user`, `owned_session`,
`require_admin`, `within_limits`.

Invariants:
    - FORGE_AUTH off (loopback only, see core.auth_mode): every request acts as the built-in local
      user; no credential is read.
    - FORGE_AUTH on: a request authenticates with `Authorization: Bearer kf_...` (a personal API
      token) or the `forge_session` cookie of a browser login; anything else is a 401 with
      `WWW-Authenticate: Bearer`. A request that sends an Authorization header is judged by it alone
      (a bad token is never rescued by a cookie).
    - CSRF: a state-changing request (not GET/HEAD/OPTIONS) authenticated by the cookie must carry
      `X-CSRF-Token`, the token derived from that cookie's secret (core.credentials); else 403.
      Bearer requests need none: a browser never attaches the header by itself.
    - Ownership: `owned_session` resolves the path's session id only if the caller owns it; a session
      of someone else is the same 404 as one that does not exist. `guard_session_path` applies the
      same check to every route with a `{session_id}` in its path, as a router dependency in
      `app.py`, so a new route is guarded even before it asks for `OwnedSession`.
    - The user is resolved once per request (FastAPI caches dependencies; the ownership verdict is
      kept on `request.state`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated
from uuid import UUID

from fastapi import Depends, HTTPException, Request, params
from fastapi.security import APIKeyCookie, HTTPBearer

from forge.api.deps import AuthEnabledDep, ContainerDep
from forge.api.request_limits import quote_input
from forge.bootstrap.container import Container
from forge.core.accounts.credentials import CSRF_HEADER, SESSION_COOKIE, bearer_credential, csrf_matches, needs_csrf
from forge.core.accounts.user_limits import LimitedAction
from forge.core.accounts.users import User, can_manage_users, local_user
from forge.core.domain_types import SessionId
from forge.services.account_service import AccountService
from forge.services.service_results import not_found

REALM = 'Bearer realm="Knowledge Forge"'
LOCAL_USER = local_user(datetime(2026, 1, 1, tzinfo=UTC))
_bearer = HTTPBearer(
    auto_error=False, bearerFormat="kf_ token", description="A personal API token (`forge tokens create`)."
)
_cookie = APIKeyCookie(
    name=SESSION_COOKIE,
    auto_error=False,
    description="The browser login cookie (POST /api/v1/auth/login); state-changing requests also send "
    f"`{CSRF_HEADER}`.",
)


def accounts_of(container: ContainerDep) -> AccountService:
    return container.accounts


AccountsDep = Annotated[AccountService, Depends(accounts_of)]


def _unauthenticated(detail: str, *, invalid_token: bool = False) -> HTTPException:
    challenge = REALM + (', error="invalid_token"' if invalid_token else "")
    return HTTPException(401, detail, headers={"WWW-Authenticate": challenge})


async def _from_cookie(request: Request, accounts: AccountService, secret: str) -> User:
    user = await accounts.user_for_cookie(secret)
    if user is None:
        raise _unauthenticated("Your login has expired or was ended; log in again.")
    if needs_csrf(request.method) and not csrf_matches(secret, request.headers.get(CSRF_HEADER)):
        raise HTTPException(
            403,
            f"Missing or wrong {CSRF_HEADER} header: send the csrf_token from GET /api/v1/auth/me with every "
            "state-changing request of a browser login.",
        )
    return user


async def current_user(
    request: Request,
    enabled: AuthEnabledDep,
    accounts: AccountsDep,
    _token: Annotated[object, Depends(_bearer)] = None,
    _login: Annotated[object, Depends(_cookie)] = None,
) -> User:
    """The user the request acts for (401 when FORGE_AUTH=on and it proves no one)."""
    if not enabled:
        return LOCAL_USER
    cached: User | None = getattr(request.state, "user", None)
    if cached is not None:
        return cached
    credential = bearer_credential(request.headers.get("Authorization"))
    if credential is not None:
        user = await accounts.user_for_token(credential) if credential else None
        if user is None:
            raise _unauthenticated("The API token is unknown, revoked or malformed.", invalid_token=True)
    elif (secret := request.cookies.get(SESSION_COOKIE)) is not None:
        user = await _from_cookie(request, accounts, secret)
    else:
        raise _unauthenticated(
            "Authentication required: send Authorization: Bearer <token> (forge tokens create) or log in."
        )
    request.state.user = user
    return user


CurrentUser = Annotated[User, Depends(current_user)]


async def require_admin(user: CurrentUser) -> User:
    if not can_manage_users(user):
        raise HTTPException(403, "Only an admin can do this; ask an admin (forge users add EMAIL --admin).")
    return user


AdminUser = Annotated[User, Depends(require_admin)]


async def _owned(request: Request, container: Container, user: User, raw: str) -> SessionId:
    checked: dict[str, SessionId] | None = getattr(request.state, "owned_sessions", None)
    if checked is None:
        checked = {}
        request.state.owned_sessions = checked
    if raw in checked:
        return checked[raw]
    try:
        session_id = SessionId(UUID(raw))
    except ValueError:
        raise HTTPException(404, f"Session {quote_input(raw)} does not exist (not a valid session id).") from None
    async with container.uow_factory() as uow:
        owner = await uow.accounts.session_owner(session_id)
    if owner != user.id:
        raise HTTPException(404, not_found(session_id).message)  # word for word what a missing one gets
    checked[raw] = session_id
    return session_id


async def owned_session(session_id: str, request: Request, container: ContainerDep, user: CurrentUser) -> SessionId:
    """The path's session id, if the caller owns it; 404 otherwise (as for a session that does not exist)."""
    return await _owned(request, container, user, session_id)


OwnedSession = Annotated[SessionId, Depends(owned_session)]


async def guard_session_path(request: Request, container: ContainerDep, user: CurrentUser) -> None:
    """Router dependency: any route whose path has `{session_id}` is owner-only."""
    raw = request.path_params.get("session_id")
    if isinstance(raw, str):
        await _owned(request, container, user, raw)


def within_limits(action: LimitedAction) -> params.Depends:
    """A route dependency refusing with 429 (naming the limit) when the user is over a limit:
    `dependencies=[within_limits(LimitedAction.START_WORK)]` on any route that starts model work."""

    async def check(request: Request, container: ContainerDep, user: CurrentUser) -> None:
        raw = request.path_params.get("session_id")
        session_id = await _owned(request, container, user, raw) if isinstance(raw, str) else None
        refused = await container.usage.refusal(user.id, action, session_id)
        if refused is not None:
            raise HTTPException(429, refused.message, headers={"X-Forge-Limit": refused.limit})

    dependency: params.Depends = Depends(check)
    return dependency

"""Browser login, the caller's identity, and personal API tokens.

Invariants:
    - POST /login is the one public route here. It refuses a cross-site Origin (login CSRF), sets
      the `forge_session` cookie (HttpOnly, SameSite=Lax, Secure when served over TLS) and answers
      like GET /me, with the CSRF token the SPA sends back as X-CSRF-Token.
    - POST /login is throttled per (account, client address): after FORGE_LOGIN_MAX_FAILURES wrong
      passwords within FORGE_LOGIN_WINDOW_SECONDS it answers 429 with Retry-After, without checking
      the password, until the oldest failure leaves the window (`core.login_throttle`).
    - GET /me tells the SPA whether auth is on: with FORGE_AUTH off it answers the local user and
      `auth_enabled: false`; with it on, an anonymous caller gets 401 (and the SPA shows its login).
    - A token's secret is in the response of its creation only; lists show its prefix.
    - Another user's token id is a 404 (an admin may revoke any token).
"""

from __future__ import annotations

from urllib.parse import urlsplit
from uuid import UUID

from fastapi import APIRouter, HTTPException, Request, Response

from forge.api.authentication import AccountsDep, CurrentUser
from forge.api.deps import AuthEnabledDep, ContainerDep, LoginAttemptsDep, unwrap
from forge.api.error_responses import BODY_ERRORS, error_responses
from forge.api.schemas.accounts import LoginRequest, MeResponse, NewTokenOut, TokenCreate, TokenOut, UserOut
from forge.bootstrap.container import Container
from forge.core.accounts.credentials import LOGIN_SESSION_LIFETIME, SESSION_COOKIE, csrf_token_for
from forge.core.accounts.users import ApiTokenId

public_router = APIRouter(prefix="/api/v1/auth", tags=["auth"])
router = APIRouter(prefix="/api/v1/auth", tags=["auth"])


def _served_over_tls(request: Request, container: Container) -> bool:
    public_url = container.settings.public_url or ""
    return request.url.scheme == "https" or public_url.lower().startswith("https://")


def _same_origin(request: Request, container: Container) -> bool:
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser's cross-site form (browsers send Origin on every cross-site POST)
    allowed = {request.headers.get("Host", "").lower()}
    public_url = container.settings.public_url
    if public_url:
        allowed.add(urlsplit(public_url).netloc.lower())
    return urlsplit(origin).netloc.lower() in allowed


@public_router.post("/login", response_model=MeResponse, responses=error_responses(*BODY_ERRORS, 401, 403, 409, 429))
async def login(
    body: LoginRequest,
    request: Request,
    response: Response,
    container: ContainerDep,
    enabled: AuthEnabledDep,
    accounts: AccountsDep,
    attempts: LoginAttemptsDep,
) -> MeResponse:
    """Log in with email and password: sets the session cookie and returns the CSRF token."""
    if not enabled:
        raise HTTPException(409, "Authentication is off (FORGE_AUTH=off): there is nothing to log in to.")
    if not _same_origin(request, container):
        raise HTTPException(403, "Cross-site login refused: log in from this server's own page.")
    key = attempts.key(body.email, request.client.host if request.client else "unknown")
    refused = attempts.refusal(key)
    if refused is not None:
        raise HTTPException(429, refused.message, headers={"Retry-After": str(refused.retry_after_seconds)})
    granted = await accounts.login(body.email, body.password)
    if granted is None:
        attempts.failed(key)
        raise HTTPException(
            401, "Wrong email or password.", headers={"WWW-Authenticate": 'Bearer realm="Knowledge Forge"'}
        )
    attempts.succeeded(key)
    response.set_cookie(
        SESSION_COOKIE,
        granted.cookie_secret,
        max_age=int(LOGIN_SESSION_LIFETIME.total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        secure=_served_over_tls(request, container),
    )
    return MeResponse(auth_enabled=True, user=UserOut.of(granted.user), csrf_token=granted.csrf_token)


@router.post("/logout", status_code=204, responses=error_responses(401, 403))
async def logout(request: Request, user: CurrentUser, enabled: AuthEnabledDep, accounts: AccountsDep) -> Response:
    secret = request.cookies.get(SESSION_COOKIE)
    if secret is not None and enabled:
        await accounts.logout(secret)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


@router.get("/me", response_model=MeResponse, responses=error_responses(401))
async def me(request: Request, user: CurrentUser, enabled: AuthEnabledDep) -> MeResponse:
    secret = request.cookies.get(SESSION_COOKIE)
    by_cookie = enabled and secret is not None and "Authorization" not in request.headers
    return MeResponse(
        auth_enabled=enabled,
        user=UserOut.of(user),
        csrf_token=csrf_token_for(secret) if by_cookie and secret is not None else None,
    )


@router.get("/tokens", response_model=list[TokenOut], responses=error_responses(401))
async def list_tokens(user: CurrentUser, accounts: AccountsDep) -> list[TokenOut]:
    return [TokenOut.of(t) for t in await accounts.tokens(user.id)]


@router.post("/tokens", status_code=201, response_model=NewTokenOut, responses=error_responses(*BODY_ERRORS, 401, 403))
async def create_token(body: TokenCreate, user: CurrentUser, accounts: AccountsDep) -> NewTokenOut:
    """A new personal API token: use it as `Authorization: Bearer <token>`. Shown only in this response."""
    created = unwrap(await accounts.create_token(user, body.name))
    return NewTokenOut(**TokenOut.of(created.token).model_dump(), token=created.secret)


@router.delete("/tokens/{token_id}", status_code=204, responses=error_responses(401, 403, 404))
async def revoke_token(token_id: str, user: CurrentUser, accounts: AccountsDep) -> Response:
    """Revoke a token: requests with it get 401 from now on. Revoking twice is harmless."""
    try:
        parsed = ApiTokenId(UUID(token_id))
    except ValueError:
        raise HTTPException(404, "Token does not exist (not a valid token id).") from None
    unwrap(await accounts.revoke_token(user, parsed))
    return Response(status_code=204)

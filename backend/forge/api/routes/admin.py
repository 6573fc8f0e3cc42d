"""Admin: users (list, add, change role, disable) and per-user usage. Admins only (403 otherwise).

Invariants:
    - A generated password is in the creation response only.
    - Admins manage accounts and read usage; they do not read other users' sessions (ownership is not
      a role): the usage report counts and sums, it lists no session.
"""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, HTTPException, Request

from forge.api.account_schemas import NewUserOut, UserCreate, UserOut, UserUpdate, UserUsageOut
from forge.api.authentication import AdminUser, accounts_of
from forge.api.deps import unwrap
from forge.api.error_responses import BODY_ERRORS, error_responses
from forge.core.accounts import UserId
from forge.services.user_usage import UserUsageService

router = APIRouter(prefix="/api/v1/admin", tags=["admin"])


@router.get("/users", response_model=list[UserOut], responses=error_responses(401, 403))
async def list_users(request: Request, admin: AdminUser) -> list[UserOut]:
    return [UserOut.of(u) for u in await accounts_of(request).users()]


@router.post(
    "/users", status_code=201, response_model=NewUserOut, responses=error_responses(*BODY_ERRORS, 401, 403, 409)
)
async def add_user(body: UserCreate, request: Request, admin: AdminUser) -> NewUserOut:
    """Add a user; without a password one is generated and returned once."""
    created = unwrap(await accounts_of(request).add_user(body.email, body.role, body.password))
    return NewUserOut(user=UserOut.of(created.user), generated_password=created.generated_password)


@router.patch("/users/{user_id}", response_model=UserOut, responses=error_responses(*BODY_ERRORS, 401, 403, 404, 409))
async def update_user(user_id: str, body: UserUpdate, request: Request, admin: AdminUser) -> UserOut:
    try:
        parsed = UserId(UUID(user_id))
    except ValueError:
        raise HTTPException(404, "User does not exist (not a valid user id).") from None
    updated = unwrap(await accounts_of(request).update_user(admin, parsed, role=body.role, disabled=body.disabled))
    return UserOut.of(updated)


@router.get("/usage", response_model=list[UserUsageOut], responses=error_responses(401, 403))
async def usage(request: Request, admin: AdminUser) -> list[UserUsageOut]:
    """Per user: sessions (in all, running, created in the last hour), spend (this month, in all), tokens."""
    service: UserUsageService = request.app.state.container.usage
    return [UserUsageOut.of(u) for u in await service.report()]

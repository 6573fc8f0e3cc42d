"""Admin: users (list, add, change role, disable) and per-user usage. Admins only (403 otherwise).

Invariants:
    - A generated password is in the creation response only.
    - Admins manage accounts and read usage; they do not read other users' sessions (ownership is not
      a role): the usage report counts and sums, it lists no session.
    - `PUT /curation` changes the curation and navigation budgets and λ prices of this process while it
      runs (the next model call reads them); a value out of range is refused (422) and changes nothing.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from fastapi import APIRouter, HTTPException

from forge.api.authentication import AccountsDep, AdminUser
from forge.api.deps import ContainerDep, unwrap
from forge.api.error_responses import BODY_ERRORS, error_responses
from forge.api.schemas.accounts import NewUserOut, UserCreate, UserOut, UserUpdate, UserUsageOut
from forge.api.schemas.curation import CurationChangeIn
from forge.core.accounts.users import UserId
from forge.core.curation.curation_settings import CurationChange, settings_view

router = APIRouter(prefix="/api/v1/admin", tags=["admin"])


@router.get("/users", response_model=list[UserOut], responses=error_responses(401, 403))
async def list_users(accounts: AccountsDep, admin: AdminUser) -> list[UserOut]:
    return [UserOut.of(u) for u in await accounts.users()]


@router.post(
    "/users", status_code=201, response_model=NewUserOut, responses=error_responses(*BODY_ERRORS, 401, 403, 409)
)
async def add_user(body: UserCreate, accounts: AccountsDep, admin: AdminUser) -> NewUserOut:
    """Add a user; without a password one is generated and returned once."""
    created = unwrap(await accounts.add_user(body.email, body.role, body.password))
    return NewUserOut(user=UserOut.of(created.user), generated_password=created.generated_password)


@router.patch("/users/{user_id}", response_model=UserOut, responses=error_responses(*BODY_ERRORS, 401, 403, 404, 409))
async def update_user(user_id: str, body: UserUpdate, accounts: AccountsDep, admin: AdminUser) -> UserOut:
    try:
        parsed = UserId(UUID(user_id))
    except ValueError:
        raise HTTPException(404, "User does not exist (not a valid user id).") from None
    updated = unwrap(await accounts.update_user(admin, parsed, role=body.role, disabled=body.disabled))
    return UserOut.of(updated)


@router.get("/usage", response_model=list[UserUsageOut], responses=error_responses(401, 403))
async def usage(container: ContainerDep, admin: AdminUser) -> list[UserUsageOut]:
    """Per user: sessions (in all, running, created in the last hour), spend (this month, in all), tokens."""
    return [UserUsageOut.of(u) for u in await container.usage.report()]


@router.get("/curation", responses=error_responses(401, 403))
async def curation_settings(container: ContainerDep, admin: AdminUser) -> dict[str, Any]:
    """The curation budgets per provider and the navigator's budget the next model call will use."""
    return settings_view(container.curation.current())


@router.put("/curation", responses=error_responses(*BODY_ERRORS, 401, 403))
async def change_curation_settings(body: CurationChangeIn, container: ContainerDep, admin: AdminUser) -> dict[str, Any]:
    """Change budgets or λ prices live: the next model call (and the next navigator walk) uses them."""
    changed = container.curation.update(CurationChange(**body.model_dump()))
    if isinstance(changed, str):
        raise HTTPException(422, changed)
    return settings_view(changed)

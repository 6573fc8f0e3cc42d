"""Request and response bodies of the account endpoints (auth, tokens, admin)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from forge.api.schemas.text_fields import FreeText
from forge.core.accounts.users import MAX_EMAIL_CHARS, MAX_PASSWORD_CHARS, MAX_TOKEN_NAME_CHARS, ApiToken, Role, User
from forge.services.user_usage import UserUsage


class LoginRequest(BaseModel):
    email: FreeText = Field(max_length=MAX_EMAIL_CHARS)
    password: FreeText = Field(max_length=MAX_PASSWORD_CHARS)


class UserOut(BaseModel):
    id: str
    email: str
    role: Role
    disabled: bool
    created_at: datetime

    @classmethod
    def of(cls, user: User) -> UserOut:
        return cls(
            id=str(user.id), email=user.email, role=user.role, disabled=user.disabled, created_at=user.created_at
        )


class MeResponse(BaseModel):
    auth_enabled: bool = Field(description="False: FORGE_AUTH is off and everything belongs to the local user.")
    user: UserOut
    csrf_token: str | None = Field(
        default=None, description="Send as X-CSRF-Token with every state-changing request of this browser login."
    )


class TokenCreate(BaseModel):
    name: FreeText = Field(min_length=1, max_length=MAX_TOKEN_NAME_CHARS, description="What the token is for.")


class TokenOut(BaseModel):
    id: str
    name: str
    prefix: str = Field(description="The token's first characters, to tell tokens apart.")
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None

    @classmethod
    def of(cls, token: ApiToken) -> TokenOut:
        return cls(
            id=str(token.id),
            name=token.name,
            prefix=token.prefix,
            created_at=token.created_at,
            last_used_at=token.last_used_at,
            revoked_at=token.revoked_at,
        )


class NewTokenOut(TokenOut):
    token: str = Field(description="The whole token. It is shown only this once: store it now.")


class UserCreate(BaseModel):
    email: FreeText = Field(max_length=MAX_EMAIL_CHARS)
    role: Role = Role.MEMBER
    password: FreeText | None = Field(
        default=None, max_length=MAX_PASSWORD_CHARS, description="Omit to have one generated (shown once)."
    )


class NewUserOut(BaseModel):
    user: UserOut
    generated_password: str | None = Field(description="Set when no password was given; shown only this once.")


class UserUpdate(BaseModel):
    role: Role | None = None
    disabled: bool | None = Field(default=None, description="True ends the user's logins; their tokens stop working.")


class UserUsageOut(BaseModel):
    user: UserOut
    sessions_total: int
    sessions_running: int
    sessions_last_hour: int
    spend_this_month_usd: float
    spend_total_usd: float
    active_tokens: int

    @classmethod
    def of(cls, usage: UserUsage) -> UserUsageOut:
        return cls(
            user=UserOut.of(usage.user),
            sessions_total=usage.sessions_total,
            sessions_running=usage.sessions_running,
            sessions_last_hour=usage.sessions_last_hour,
            spend_this_month_usd=round(usage.spend_this_month_usd, 6),
            spend_total_usd=round(usage.spend_total_usd, 6),
            active_tokens=usage.active_tokens,
        )

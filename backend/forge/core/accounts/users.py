"""Accounts: who a request acts for, their role, and the rules about users (pure).

Invariants:
    - A user is identified by a `UserId`; emails are stored lower-cased and trimmed
      (`normalise_email`), so one address is one account whatever its spelling.
    - The built-in local user (`LOCAL_USER_ID`) owns everything while FORGE_AUTH is off; it has no
      password and can never log in. Migration 0006 creates its row, so ownership columns always
      point at a real user.
    - Roles: `admin` manages users and sees everyone's usage; `member` manages only their own tokens.
      Neither role reads another user's sessions, documents or memory: ownership is not a role.
    - Rules return a verdict (`AccountRefusal | None`), never raise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import NewType
from uuid import UUID

UserId = NewType("UserId", UUID)
ApiTokenId = NewType("ApiTokenId", UUID)

LOCAL_USER_ID = UserId(UUID("00000000-0000-4000-8000-000000000001"))
LOCAL_USER_EMAIL = "local@localhost"
MAX_EMAIL_CHARS = 254
MIN_PASSWORD_CHARS = 10
MAX_PASSWORD_CHARS = 1024
MAX_TOKEN_NAME_CHARS = 100
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")


class Role(str, Enum):
    ADMIN = "admin"
    MEMBER = "member"


@dataclass(frozen=True, slots=True)
class User:
    id: UserId
    email: str
    role: Role
    created_at: datetime
    disabled: bool = False

    @property
    def is_local(self) -> bool:
        return self.id == LOCAL_USER_ID


@dataclass(frozen=True, slots=True)
class ApiToken:
    """A personal API token as stored: its secret is only ever a digest (`credentials`)."""

    id: ApiTokenId
    user_id: UserId
    name: str
    prefix: str  # the first characters of the token, so a person can tell their tokens apart
    created_at: datetime
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


@dataclass(frozen=True, slots=True)
class AccountRefusal:
    message: str


def normalise_email(raw: str) -> str | AccountRefusal:
    """The stored spelling of an email address, or why it is not one."""
    email = raw.strip().lower()
    if not email or len(email) > MAX_EMAIL_CHARS or not _EMAIL.match(email):
        return AccountRefusal(f"email must look like name@example.org (at most {MAX_EMAIL_CHARS} characters).")
    return email


def password_refusal(password: str) -> AccountRefusal | None:
    if not MIN_PASSWORD_CHARS <= len(password) <= MAX_PASSWORD_CHARS:
        return AccountRefusal(f"password must be {MIN_PASSWORD_CHARS}..{MAX_PASSWORD_CHARS} characters long.")
    return None


def token_name_refusal(name: str) -> AccountRefusal | None:
    if not name.strip() or len(name) > MAX_TOKEN_NAME_CHARS:
        return AccountRefusal(f"token name must be 1..{MAX_TOKEN_NAME_CHARS} characters, not blank.")
    return None


def can_manage_users(user: User) -> bool:
    """Admins create, list and disable users and read every user's usage."""
    return user.role == Role.ADMIN and not user.disabled


def may_revoke(actor: User, token: ApiToken) -> bool:
    """A person revokes their own tokens; an admin may revoke anyone's (a leaked token)."""
    return token.user_id == actor.id or can_manage_users(actor)


def local_user(created_at: datetime) -> User:
    return User(LOCAL_USER_ID, LOCAL_USER_EMAIL, Role.ADMIN, created_at)

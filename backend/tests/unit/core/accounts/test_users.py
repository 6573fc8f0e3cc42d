"""Account rules: email spelling, password and token-name bounds, roles, who may revoke a token."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest

from forge.core.accounts.users import (
    AccountRefusal,
    ApiToken,
    ApiTokenId,
    Role,
    User,
    UserId,
    can_manage_users,
    local_user,
    may_revoke,
    normalise_email,
    password_refusal,
    token_name_refusal,
)

AT = datetime(2026, 11, 23, tzinfo=UTC)
ADA = User(UserId(UUID(int=1)), "ada@example.org", Role.MEMBER, AT)
BOB = User(UserId(UUID(int=2)), "bob@example.org", Role.MEMBER, AT)
ROOT = User(UserId(UUID(int=3)), "root@example.org", Role.ADMIN, AT)
ADAS_TOKEN = ApiToken(ApiTokenId(UUID(int=9)), ADA.id, "ci", "kf_abcdef", AT)


def test_emails_are_trimmed_and_lower_cased() -> None:
    assert normalise_email("  Ada@Example.ORG ") == "ada@example.org"


@pytest.mark.parametrize("raw", ["", "ada", "ada@", "@example.org", "a b@example.org", "a@b@c", "x" * 250 + "@e.org"])
def test_what_is_not_an_email_is_refused(raw: str) -> None:
    assert isinstance(normalise_email(raw), AccountRefusal)


def test_passwords_have_bounds() -> None:
    assert password_refusal("x" * 9) is not None and password_refusal("x" * 10) is None
    assert password_refusal("x" * 1025) is not None


def test_token_names_are_not_blank_and_bounded() -> None:
    assert token_name_refusal("  ") is not None and token_name_refusal("x" * 101) is not None
    assert token_name_refusal("nightly import") is None


def test_only_active_admins_manage_users() -> None:
    assert can_manage_users(ROOT) and not can_manage_users(ADA)
    assert not can_manage_users(User(ROOT.id, ROOT.email, Role.ADMIN, AT, disabled=True))


def test_a_token_is_revoked_by_its_owner_or_an_admin() -> None:
    assert may_revoke(ADA, ADAS_TOKEN) and may_revoke(ROOT, ADAS_TOKEN) and not may_revoke(BOB, ADAS_TOKEN)


def test_the_local_user_is_an_admin_without_a_real_address() -> None:
    local = local_user(AT)
    assert local.is_local and local.role == Role.ADMIN and not ADA.is_local

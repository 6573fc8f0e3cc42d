"""FORGE_AUTH and the per-user limits are read strictly: a bad value names its variable."""

from __future__ import annotations

import pytest

from forge.config import Settings
from forge.core.accounts.user_limits import UserLimits


def test_unset_means_auth_decided_by_the_bind_address_and_no_limits() -> None:
    settings = Settings.from_env({})
    assert settings.auth == "" and settings.user_limits == UserLimits() and settings.user_limits.unlimited


def test_limits_and_auth_are_read() -> None:
    settings = Settings.from_env(
        {
            "FORGE_AUTH": "On",
            "FORGE_USER_MAX_RUNNING_SESSIONS": "2",
            "FORGE_USER_SESSIONS_PER_HOUR": "10",
            "FORGE_USER_MONTHLY_SPEND_USD": "25.5",
        }
    )
    assert settings.auth == "on"
    assert settings.user_limits == UserLimits(max_running_sessions=2, max_sessions_per_hour=10, monthly_spend_usd=25.5)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("FORGE_AUTH", "maybe"),
        ("FORGE_USER_MAX_RUNNING_SESSIONS", "-1"),
        ("FORGE_USER_SESSIONS_PER_HOUR", "ten"),
        ("FORGE_USER_MONTHLY_SPEND_USD", "-3"),
        ("FORGE_USER_MONTHLY_SPEND_USD", "nan"),
    ],
)
def test_a_bad_value_is_refused_naming_its_variable(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})

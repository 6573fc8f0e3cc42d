"""FORGE_AUTH: off only on loopback (the embedded default), on anywhere, refused otherwise with the variable named."""

from __future__ import annotations

import pytest

from forge.core.accounts.auth_mode import AuthRefusal, auth_enabled, is_loopback_address, parse_auth_setting


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.1", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_loopback_addresses_are_recognised(host: str) -> None:
    assert is_loopback_address(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "", "192.168.1.20", "10.0.0.1", "forge.example.org", "2001:db8::1"])
def test_other_addresses_are_not_loopback(host: str) -> None:
    assert not is_loopback_address(host)


@pytest.mark.parametrize("setting", ["", "off"])
def test_auth_off_or_unset_is_allowed_on_loopback(setting: str) -> None:
    assert auth_enabled(setting, "127.0.0.1") is False


@pytest.mark.parametrize(
    ("setting", "host"), [("", "0.0.0.0"), ("off", "0.0.0.0"), ("off", "192.168.1.20"), ("", "::")]
)
def test_auth_off_on_a_reachable_address_is_refused_naming_the_variable(setting: str, host: str) -> None:
    verdict = auth_enabled(setting, host)
    assert isinstance(verdict, AuthRefusal)
    assert "FORGE_AUTH=on" in verdict.message and repr(host) in verdict.message


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_auth_on_is_allowed_anywhere(host: str) -> None:
    assert auth_enabled("on", host) is True


def test_the_setting_accepts_on_off_or_nothing() -> None:
    assert [parse_auth_setting(v) for v in (None, "", " ON ", "off")] == ["", "", "on", "off"]
    refused = parse_auth_setting("yes")
    assert isinstance(refused, AuthRefusal) and "FORGE_AUTH must be 'on' or 'off'" in refused.message

"""Which Host headers are allowed by default and when configured (pure functions, no app)."""

from __future__ import annotations

import pytest

from forge.api.trusted_hosts import ANY_HOST, LOOPBACK_HOSTS, allowed_hosts_for, host_is_allowed, normalise_host


def test_bound_to_loopback_only_the_loopback_names_are_allowed() -> None:
    assert allowed_hosts_for((), "127.0.0.1", None) == LOOPBACK_HOSTS


def test_the_public_url_host_and_a_specific_bind_address_are_added() -> None:
    hosts = allowed_hosts_for((), "10.1.2.3", "https://Forge.Example.org/app")
    assert hosts == (*LOOPBACK_HOSTS, "forge.example.org", "10.1.2.3")


def test_a_wildcard_bind_without_a_public_url_allows_any_host() -> None:
    assert allowed_hosts_for((), "0.0.0.0", None) == (ANY_HOST,)
    assert allowed_hosts_for((), "0.0.0.0", "https://forge.example.org") == (*LOOPBACK_HOSTS, "forge.example.org")


def test_configured_hosts_replace_the_default() -> None:
    assert allowed_hosts_for(("Forge.Example.org:443", "*.example.net"), "127.0.0.1", None) == (
        "forge.example.org",
        "*.example.net",
    )


@pytest.mark.parametrize("url", ["forge.example.org", "ftp://forge.example.org", "https://"])
def test_a_malformed_public_url_is_refused_naming_the_variable(url: str) -> None:
    with pytest.raises(ValueError, match="FORGE_PUBLIC_URL"):
        allowed_hosts_for((), "127.0.0.1", url)


@pytest.mark.parametrize(
    ("raw", "host"), [("Example.COM:8000", "example.com"), ("[::1]:8000", "::1"), ("::1", "::1"), ("a.b.", "a.b")]
)
def test_hosts_are_compared_without_port_brackets_case_or_trailing_dot(raw: str, host: str) -> None:
    assert normalise_host(raw) == host


def test_a_subdomain_pattern_matches_subdomains_only() -> None:
    assert host_is_allowed("api.example.org", ("*.example.org",))
    assert not host_is_allowed("example.org", ("*.example.org",))
    assert not host_is_allowed("evilexample.org", ("*.example.org",))

"""Whether the server authenticates (FORGE_AUTH), and the refusal to serve a network without it (pure).

Invariants:
    - FORGE_AUTH is `on`, `off` or unset. Unset means `off` while the server binds a loopback
      address (the embedded two-command default) and is refused on any other address.
    - Auth off on a non-loopback bind address (0.0.0.0, a LAN address, a host name) is refused with
      a message naming FORGE_AUTH: the server never starts reachable by others with every request
      acting as the built-in local user.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

AUTH_VARIABLE = "FORGE_AUTH"
AUTH_VALUES = ("on", "off")
_LOOPBACK_NAMES = ("localhost", "localhost.")


@dataclass(frozen=True, slots=True)
class AuthRefusal:
    message: str


def is_loopback_address(host: str) -> bool:
    name = host.strip().strip("[]").lower()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def parse_auth_setting(raw: str | None) -> str | AuthRefusal:
    """'' (unset), 'on' or 'off'; anything else is refused with the values to use."""
    value = (raw or "").strip().lower()
    if value in ("", *AUTH_VALUES):
        return value
    return AuthRefusal(f"{AUTH_VARIABLE} must be 'on' or 'off'; got {raw!r}.")


def auth_enabled(setting: str, bind_host: str) -> bool | AuthRefusal:
    """Whether requests must authenticate, or why the server must not start."""
    if setting == "on":
        return True
    if is_loopback_address(bind_host):
        return False
    return AuthRefusal(
        f"Refusing to serve {bind_host!r} without authentication: set {AUTH_VARIABLE}=on (and create a user "
        f"with `forge users add EMAIL --admin`), or bind a loopback address (HOST=127.0.0.1). "
        f"{AUTH_VARIABLE}=off is allowed only on loopback."
    )

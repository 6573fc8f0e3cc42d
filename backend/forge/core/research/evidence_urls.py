"""Whether a URL a person gives as evidence may be stored: a public http(s) web address, nothing else.

Invariants:
    - Accepted: `http://` or `https://` (any case) with a host name, no whitespace or control
      characters, no user:password part, at most MAX_URL_CHARS characters.
    - Refused (with a message saying what to fix): other schemes (`javascript:`, `data:`, `file:`),
      and hosts that name this machine or its private network by address or by name: loopback,
      link-local (169.254.0.0/16 and fe80::/10: cloud metadata services live at 169.254.169.254),
      private, unspecified, multicast and reserved IP addresses, `localhost` and `*.localhost`,
      and well-known metadata host names. Names are not resolved (pure; no DNS): what matters is
      that nothing of ours ever fetches such a URL or shows it as a link to a private address.
    - Pure: no IO.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

MAX_URL_CHARS = 2000
_CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f]")
_METADATA_NAMES = frozenset({"metadata", "metadata.google.internal", "metadata.goog", "instance-data"})


def _address_problem(host: str) -> str | None:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_link_local:
        return "a link-local address (cloud metadata services live there)"
    if address.is_loopback or address.is_unspecified:
        return "an address of the server itself"
    if address.is_private or address.is_reserved or address.is_multicast:
        return "a private or reserved network address"
    return None


def _host_problem(host: str) -> str | None:
    name = host.rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return "an address of the server itself"
    if name in _METADATA_NAMES or name.endswith(".internal"):
        return "an internal metadata host"
    return _address_problem(name)


def evidence_url_problem(url: str) -> str | None:
    """None when `url` may be stored as evidence; otherwise what is wrong and how to fix it."""
    if len(url) > MAX_URL_CHARS:
        return f"is {len(url)} characters long; give a URL of at most {MAX_URL_CHARS}"
    if _CONTROL_OR_SPACE.search(url):
        return "contains spaces or control characters; give one web address without them"
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return "is not a valid web address"
    if parts.scheme.lower() not in ("http", "https"):
        return "must start with http:// or https:// (other schemes such as javascript:, data: or file: are refused)"
    if not host:
        return "has no host name; give a full address like https://example.org/page"
    if parts.username is not None or parts.password is not None:
        return "must not carry a user name or password"
    problem = _host_problem(host)
    return f"points to {problem}; give a public web address" if problem else None

"""Evidence URLs given by a person: public http(s) web addresses only."""

from __future__ import annotations

import pytest

from forge.core.research.evidence_urls import MAX_URL_CHARS, evidence_url_problem


@pytest.mark.parametrize(
    "url",
    ["https://example.org/paper.pdf", "http://example.org", "HTTPS://Example.org:8443/a?b=c#d", "https://8.8.8.8/x"],
)
def test_public_web_addresses_are_accepted(url: str) -> None:
    assert evidence_url_problem(url) is None


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("javascript:alert(1)", "http:// or https://"),
        ("file:///etc/passwd", "http:// or https://"),
        ("data:text/html,<b>x</b>", "http:// or https://"),
        ("ftp://example.org/x", "http:// or https://"),
        ("https://", "no host name"),
        ("https://exa mple.org", "spaces or control"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[::ffff:169.254.169.254]/", "link-local"),
        ("http://metadata.google.internal/computeMetadata/v1/", "metadata"),
        ("http://127.0.0.1:8000/api/v1/sessions", "the server itself"),
        ("http://localhost/", "the server itself"),
        ("http://[::1]/", "the server itself"),
        ("http://10.0.0.5/", "private"),
        ("http://192.168.1.1/", "private"),
        ("https://user:secret@example.org/", "user name or password"),
        ("https://example.org:99999/", "not a valid web address"),
        ("https://example.org/" + "a" * MAX_URL_CHARS, "characters long"),
    ],
)
def test_other_urls_are_refused_with_what_to_fix(url: str, says: str) -> None:
    problem = evidence_url_problem(url)
    assert problem is not None and says in problem, problem

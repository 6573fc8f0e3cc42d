"""Evidence URLs in a review are validated by the API itself (not only by the SPA): http(s), public."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

Snapshot = Callable[[str], Awaitable[tuple[Any, Any]]]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("javascript:alert(1)", "must start with http:// or https://"),
        ("file:///etc/passwd", "must start with http:// or https://"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://localhost:8000/api/v1/sessions", "the server itself"),
    ],
)
async def test_a_review_with_a_bad_evidence_url_is_refused_and_changes_nothing(
    client: httpx.AsyncClient, paused_session: str, snapshot: Snapshot, url: str, says: str
) -> None:
    before = await snapshot(paused_session)
    body = {
        "type": "build_decision",
        "decision": "add_insight",
        "user_insight": "Nurses triage faster",
        "user_evidence_urls": ["https://example.org/ok", url],
    }
    response = await client.post(f"/api/v1/sessions/{paused_session}/user-input", json=body)
    assert response.status_code == 422, response.text
    error = response.json()
    field = next(e for e in error["errors"] if e["loc"][-2:] == ["user_evidence_urls", 1])
    assert says in field["msg"], field
    assert await snapshot(paused_session) == before

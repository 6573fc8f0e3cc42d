"""Integers read from queries and headers are 0..2^63-1: beyond is a 422 saying so, within is served.

`offset`, `after`, the `Last-Event-ID` header and `?last_event_id=` used to reach the database with
any value: past 64 bits that was a 500 (or an SSE 200 that died with a traceback).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from support.sse_client import read_stream

from forge.api.request_limits import MAX_INT64

BEYOND = (MAX_INT64 + 1, 2**64, 10**30)
Snapshot = Callable[[str], Awaitable[tuple[Any, Any]]]


@pytest.mark.parametrize("value", BEYOND)
@pytest.mark.parametrize(
    ("where", "name"),
    [("offset", "offset"), ("after", "after"), ("header", "Last-Event-ID"), ("last_event_id", "last_event_id")],
)
async def test_an_integer_beyond_64_bits_is_refused_naming_the_parameter_and_its_limit(
    client: httpx.AsyncClient, paused_session: str, snapshot: Snapshot, where: str, name: str, value: int
) -> None:
    before = await snapshot(paused_session)
    if where == "offset":
        response = await client.get("/api/v1/sessions", params={"offset": value})
    elif where == "after":
        response = await client.get(f"/api/v1/sessions/{paused_session}/events", params={"after": value})
    elif where == "header":
        response = await client.get(f"/api/v1/sessions/{paused_session}/stream", headers={"Last-Event-ID": str(value)})
    else:
        response = await client.get(f"/api/v1/sessions/{paused_session}/stream", params={"last_event_id": value})
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert name in detail and str(MAX_INT64) in detail
    assert await snapshot(paused_session) == before


async def test_the_largest_offset_is_an_empty_page(client: httpx.AsyncClient, paused_session: str) -> None:
    page = await client.get("/api/v1/sessions", params={"offset": MAX_INT64})
    assert page.status_code == 200, page.text
    assert page.json()["items"] == [] and page.json()["total"] == 1 and page.json()["offset"] == MAX_INT64


# On PostgreSQL these need the BIGINT seq columns of migration 0002 (INTEGER stops at 2^31-1).
@pytest.mark.parametrize("cursor", [2**31, 2**40, MAX_INT64])
async def test_a_cursor_past_the_last_event_gives_an_empty_page_and_an_empty_stream(
    client: httpx.AsyncClient, paused_session: str, cursor: int
) -> None:
    page = await client.get(f"/api/v1/sessions/{paused_session}/events", params={"after": cursor})
    assert page.status_code == 200, page.text
    assert page.json() == {"events": [], "next_after": cursor, "has_more": False}
    url = f"/api/v1/sessions/{paused_session}/stream"
    assert await read_stream(client, "GET", url, headers={"Last-Event-ID": str(cursor)}) == []
    assert await read_stream(client, "GET", url, params={"last_event_id": cursor}) == []


async def test_a_huge_last_event_id_is_quoted_cut_short_in_the_message(
    client: httpx.AsyncClient, paused_session: str
) -> None:
    huge = "9" * 5000
    response = await client.get(f"/api/v1/sessions/{paused_session}/stream", headers={"Last-Event-ID": huge})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert f"'{'9' * 32}'…" in detail and "9" * 33 not in detail
    assert len(detail) < 200


@pytest.mark.parametrize("raw", ["abc", "-1", "+5", "1_000", "٣", "1.5", "0x10"])
async def test_a_last_event_id_that_is_not_plain_digits_is_refused(
    client: httpx.AsyncClient, paused_session: str, raw: str
) -> None:
    response = await client.get(f"/api/v1/sessions/{paused_session}/stream", params={"last_event_id": raw})
    assert response.status_code == 422
    assert "last_event_id must be a non-negative integer event id" in response.json()["detail"]

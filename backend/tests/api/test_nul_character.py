"""A NUL character (U+0000) in any free-text field is a 422 naming the field, on SQLite and PostgreSQL.

It used to be a 500 on PostgreSQL (text and JSON columns cannot hold it) and stored as-is on
SQLite. Every refusal leaves the session and its event log as they were.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest

from forge.api.export_openapi import openapi_document
from forge.api.schemas.text_fields import NO_NUL_PATTERN

Snapshot = Callable[[str], Awaitable[tuple[Any, Any]]]
PROBLEM = "How can a small town keep its only pharmacy open?"
BAD = "before\x00after"
TEXT = "A long enough document text about pharmacies in small towns."

REVIEW_FIELDS = [
    ({"type": "decompose_review", "selected_reframings": [0], "added_assumptions": [BAD]}, "added_assumptions.0"),
    ({"type": "decompose_review", "selected_reframings": [0], "added_reframings": ["ok", BAD]}, "added_reframings.1"),
    ({"type": "explore_review", "suggested_domains": [BAD]}, "suggested_domains.0"),
    ({"type": "claims_review", "claim_feedback": [{"claim_index": 0, "feedback": BAD}]}, "claim_feedback.0.feedback"),
    ({"type": "verdicts", "verdicts": [{"claim_index": 0, "verdict": "reject", "reason": BAD}]}, "verdicts.0.reason"),
    (
        {"type": "verdicts", "verdicts": [{"claim_index": 0, "verdict": "qualify", "qualification": BAD}]},
        "verdicts.0.qualification",
    ),
    ({"type": "build_decision", "decision": "add_insight", "user_insight": BAD}, "user_insight"),
    ({"type": "build_decision", "decision": "add_insight", "user_evidence_urls": [BAD]}, "user_evidence_urls.0"),
    ({"type": "build_decision", "decision": "deep_dive", "deep_dive_claim_id": BAD}, "deep_dive_claim_id"),
]


def _assert_names_nul_in(response: httpx.Response, field: str) -> None:
    assert response.status_code == 422, response.text
    body = response.json()
    assert f"{field}: must not contain the NUL character" in body["detail"]
    assert [e["type"] for e in body["errors"]] == ["nul_character"]


@pytest.mark.parametrize(
    ("body", "field"),
    [({"problem": PROBLEM + "\x00"}, "problem"), ({"problem": PROBLEM, "constraints": ["fine", BAD]}, "constraints.1")],
)
async def test_a_nul_in_a_new_session_is_refused_naming_the_field(
    client: httpx.AsyncClient, body: dict[str, Any], field: str
) -> None:
    _assert_names_nul_in(await client.post("/api/v1/sessions", json=body), field)
    assert (await client.get("/api/v1/sessions")).json()["total"] == 0


@pytest.mark.parametrize(
    ("body", "field"), [({"title": BAD, "text": TEXT}, "title"), ({"title": "t", "text": TEXT + BAD}, "text")]
)
async def test_a_nul_in_a_document_is_refused_naming_the_field(
    client: httpx.AsyncClient, paused_session: str, snapshot: Snapshot, body: dict[str, Any], field: str
) -> None:
    before = await snapshot(paused_session)
    _assert_names_nul_in(await client.post(f"/api/v1/sessions/{paused_session}/documents", json=body), field)
    assert await snapshot(paused_session) == before
    assert (await client.get(f"/api/v1/sessions/{paused_session}/documents")).json() == []


@pytest.mark.parametrize(("body", "field"), REVIEW_FIELDS)
async def test_a_nul_in_a_review_is_refused_naming_the_field(
    client: httpx.AsyncClient, paused_session: str, snapshot: Snapshot, body: dict[str, Any], field: str
) -> None:
    before = await snapshot(paused_session)
    _assert_names_nul_in(await client.post(f"/api/v1/sessions/{paused_session}/user-input", json=body), field)
    assert await snapshot(paused_session) == before


def _free_strings(schema: dict[str, Any], where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every string schema inside `schema` that is not an enum or a constant, with its location."""
    if schema.get("type") == "string" and "enum" not in schema and "const" not in schema:
        yield where, schema
    for name, child in schema.get("properties", {}).items():
        yield from _free_strings(child, f"{where}.{name}")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from _free_strings(schema[key], f"{where}[]")
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        yield from _free_strings(branch, where)


def _request_models(document: dict[str, Any]) -> Iterator[str]:
    """Names of the components a request body refers to, directly or through other components."""
    schemas = document["components"]["schemas"]
    pending = [
        media["schema"]
        for operations in document["paths"].values()
        for operation in operations.values()
        for media in operation.get("requestBody", {}).get("content", {}).values()
    ]
    seen: set[str] = set()
    while pending:
        text = repr(pending.pop())
        for name in schemas:
            if f"'#/components/schemas/{name}'" in text and name not in seen:
                seen.add(name)
                pending.append(schemas[name])
    yield from sorted(seen)


def test_every_free_text_field_of_a_request_body_refuses_nul_in_the_openapi_document() -> None:
    document = openapi_document()
    models = list(_request_models(document))
    assert {"SessionCreate", "DocumentCreate", "UserInput", "ClaimFeedbackIn", "ClaimVerdictIn"} <= set(models)
    fields = [
        (where, schema)
        for name in models
        for where, schema in _free_strings(document["components"]["schemas"][name], name)
    ]
    assert len(fields) >= 13
    assert [where for where, schema in fields if schema.get("pattern") != NO_NUL_PATTERN] == []

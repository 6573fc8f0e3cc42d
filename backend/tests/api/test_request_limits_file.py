"""The SPA's request limits are generated from the OpenAPI document (`frontend/src/api/requestLimits.ts`),
and the committed file is what the generator writes now; the two limits the schema cannot state are
checked against the backend's constants."""

from __future__ import annotations

import re
from pathlib import Path

from forge.api.export_request_limits import request_limits, request_limits_ts, request_schemas
from forge.api.schemas.sessions import MAX_CONSTRAINT_CHARS
from forge.core.accounts.users import MIN_PASSWORD_CHARS

FRONTEND = Path(__file__).resolve().parents[3] / "frontend" / "src"
LIMITS_FILE = FRONTEND / "api" / "requestLimits.ts"


def test_the_committed_limits_are_what_the_openapi_document_says() -> None:
    assert LIMITS_FILE.read_text(encoding="utf-8") == request_limits_ts(), (
        "frontend/src/api/requestLimits.ts is stale: run 'make api-client' and commit the result"
    )


def test_the_review_limits_are_in_the_file() -> None:
    text = LIMITS_FILE.read_text(encoding="utf-8")
    assert '"UserInput": {' in text and '"starred_hypotheses": {' in text and '"ClaimVerdictIn": {' in text


def _document(properties: dict[str, object], extra: dict[str, object] | None = None) -> dict[str, object]:
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Body"}}}}
    schemas = {"Body": {"type": "object", "properties": properties}, **(extra or {})}
    return {"paths": {"/x": {"post": {"requestBody": body}}, "/y": {"get": {}}}, "components": {"schemas": schemas}}


def test_limits_are_read_through_optional_fields_items_and_refs() -> None:
    document = _document(
        {
            "name": {"type": "string", "minLength": 1, "maxLength": 9, "description": "not a limit"},
            "tags": {
                "anyOf": [
                    {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 5}},
                    {"type": "null"},
                ]
            },
            "rounds": {"type": "integer", "minimum": 1, "maximum": 5},
            "kind": {"$ref": "#/components/schemas/Kind"},
            "free": {"type": "string"},
            "child": {"$ref": "#/components/schemas/Child"},
        },
        {
            "Kind": {"type": "string", "enum": ["a", "b"]},
            "Child": {"type": "object", "properties": {"text": {"type": "string", "maxLength": 7}}},
        },
    )
    assert request_schemas(document) == ["Body", "Child"]
    assert request_limits(document) == {
        "Body": {
            "name": {"minLength": 1, "maxLength": 9},
            "tags": {"maxItems": 3, "items": {"maxLength": 5}},
            "rounds": {"minimum": 1, "maximum": 5},
        },
        "Child": {"text": {"maxLength": 7}},
    }


def _ts_constant(path: Path, name: str) -> int:
    found = re.search(rf"export const {name} = ([0-9_]+);", path.read_text(encoding="utf-8"))
    assert found is not None, f"{name} is not a number literal in {path.name}"
    return int(found.group(1).replace("_", ""))


def test_limits_the_schema_cannot_state_match_the_backend() -> None:
    # A constraint is measured after trimming and a password's minimum is the accounts core's rule:
    # neither is a schema keyword, so the SPA keeps them as literals this test holds to the backend's.
    assert _ts_constant(FRONTEND / "components" / "home" / "validateProblem.ts", "MAX_CONSTRAINT_CHARS") == (
        MAX_CONSTRAINT_CHARS
    )
    assert _ts_constant(FRONTEND / "auth" / "validateAccountForms.ts", "MIN_PASSWORD_CHARS") == MIN_PASSWORD_CHARS

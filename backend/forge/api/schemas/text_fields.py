"""`FreeText`: the one string type of every free-text field a request body carries.

Invariants:
    - A `FreeText` value never contains the NUL character (U+0000). PostgreSQL cannot store it in
      text or JSON columns and SQLite would keep it silently, so it is refused at the edge, on both
      databases alike, with a 422 that names the field (`problem: must not contain ...`).
    - The refusal is also in the OpenAPI document (`pattern` excluding U+0000), so generated
      clients and fuzzers know it; validation itself is the validator below, whose message says
      what to fix (a regex mismatch would not).
    - Length limits stay with each field (`Field(min_length=..., max_length=...)`): `FreeText` adds
      only the NUL rule, so it composes with any of them.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

NUL = "\x00"
NO_NUL_PATTERN = r"^[^\u0000]*$"


def refuse_nul(text: str) -> str:
    if NUL in text:
        raise PydanticCustomError(
            "nul_character",
            "must not contain the NUL character (\\u0000, at position {position}); remove it",
            {"position": text.index(NUL)},
        )
    return text


class _NoNulInSchema:
    """Adds the NUL exclusion to the field's JSON schema, keeping its other keywords."""

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        json_schema: dict[str, Any] = handler(schema)
        json_schema["pattern"] = NO_NUL_PATTERN
        return json_schema


FreeText = Annotated[str, AfterValidator(refuse_nul), _NoNulInSchema()]

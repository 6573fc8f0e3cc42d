"""How the JSON columns are written and read: msgspec (C) first, the standard library as fallback.

Invariants:
    - `deserialize_json(serialize_json(v))` equals `json.loads(json.dumps(v))` for every JSON value
      the standard library writes with finite floats; what msgspec refuses to write (a lone
      surrogate, a type it does not know) is written by `json.dumps`, which raises as before for
      what it cannot write, and text msgspec refuses to read (a NaN token an old SQLite row may hold)
      is read by `json.loads`.
    - An `EncodedJson` is written as its text, unchanged: the session state is encoded once, by
      `core.state_json`, not turned into a dict and dumped again.

Design decisions:
    - Non-finite floats are written as null (msgspec's rule; PostgreSQL's json type refuses NaN
      anyway, so only SQLite ever stored them).
    - Wired once, as the engine's json_serializer / json_deserializer (`db/engine.py`): on
      PostgreSQL the asyncpg dialect decodes json in the driver with the same deserializer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec

_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder()


@dataclass(frozen=True, slots=True)
class EncodedJson:
    """A value already encoded as JSON text, written to a JSON column as it is."""

    text: str


def serialize_json(value: Any) -> str:
    if isinstance(value, EncodedJson):
        return value.text
    try:
        return _ENCODER.encode(value).decode()
    except (TypeError, ValueError, msgspec.EncodeError):
        return json.dumps(value)


def deserialize_json(text: str | bytes) -> Any:
    try:
        return _DECODER.decode(text)
    except msgspec.DecodeError:
        return json.loads(text)

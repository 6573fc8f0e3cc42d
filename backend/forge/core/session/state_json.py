"""The whole ForgeState as JSON text, encoded and decoded in C (msgspec): what every step writes.

Every model step saves the session's state, and every run, review and status query reads it; at the
end of a session the state is ~130 kB of JSON. The reflective codec (`state_codec`) walks it in
Python (~1.3 ms to encode + dump, ~1.5 ms to parse + decode); msgspec does the same from the
dataclass annotations in ~0.15 ms and ~0.25 ms. This was ~10% of a session's CPU.

Invariants:
    - `decode_state_json(encode_state_json(s)) == s` for every state the reflective codec
      round-trips, and the two codecs read each other's text: `decode_state(json.loads(
      encode_state_json(s))) == s` and `decode_state_json(json.dumps(encode_state(s))) == s`. Rows
      written by either stay readable by both (tested on a rich state and a finished session's).
    - Never stricter than the reflective codec: a text msgspec refuses (a value whose type is not
      its field's annotation, written before a field changed type; a NaN token an old SQLite row may
      hold) is decoded by `state_codec` instead, which raises exactly what it raised before; a state
      msgspec cannot encode (a container subclass, a lone surrogate) is encoded by `state_codec`.

Design decisions:
    - Sets are written in iteration order, not sorted as `state_codec` writes them (msgspec's
      deterministic order refuses the state's non-string dict keys); a set's order means nothing
      and decodes to the same set. Datetimes in UTC are written with `Z` (`datetime.fromisoformat`
      reads both forms). Non-finite floats are written as null, as PostgreSQL's json type needs.
    - msgspec is a pure, IO-free library, so this lives in the core next to the reflective codec.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

import msgspec

from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import decode_dataclass, encode_value

T = TypeVar("T")


_ENCODER = msgspec.json.Encoder()
# One decoder per record type, built on its first use, not at import (it walks the annotations of
# every record type the state holds).
_DECODERS: dict[type[Any], msgspec.json.Decoder[Any]] = {}


def encode_state_json(state: ForgeState) -> str:
    """The state as JSON text (see the module invariants for what the fallback covers)."""
    return encode_record_json(state)


def decode_state_json(text: str | bytes) -> ForgeState:
    """A state from JSON text written by either codec."""
    return decode_record_json(text, ForgeState)


def encode_record_json(record: object) -> str:
    """A record (the state, or a dataclass it holds, e.g. a Hypothesis) as JSON text."""
    try:
        return _ENCODER.encode(record).decode()
    except (TypeError, ValueError, msgspec.EncodeError):
        return json.dumps(encode_value(record))


def decode_record_json(text: str | bytes, kind: type[T]) -> T:
    """A record of type `kind` from JSON text written by either codec."""
    decoder = _DECODERS.get(kind)
    if decoder is None:
        decoder = _DECODERS[kind] = msgspec.json.Decoder(kind)
    try:
        decoded: T = decoder.decode(text)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return decode_dataclass(json.loads(text), kind)
    return decoded


def copy_state(state: ForgeState) -> ForgeState:
    """A deep copy through the codec: lossless by the invariants, and ~10x cheaper than deepcopy."""
    return decode_state_json(encode_state_json(state))

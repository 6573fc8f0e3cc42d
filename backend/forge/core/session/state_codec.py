"""Lossless JSON codec for ForgeState and the records it holds.

Invariants:
    - `decode_state(encode_state(s)) == s` for every reachable state (tested by round trip).
    - Output is plain JSON (str, int, float, bool, None, list, dict); sets encode as sorted lists.

Design decisions:
    - One reflective codec driven by dataclass type hints instead of a hand-written to/from pair per
      record: adding a field to a record cannot silently be forgotten by persistence.
    - The reflection is done once: an encoder per value type and a decoder per annotation are built
      on first use and kept (every step encodes the whole state; per-value `isinstance` chains and
      `get_origin` calls were a large share of a step's CPU).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Hashable
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints
from uuid import UUID

from forge.core.session.forge_state import ForgeState

T = TypeVar("T")
JsonValue = Any  # JSON trees are recursive; kept as Any at this single boundary.


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, once per class (encoding a state walks thousands of records)."""
    return tuple(f.name for f in dataclasses.fields(cls))


Encoder = Callable[[Any], JsonValue]
Decoder = Callable[[JsonValue], Any]


def _as_is(value: Any) -> Any:
    return value


def _encode_dataclass(value: Any) -> dict[str, JsonValue]:
    return {name: encode_value(getattr(value, name)) for name in _field_names(cast(Hashable, type(value)))}


def _encode_set(value: Any) -> list[JsonValue]:
    return [encode_value(v) for v in sorted(value)]


def _encode_sequence(value: Any) -> list[JsonValue]:
    return [encode_value(v) for v in value]


def _encode_mapping(value: Any) -> dict[str, JsonValue]:
    return {str(k): encode_value(v) for k, v in value.items()}


def _build_encoder(cls: type) -> Encoder:
    if dataclasses.is_dataclass(cls):
        return _encode_dataclass
    kinds: tuple[tuple[type | tuple[type, ...], Encoder], ...] = (
        (Enum, lambda v: v.value),
        (UUID, str),
        (datetime, lambda v: v.isoformat()),
        ((set, frozenset), _encode_set),
        ((list, tuple), _encode_sequence),
        (dict, _encode_mapping),
    )
    return next((encoder for kind, encoder in kinds if issubclass(cls, kind)), _as_is)


# The encoder of each value type, chosen once per type (a state walk meets a few dozen types
# thousands of times). A cache of a pure function of the type: the same type, the same encoder.
_ENCODERS: dict[type, Encoder] = {str: _as_is, int: _as_is, float: _as_is, bool: _as_is, type(None): _as_is}


def encode_value(value: object) -> JsonValue:
    cls = type(value)
    encoder = _ENCODERS.get(cls)
    if encoder is None:
        encoder = _ENCODERS[cls] = _build_encoder(cls)
    return encoder(value)


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return get_type_hints(cls)


def _union_decoder(args: tuple[Any, ...]) -> Decoder:
    inner = _decoder_for(next(a for a in args if a is not type(None)))
    return lambda raw: None if raw is None else inner(raw)


def _collection_decoder(origin: Any, item_type: Any) -> Decoder:
    item = _decoder_for(item_type)
    if origin is list:
        return lambda raw: [item(v) for v in raw]
    return lambda raw: origin([item(v) for v in raw])


def _dict_decoder(key_type: Any, value_type: Any) -> Decoder:
    key, value = _decoder_for(key_type), _decoder_for(value_type)
    return lambda raw: {key(k): value(v) for k, v in raw.items()}


def _dataclass_decoder(cls: type) -> Decoder:
    fields: dict[str, Decoder] = {}  # filled on first use: records may refer to themselves

    def decode(raw: JsonValue) -> Any:
        if not fields:
            hints = _hints(cast(Hashable, cls))
            fields.update({name: _decoder_for(hints[name]) for name in _field_names(cls)})
        return cls(**{k: fields[k](v) for k, v in raw.items() if k in fields})

    return decode


def _enum_decoder(enum: type[Enum]) -> Decoder:
    """A member by value from the enum's own value map (`Enum(raw)` is slow); anything else goes
    through `Enum(raw)`, which raises or resolves exactly as before."""
    members = enum._value2member_map_
    return lambda raw: members.get(raw) or enum(raw) if isinstance(raw, Hashable) else enum(raw)


def _float_decoder(raw: JsonValue) -> Any:
    return float(raw) if isinstance(raw, int) else raw


def _build_decoder(annotation: Any) -> Decoder:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return _union_decoder(get_args(annotation))
    if origin in (list, tuple, set, frozenset):
        return _collection_decoder(origin, get_args(annotation)[0])
    if origin is dict:
        return _dict_decoder(*get_args(annotation))
    supertype = getattr(annotation, "__supertype__", None)
    if supertype is not None:  # NewType
        return _decoder_for(supertype)
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return _dataclass_decoder(annotation)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return _enum_decoder(annotation)
    if annotation is UUID:
        return UUID
    if annotation is datetime:
        return datetime.fromisoformat
    return _float_decoder if annotation is float else _as_is


@cache
def _decoder_for(annotation: Any) -> Decoder:
    """The decoder of one annotation, built once (a pure function of the annotation)."""
    return _build_decoder(annotation)


def decode_value(raw: JsonValue, annotation: Any) -> Any:
    try:
        decoder = _decoder_for(annotation)
    except TypeError:  # an unhashable annotation: build its decoder for this call only
        decoder = _build_decoder(annotation)
    return decoder(raw)


def decode_dataclass(raw: dict[str, JsonValue], cls: type[T]) -> T:
    decoded: T = _decoder_for(cast(Hashable, cls))(raw)
    return decoded


def encode_state(state: ForgeState) -> dict[str, JsonValue]:
    encoded: dict[str, JsonValue] = encode_value(state)
    return encoded


def decode_state(raw: dict[str, JsonValue]) -> ForgeState:
    state: ForgeState = decode_dataclass(raw, ForgeState)
    return state

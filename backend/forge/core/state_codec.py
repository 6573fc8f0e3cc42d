"""Lossless JSON codec for ForgeState and the records it holds.

Invariants:
    - `decode_state(encode_state(s)) == s` for every reachable state (tested by round trip).
    - Output is plain JSON (str, int, float, bool, None, list, dict); sets encode as sorted lists.

Design decisions:
    - One reflective codec driven by dataclass type hints instead of a hand-written to/from pair per
      record: adding a field to a record cannot silently be forgotten by persistence.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Hashable
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints
from uuid import UUID

from forge.core.forge_state import ForgeState

T = TypeVar("T")
JsonValue = Any  # JSON trees are recursive; kept as Any at this single boundary.


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, once per class (encoding a state walks thousands of records)."""
    return tuple(f.name for f in dataclasses.fields(cls))


def encode_value(value: object) -> JsonValue:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: encode_value(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return [encode_value(v) for v in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [encode_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode_value(v) for k, v in value.items()}
    return value


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return get_type_hints(cls)


def _decode_union(raw: JsonValue, args: tuple[Any, ...]) -> Any:
    if raw is None:
        return None
    non_none = [a for a in args if a is not type(None)]
    return decode_value(raw, non_none[0])


def decode_value(raw: JsonValue, annotation: Any) -> Any:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return _decode_union(raw, get_args(annotation))
    if origin in (list, tuple, set, frozenset):
        item_type = get_args(annotation)[0]
        items = [decode_value(v, item_type) for v in raw]
        return items if origin is list else origin(items)
    if origin is dict:
        key_type, value_type = get_args(annotation)
        return {decode_value(k, key_type): decode_value(v, value_type) for k, v in raw.items()}
    supertype = getattr(annotation, "__supertype__", None)
    if supertype is not None:  # NewType
        return decode_value(raw, supertype)
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return decode_dataclass(raw, annotation)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return annotation(raw)
    if annotation is UUID:
        return UUID(raw)
    if annotation is datetime:
        return datetime.fromisoformat(raw)
    if annotation is float and isinstance(raw, int):
        return float(raw)
    return raw


def decode_dataclass(raw: dict[str, JsonValue], cls: type[T]) -> T:
    hints = _hints(cast(Hashable, cls))
    names = _field_names(cast(type, cls))
    kwargs = {k: decode_value(v, hints[k]) for k, v in raw.items() if k in names}
    return cls(**kwargs)


def encode_state(state: ForgeState) -> dict[str, JsonValue]:
    encoded: dict[str, JsonValue] = encode_value(state)
    return encoded


def decode_state(raw: dict[str, JsonValue]) -> ForgeState:
    state: ForgeState = decode_dataclass(raw, ForgeState)
    return state

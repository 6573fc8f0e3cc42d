"""JSON columns: msgspec with the standard library behind it, and the state stored as its own text."""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord
from forge.db.json_columns import EncodedJson, deserialize_json, serialize_json
from forge.db.unit_of_work import SqlAlchemyUnitOfWork

T0 = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, None, True, "é\u2028\x00"], "n": {"x": 2**70}},
        [],
        "text",
        {"1": {"nested": [{"deep": -0.1}]}},
    ],
)
def test_values_read_back_as_the_standard_library_reads_them(value: object) -> None:
    assert deserialize_json(serialize_json(value)) == json.loads(json.dumps(value))


def test_encoded_json_is_written_unchanged() -> None:
    assert serialize_json(EncodedJson('{"b": 1,  "a": 2}')) == '{"b": 1,  "a": 2}'


def test_what_msgspec_cannot_write_the_standard_library_writes() -> None:
    text = serialize_json({"half": "\ud800"})
    assert json.loads(text) == {"half": "\ud800"}


def test_what_neither_can_write_is_refused() -> None:
    with pytest.raises(TypeError):
        serialize_json({"no": object()})


def test_a_nan_token_from_an_old_row_is_read() -> None:
    assert math.isnan(deserialize_json('{"x": NaN}')["x"])


def test_invalid_text_is_refused() -> None:
    with pytest.raises(json.JSONDecodeError):
        deserialize_json("{not json")


async def test_a_rich_state_reads_back_equal_on_both_backends(
    uow_factory: Callable[[], SqlAlchemyUnitOfWork], rich_state: Callable[[], ForgeState]
) -> None:
    state = rich_state()
    record = SessionRecord(
        id=SessionId(uuid.uuid4()),
        problem=state.problem,
        status=SessionStatus.BUILDING,
        current_phase=Phase.BUILD,
        current_round=state.current_round,
        created_at=T0,
        model_label="fake-model",
    )
    async with uow_factory() as uow:
        await uow.sessions.add(record, state)
        assert await uow.sessions.load_state(record.id) == state
        state.user_insights.append("a second look")
        await uow.sessions.save_state(record.id, state, at=T0, cancelled=False)
        assert await uow.sessions.load_state(record.id) == state

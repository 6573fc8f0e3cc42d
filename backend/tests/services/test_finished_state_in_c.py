"""A finished session's state — every record the engine, SAGA and the reviews leave in it — and its
hypothesis pool's records are written and read by msgspec itself, not by the reflective fallback
(which would be lossless too, and ten times slower: this guards the speed, `test_state_json` guards
the meaning)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import msgspec
from sqlalchemy import Text, cast, select
from support.fresh_database import migrated_sqlite_url

from forge.bootstrap.build_container import build_container
from forge.cli.autopilot import drive_to_document
from forge.config import Settings
from forge.core.hypotheses.pool import Hypothesis
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import decode_dataclass
from forge.core.session.state_json import decode_record_json, encode_record_json, encode_state_json
from forge.db.tables import HypothesisRow, SessionRow
from forge.ports import HypothesisFilter
from forge.services.service_results import ServiceFailure

PROBLEM = "How can a small bakery reduce food waste at the end of each day?"


async def test_a_finished_sessions_state_and_pool_round_trip_through_msgspec_alone(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path, "finished.db")
    container = build_container(Settings(embedder="hashed", database_url=url))
    try:
        created = await container.service.create(PROBLEM)
        assert not isinstance(created, ServiceFailure)
        async with asyncio.timeout(120):
            assert await drive_to_document(container.service, created.id, AutopilotPolicy())
        async with container.uow_factory() as uow:
            state = await uow.sessions.load_state(created.id)
            pool = await uow.hypotheses.page(created.id, HypothesisFilter(), limit=1000, offset=0)
        query = select(cast(SessionRow.forge_state, Text)).where(SessionRow.id == created.id)
        records = select(cast(HypothesisRow.record, Text)).where(HypothesisRow.session_id == created.id)
        async with container.engine.connect() as connection:
            stored = (await connection.execute(query)).scalar_one()
            stored_records = list((await connection.execute(records)).scalars())
    finally:
        await container.close()
    assert state.knowledge_document_markdown
    strict = msgspec.json.Decoder(ForgeState)
    assert strict.decode(stored) == state
    assert strict.decode(msgspec.json.encode(state)) == state
    assert strict.decode(encode_state_json(state)) == state
    assert len(pool.items) == len(stored_records) >= 10
    strict_record = msgspec.json.Decoder(Hypothesis)
    from_rows = sorted((strict_record.decode(text) for text in stored_records), key=lambda h: h.id)
    assert from_rows == sorted(pool.items, key=lambda h: h.id)
    assert from_rows == sorted(
        (decode_dataclass(json.loads(t), Hypothesis) for t in stored_records), key=lambda h: h.id
    )
    for hypothesis in from_rows:
        assert decode_record_json(encode_record_json(hypothesis), Hypothesis) == hypothesis

"""Rows read again are the same objects: conversations and pools decoded once per text, bounded."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.llm.messages import Message, Role, TextPart
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord
from forge.db.decoded_by_text import DecodedByText
from forge.db.unit_of_work import SqlAlchemyUnitOfWork

T0 = datetime(2026, 11, 27, 6, 0, tzinfo=UTC)


def test_a_text_decoded_again_is_the_same_object_and_what_the_decoder_gives() -> None:
    calls: list[str] = []

    def decoder(text: str) -> list[str]:
        calls.append(text)
        return text.split()

    cache: DecodedByText[list[str]] = DecodedByText(decoder, max_chars=100)
    first = cache.decode("a b c")
    assert cache.decode("a b c") is first == ["a", "b", "c"]
    assert cache.decode("".join(["a b", " c"])) is first  # equal text, another string object
    assert calls == ["a b c"]


def test_it_forgets_the_oldest_texts_beyond_its_characters() -> None:
    cache: DecodedByText[str] = DecodedByText(str.upper, max_chars=10)
    for text in ("aaaa", "bbbb", "cccc"):
        cache.decode(text)
    assert len(cache) == 2  # 12 characters > 10: "aaaa" went first
    assert cache.decode("x" * 50) == "X" * 50  # one text longer than the bound is still decoded
    assert len(cache) == 1


async def test_a_conversation_read_again_yields_the_same_messages(
    uow_factory: Callable[[], SqlAlchemyUnitOfWork],
) -> None:
    record = SessionRecord(SessionId(uuid.uuid4()), "Heat?", SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0, T0, "m")
    sent = [Message(Role.USER, (TextPart(f"message {n} of {record.id}"),)) for n in range(3)]
    async with uow_factory() as uow:
        await uow.sessions.add(record, ForgeState(problem=record.problem), sent)
        await uow.commit()
    async with uow_factory() as uow:
        first = await uow.sessions.load_messages(record.id)
    async with uow_factory() as uow:
        again = await uow.sessions.load_messages(record.id)
    assert first == sent
    assert all(a is b for a, b in zip(first, again, strict=True))

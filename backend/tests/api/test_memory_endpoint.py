"""GET /api/v1/memory/hypotheses: remembered hypotheses ranked by fused relevance × C, filtered by min_c, paged."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from uuid import UUID

import httpx
import pytest
from support.api_client import client_of

from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.hypotheses.memory import HypothesisEpisode, HypothesisEpisodeId
from forge.core.research.hybrid_ranking import DEFAULT_FUSION
from forge.providers.sentence_embedder import SentenceEmbedder

AT = datetime(2026, 11, 23, tzinfo=UTC)
URL = "/api/v1/memory/hypotheses"
REMEMBERED = [
    ("Triage by urgency cuts emergency wait times", 0.8),
    ("Batteries store summer solar heat for winter", 0.6),
    ("Adding beds alone cuts emergency wait times", 0.1),
]


@pytest.fixture
async def memory_client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    container = build_container(Settings(database_url=database_url))
    vectors = await SentenceEmbedder().embed([text for text, _ in REMEMBERED])
    episodes = [
        HypothesisEpisode(
            HypothesisEpisodeId(UUID(int=i + 1)), text, tuple(v), c, "an earlier question", SessionId(UUID(int=99)), AT
        )
        for i, ((text, c), v) in enumerate(zip(REMEMBERED, vectors, strict=True))
    ]
    async with container.uow_factory() as uow:
        await uow.memory.upsert_all(episodes, AT)
        await uow.commit()
    async with client_of(container) as http:
        yield http


async def test_a_query_ranks_related_trusted_hypotheses_first_and_hides_c_below_the_threshold(
    memory_client: httpx.AsyncClient,
) -> None:
    page = (await memory_client.get(URL, params={"q": "how to cut emergency wait times"})).json()
    texts = [item["text"] for item in page["items"]]
    assert texts[0] == REMEMBERED[0][0]
    assert REMEMBERED[2][0] not in texts and page["total"] == 2
    top = page["items"][0]
    # The best word match of the two kept (the other shares no word): BM25 side 1, plus its cosine's share.
    w = DEFAULT_FUSION.lexical_weight
    assert top["confidence"] == 0.8 and top["score"] == pytest.approx((w + (1 - w) * top["similarity"]) * 0.8)
    assert top["origin_question"] == "an earlier question" and top["support_count"] == 0


async def test_without_a_query_orders_by_c_and_min_c_and_paging_apply(memory_client: httpx.AsyncClient) -> None:
    everything = (await memory_client.get(URL, params={"min_c": 0})).json()
    assert [i["confidence"] for i in everything["items"]] == [0.8, 0.6, 0.1]
    second = (await memory_client.get(URL, params={"min_c": 0, "limit": 1, "offset": 1})).json()
    assert [i["confidence"] for i in second["items"]] == [0.6] and second["total"] == 3


async def test_rejects_a_min_c_outside_zero_to_one(memory_client: httpx.AsyncClient) -> None:
    response = await memory_client.get(URL, params={"min_c": 1.5})
    assert response.status_code == 422 and "min_c" in response.text

"""Cross-language research over the shipped (English) corpus: a Chinese or Japanese query finds what its
English rendering finds, the results say which query found each, the rendering is asked once per
query, and without a rendering model the result says so instead of pretending."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

from research.renderings import TableRenderings

from forge.core.domain_types import SessionId
from forge.core.research.results import ResearchResults
from forge.core.session.records import SessionDocument
from forge.research.cross_language import CrossLanguageResearch, ModelQueryRenderer
from forge.research.local_corpus import LocalCorpusResearch

ZH = "急诊 等待时间 排队"
JA = "待ち時間 救急 病院"
_NOW = datetime(2026, 12, 2, tzinfo=UTC)
RENDERED = {ZH: "emergency department waiting time queue", JA: "hospital emergency waiting time"}


def research(renderings: TableRenderings | None) -> CrossLanguageResearch:
    renderer = ModelQueryRenderer(renderings) if renderings is not None else None
    return CrossLanguageResearch(LocalCorpusResearch.from_directory(), renderer)


async def sources(provider: CrossLanguageResearch | LocalCorpusResearch, query: str) -> list[str]:
    return [h.source for h in await provider.search(query, session_id=None, limit=5)]


async def test_chinese_and_japanese_queries_find_what_their_english_rendering_finds() -> None:
    corpus, table = LocalCorpusResearch.from_directory(), TableRenderings(RENDERED)
    provider = research(table)
    for query in (ZH, JA):
        assert await sources(corpus, query) == []  # the corpus alone: nothing (the measurement)
        found = await provider.search(query, session_id=None, limit=5)
        english = await sources(corpus, RENDERED[query])
        assert [h.source for h in found] == english and len(english) >= 2
        assert isinstance(found, ResearchResults) and found.renderings == (RENDERED[query],)
        assert set(found.found_by.values()) == {RENDERED[query]} and found.warning == ""
    assert table.asked == [ZH, JA]


async def test_a_rendering_is_asked_once_per_query_and_english_queries_ask_none() -> None:
    table = TableRenderings(RENDERED)
    provider = research(table)
    await provider.search(ZH, session_id=None)
    await provider.search(f"  {ZH} ", session_id=None)
    await provider.search("emergency department waiting queue", session_id=None)
    assert table.asked == [ZH]


async def test_without_a_rendering_model_the_result_says_the_query_was_searched_as_written_only() -> None:
    found = await research(None).search(JA, session_id=None)
    assert isinstance(found, ResearchResults) and list(found) == [] and found.renderings == ()
    assert "offline model cannot translate" in found.warning and JA in found.warning


async def test_a_failed_rendering_is_said_and_not_kept() -> None:
    table = TableRenderings({})
    provider = research(table)
    found = await provider.search(ZH, session_id=None)
    assert isinstance(found, ResearchResults) and "rendering it in English failed" in found.warning
    await provider.search(ZH, session_id=None)
    assert table.asked == [ZH, ZH]


async def test_a_document_in_the_query_s_own_language_is_found_by_the_query_as_written() -> None:
    note = SessionDocument("upload://ed-log", "急诊记录", "急诊 等待时间 排队：高峰时段候诊超过两小时。", _NOW)
    found = await research(TableRenderings(RENDERED)).search(
        ZH, session_id=SessionId(UUID(int=1)), limit=5, session_documents=[note]
    )
    assert isinstance(found, ResearchResults) and found[0].source == note.source
    assert found.found_by[note.source] == ZH and RENDERED[ZH] in found.found_by.values()

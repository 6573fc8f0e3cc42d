"""Research across languages without a model (#38): a Chinese or Japanese query is also searched as a
bilingual dictionary's word-by-word gloss (jieba + CC-CEDICT, EDICT2), labelled as a gloss, not a
translation; a model that renders still renders; and an English query finds a Chinese or Japanese
document the person uploaded."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest
from research.renderings import TableRenderings

from forge.core.domain_types import SessionId
from forge.core.research.results import ResearchResults
from forge.core.session.records import SessionDocument
from forge.research import bilingual_dictionary
from forge.research.bilingual_dictionary import DictionaryGlossary
from forge.research.cross_language import CrossLanguageResearch, ModelQueryRenderer
from forge.research.local_corpus import LocalCorpusResearch

ZH = "医院急诊科的病人候诊时间"
JA = "病院の救急外来における待ち時間"
ENGLISH = "hospital emergency department patient waiting time"
SESSION = SessionId(UUID(int=7))
_NOW = datetime(2026, 12, 2, tzinfo=UTC)


class CountingGlossary:
    """The real glossary, counting what it was asked."""

    label = "dictionary"

    def __init__(self) -> None:
        self.asked: list[str] = []
        self._glossary = DictionaryGlossary()

    def english_gloss(self, text: str) -> str:
        self.asked.append(text)
        return self._glossary.english_gloss(text)


async def top(provider: CrossLanguageResearch | LocalCorpusResearch, query: str) -> set[str]:
    return {h.source for h in await provider.search(query, session_id=None, limit=5)}


async def test_offline_a_chinese_and_a_japanese_query_find_what_the_english_query_finds() -> None:
    corpus = LocalCorpusResearch.from_directory()
    offline = CrossLanguageResearch(corpus, None, DictionaryGlossary())
    english = await top(corpus, ENGLISH)
    assert "corpus://applications/patient-flow" in english
    for query in (ZH, JA):
        assert await top(corpus, query) == set()  # the English corpus alone finds nothing
        found = await offline.search(query, session_id=None, limit=5)
        assert len({h.source for h in found} & english) >= 3, [h.source for h in found]
        assert isinstance(found, ResearchResults) and found.rendered_by == "dictionary"
        gloss = found.renderings[0]
        assert {"hospital", "emergency"} <= set(gloss.split()) and set(found.found_by.values()) == {gloss}


async def test_a_dictionary_gloss_says_it_is_not_a_translation_and_why_no_model_rendered() -> None:
    found = await CrossLanguageResearch(LocalCorpusResearch.from_directory(), None, DictionaryGlossary()).search(
        ZH, session_id=None
    )
    assert isinstance(found, ResearchResults)
    assert "dictionary gloss" in found.warning and "not a translation by a model" in found.warning
    assert "offline model cannot translate" in found.warning and found.renderings[0] in found.warning


async def test_when_the_model_s_rendering_fails_the_dictionary_gloss_stands_in_and_says_so() -> None:
    table = TableRenderings({})
    provider = CrossLanguageResearch(
        LocalCorpusResearch.from_directory(), ModelQueryRenderer(table), DictionaryGlossary()
    )
    found = await provider.search(JA, session_id=None)
    assert isinstance(found, ResearchResults) and found.rendered_by == "dictionary" and len(found) >= 3
    assert "rendering it in English failed" in found.warning and "dictionary gloss" in found.warning
    assert table.asked == [JA]


async def test_a_model_that_renders_still_renders_and_the_dictionary_is_not_asked() -> None:
    glossary = CountingGlossary()
    table = TableRenderings({ZH: "emergency department waiting time"})
    provider = CrossLanguageResearch(LocalCorpusResearch.from_directory(), ModelQueryRenderer(table), glossary)
    found = await provider.search(ZH, session_id=None)
    assert isinstance(found, ResearchResults) and found.rendered_by == "model"
    assert found.renderings == ("emergency department waiting time",) and found.warning == ""
    assert glossary.asked == []


async def test_an_english_query_finds_a_chinese_and_a_japanese_uploaded_document() -> None:
    zh_note = SessionDocument(
        "session://7/zh-note", "急诊分诊记录", "急诊科高峰时段病人的候诊时间超过两个小时，分诊护士人手不足。", _NOW
    )
    ja_note = SessionDocument(
        "session://7/ja-note",
        "救急外来の記録",
        "救急外来では夜間に患者の待ち時間が長くなり、医師が不足している。",
        _NOW,
    )
    documents = [zh_note, ja_note]
    with_glosses = LocalCorpusResearch.from_directory(glossary=DictionaryGlossary())
    found = await with_glosses.search(
        "emergency patient waiting time", session_id=SESSION, limit=8, session_documents=documents
    )
    assert {zh_note.source, ja_note.source} <= {h.source for h in found}
    hit = next(h for h in found if h.source == zh_note.source)
    assert "急诊" in hit.snippet  # the snippet is the document's own words, not its gloss
    without = LocalCorpusResearch.from_directory()
    plain = await without.search(
        "emergency patient waiting time", session_id=SESSION, limit=8, session_documents=documents
    )
    assert not {zh_note.source, ja_note.source} & {h.source for h in plain}


async def test_english_text_is_not_glossed() -> None:
    assert DictionaryGlossary().english_gloss("emergency department waiting time") == ""


async def test_without_its_dictionary_package_the_query_is_searched_as_written_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bilingual_dictionary, "_PACKAGE", "no_such_dictionary_package")
    bilingual_dictionary.lexicon_for.cache_clear()
    try:
        glossary = DictionaryGlossary()
        found = await CrossLanguageResearch(LocalCorpusResearch.from_directory(), None, glossary).search(
            ZH, session_id=None
        )
    finally:
        bilingual_dictionary.lexicon_for.cache_clear()
    assert isinstance(found, ResearchResults) and list(found) == [] and found.rendered_by == ""
    assert "offline model cannot translate" in found.warning and "no_such_dictionary_package" in glossary.unavailable

"""Offline (no model renders queries), a Chinese or Japanese session researches in its own words: the
research tool searches the query's bilingual-dictionary gloss too, says so (`rendered_by`), and the
gloss is what the research gates compare English results with, so they open on relevant results."""

from __future__ import annotations

from uuid import UUID

from support.fixed_clock import CountingIds, FixedClock

from forge.agent.phases.shared_tools import ResearchInput, research
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.rules.phase_gates import check_research_before_antithesis, check_research_before_falsification
from forge.core.session.forge_state import ForgeState
from forge.research.bilingual_dictionary import DictionaryGlossary
from forge.research.cross_language import CrossLanguageResearch
from forge.research.local_corpus import LocalCorpusResearch

ZH_THESIS = "按到达率动态调整分诊排班可以缩短急诊等待时间"
ZH_QUERY = "急诊 分诊 等待时间"
JA_CLAIM = "救急外来のトリアージを到着率に合わせて調整すると待ち時間が短くなる"
JA_QUERY = "救急 トリアージ 待ち時間"


def context(state: ForgeState, glossary: DictionaryGlossary | None) -> ToolContext:
    provider = CrossLanguageResearch(LocalCorpusResearch.from_directory(), None, glossary)
    return ToolContext(SessionId(UUID(int=3)), state, provider, FixedClock(), CountingIds())


async def test_an_offline_chinese_thesis_opens_its_gate_from_a_query_in_its_own_words() -> None:
    state = ForgeState(problem="如何缩短急诊等待时间？", current_phase=Phase.SYNTHESIZE)
    outcome = await research(context(state, DictionaryGlossary()), ResearchInput(query=ZH_QUERY))
    assert outcome.payload["rendered_by"] == "dictionary"
    assert isinstance(outcome.payload["searched_as"], list) and len(outcome.payload["searched_as"]) == 2
    assert check_research_before_antithesis(state, ZH_THESIS) is None


async def test_an_offline_japanese_claim_opens_its_gate_from_a_query_in_its_own_words() -> None:
    state = ForgeState(problem="救急外来の待ち時間を短くするには？", current_phase=Phase.VALIDATE)
    await research(context(state, DictionaryGlossary()), ResearchInput(query=JA_QUERY))
    assert check_research_before_falsification(state, JA_CLAIM) is None


async def test_without_the_dictionary_the_same_offline_research_does_not_open_the_gate() -> None:
    state = ForgeState(problem="如何缩短急诊等待时间？", current_phase=Phase.SYNTHESIZE)
    outcome = await research(context(state, None), ResearchInput(query=ZH_QUERY))
    assert "rendered_by" not in outcome.payload
    assert check_research_before_antithesis(state, ZH_THESIS) is not None

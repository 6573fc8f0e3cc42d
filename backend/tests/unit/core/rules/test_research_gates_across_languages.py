"""The research gates across languages: a Chinese or Japanese claim is researched by a query in its own
words whose English rendering found English results about it; without that rendering, English results
do not open the gate (only the fruitless-search fallback would)."""

from __future__ import annotations

from datetime import UTC, datetime

from forge.core.domain_types import Phase
from forge.core.rules.phase_gates import (
    EXHAUSTED_QUERIES,
    check_research_before_antithesis,
    check_research_before_cross_domain,
    check_research_before_falsification,
)
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit, ResearchRecord

_NOW = datetime(2026, 12, 2, tzinfo=UTC)
ENGLISH_HIT = ResearchHit(
    "corpus://applications/patient-flow",
    "Patient flow in emergency departments",
    "Emergency department waiting times grow with triage queue utilisation.",
)
UNRELATED_HIT = ResearchHit("corpus://thermo", "Entropy", "The second law of thermodynamics.")

ZH_THESIS = "按到达率动态调整分诊排班可以缩短急诊等待时间"
ZH_QUERY = "急诊 分诊 等待时间"
ZH_RENDERING = "emergency department triage waiting time"
JA_CLAIM = "救急外来のトリアージを到着率に合わせて調整すると待ち時間が短くなる"
JA_QUERY = "救急 トリアージ 待ち時間"
JA_RENDERING = "emergency triage waiting time"


def record(query: str, hits: tuple[ResearchHit, ...], phase: Phase, renderings: tuple[str, ...] = ()) -> ResearchRecord:
    return ResearchRecord(query, hits, phase, 0, _NOW, "local corpus", renderings=renderings)


def state(phase: Phase, *records: ResearchRecord) -> ForgeState:
    s = ForgeState(current_phase=phase)
    for r in records:
        s.record_research(r)
    return s


def test_a_chinese_thesis_opens_with_english_results_found_by_the_rendering_of_its_query() -> None:
    s = state(Phase.SYNTHESIZE, record(ZH_QUERY, (ENGLISH_HIT,), Phase.SYNTHESIZE, (ZH_RENDERING,)))
    assert check_research_before_antithesis(s, ZH_THESIS) is None


def test_a_japanese_claim_opens_with_english_results_found_by_the_rendering_of_its_query() -> None:
    s = state(Phase.VALIDATE, record(JA_QUERY, (ENGLISH_HIT,), Phase.VALIDATE, (JA_RENDERING,)))
    assert check_research_before_falsification(s, JA_CLAIM) is None


def test_english_results_without_a_rendering_do_not_open_a_chinese_thesis() -> None:
    s = state(Phase.SYNTHESIZE, record(ZH_QUERY, (ENGLISH_HIT,), Phase.SYNTHESIZE))
    violation = check_research_before_antithesis(s, ZH_THESIS)
    assert violation is not None and violation.code is ErrorCode.ANTITHESIS_NOT_SEARCHED


def test_a_rendering_whose_results_are_about_something_else_does_not_open_the_gate() -> None:
    s = state(Phase.VALIDATE, record(JA_QUERY, (UNRELATED_HIT,), Phase.VALIDATE, (JA_RENDERING,)))
    violation = check_research_before_falsification(s, JA_CLAIM)
    assert violation is not None and violation.code is ErrorCode.FALSIFICATION_NOT_SEARCHED


def test_a_rendered_query_that_does_not_name_the_claim_does_not_open_it() -> None:
    """The rendering carries the query's meaning, so the query must name the claim in its own words."""
    s = state(Phase.VALIDATE, record("蚁群 觅食", (ENGLISH_HIT,), Phase.VALIDATE, (ZH_RENDERING,)))
    assert check_research_before_falsification(s, ZH_THESIS) is not None


def test_a_chinese_query_rendered_in_english_names_an_english_source_domain() -> None:
    s = state(Phase.EXPLORE, record("蚁群 觅食 路径", (), Phase.EXPLORE, ("ant colony foraging paths",)))
    assert check_research_before_cross_domain(s, "Ant colony foraging") is None
    assert (
        check_research_before_cross_domain(
            state(Phase.EXPLORE, record("蚁群 觅食", (), Phase.EXPLORE)), "Ant colony foraging"
        )
        is not None
    )


def test_the_fruitless_search_fallback_still_needs_distinct_queries() -> None:
    s = state(
        Phase.VALIDATE,
        *(record(f"{JA_QUERY} {n}", (), Phase.VALIDATE, (JA_RENDERING,)) for n in range(EXHAUSTED_QUERIES)),
    )
    assert check_research_before_falsification(s, JA_CLAIM) is None
    one = state(Phase.VALIDATE, record(JA_QUERY, (UNRELATED_HIT,), Phase.VALIDATE, (JA_RENDERING,)))
    assert check_research_before_falsification(one, JA_CLAIM) is not None

"""Which queries need an English rendering, and how the hits of a query and its rendering merge."""

from __future__ import annotations

from forge.core.research.query_renderings import merged_by_query, needs_rendering
from forge.core.session.records import ResearchHit


def hit(source: str) -> ResearchHit:
    return ResearchHit(source, source.upper(), "snippet")


def test_chinese_and_japanese_queries_need_a_rendering_and_english_ones_do_not() -> None:
    assert needs_rendering("急诊 等待时间 排队")
    assert needs_rendering("待ち時間 救急 病院")
    assert not needs_rendering("emergency department waiting queue")
    assert not needs_rendering("Kingman 公式 queue variability waiting")  # English with a Chinese word stays English


def test_hits_interleave_by_rank_each_source_once_and_say_which_query_found_it() -> None:
    merged = merged_by_query([("急诊", [hit("a"), hit("b")]), ("emergency", [hit("b"), hit("c"), hit("d")])], limit=3)
    assert [h.source for h in merged.hits] == ["a", "b", "c"]
    assert merged.found_by == {"a": "急诊", "b": "emergency", "c": "emergency"}


def test_a_query_that_found_nothing_leaves_the_rendering_s_hits_in_rank_order() -> None:
    merged = merged_by_query([("急诊", []), ("emergency", [hit("x"), hit("y")])], limit=5)
    assert [h.source for h in merged.hits] == ["x", "y"] and set(merged.found_by.values()) == {"emergency"}

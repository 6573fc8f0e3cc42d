"""The offline model drives the real agent loop through all six phases, answered by the autopilot.

Each session runs in memory: a ToolContext over a ForgeState, the shipped local corpus as research,
a fixed clock and counting ids; every review is answered by AutopilotPolicy(rounds=2) through
apply_review, and the next phase is kicked off on the same conversation.
"""

from __future__ import annotations

import re

import pytest
from support.offline_session import run_session

from forge.core.document.render import DOCUMENT_SECTIONS
from forge.core.domain_types import Phase
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.offline.offline_model import OfflineModel
from forge.research.local_corpus import LocalCorpusResearch

HOSPITAL = "How can a hospital cut emergency wait times without more staff?"
CHURN = "How can we reduce churn of open-source contributors?"
HEAT = "How can a city keep heat-wave deaths down with a fixed budget?"


@pytest.fixture(scope="module")
def research() -> LocalCorpusResearch:
    return LocalCorpusResearch.from_directory()


@pytest.fixture(scope="module")
def model() -> OfflineModel:
    return OfflineModel()


def _researched_sources(state: ForgeState) -> set[str]:
    return {hit.source for record in state.research_log for hit in record.hits}


def _cited_sources(document: str) -> set[str]:
    return set(re.findall(r"\]\(([^)\s]+)\)", document))


def _stable(document: str) -> str:
    return re.sub(r"^- (Session|Generated): .*$", "", document, flags=re.MULTILINE)


@pytest.mark.parametrize("problem", [HOSPITAL, CHURN, HEAT])
async def test_offline_session_reaches_the_document_through_every_phase(
    problem: str, model: OfflineModel, research: LocalCorpusResearch
) -> None:
    run = await run_session(problem, model, research)
    order = [phase for phase, _ in run.phases]
    assert order[:6] == [
        Phase.DECOMPOSE,
        Phase.EXPLORE,
        Phase.SYNTHESIZE,
        Phase.VALIDATE,
        Phase.BUILD,
        Phase.SYNTHESIZE,
    ]
    assert order[-1] == Phase.CRYSTALLIZE and order[-2] == Phase.BUILD
    assert {r for _, r in run.phases} == {0, 1}
    assert not [e for e in run.events if e.type == EventType.ERROR]
    for title in DOCUMENT_SECTIONS:
        assert f"## {title}" in run.document
    assert run.state.knowledge_graph_nodes
    assert len({a.source_domain for a in run.state.cross_domain_analogies}) >= 2
    assert _cited_sources(run.document) <= _researched_sources(run.state)
    assert "offline model (deterministic, no network)" in run.document


async def test_different_problems_give_different_knowledge(model: OfflineModel, research: LocalCorpusResearch) -> None:
    runs = [await run_session(p, model, research) for p in (HOSPITAL, CHURN, HEAT)]
    fundamentals = [tuple(r.state.fundamentals) for r in runs]
    analogies = [tuple(a.description for a in r.state.cross_domain_analogies) for r in runs]
    claims = [tuple(c.text for c in r.state.all_claims) for r in runs]
    for values in (fundamentals, analogies, claims):
        assert len(set(values)) == len(values)
    domain_sets = [frozenset(a.source_domain for a in r.state.cross_domain_analogies) for r in runs]
    assert len(set(domain_sets)) == len(domain_sets)


async def test_the_same_problem_gives_the_same_document(model: OfflineModel, research: LocalCorpusResearch) -> None:
    first = await run_session(HOSPITAL, model, research)
    second = await run_session(HOSPITAL, OfflineModel(), research)
    assert _stable(first.document) == _stable(second.document)


async def test_the_queueing_problem_meets_queueing_theory(model: OfflineModel, research: LocalCorpusResearch) -> None:
    run = await run_session(HOSPITAL, model, research)
    assert run.state.cross_domain_analogies[0].source_domain == "Queueing theory"
    assert all(c.evidence for c in run.state.knowledge_graph_nodes)


async def test_each_build_summary_reports_the_thin_regions_its_review_offers(
    model: OfflineModel, research: LocalCorpusResearch
) -> None:
    run = await run_session(HOSPITAL, model, research)
    offered = [len(e.data["curiosity"]) for e in run.events if e.type == EventType.REVIEW_BUILD]
    reported = [
        str(e.data).split("CURIOSITY → ", 1)[1].split("\n", 1)[0]
        for e in run.events
        if e.type == EventType.AGENT_TEXT and "CURIOSITY → " in str(e.data)
    ]
    assert len(offered) == len(reported) == 2 and offered[0] > 0  # the first round's graph has thin regions
    for count, line in zip(offered, reported, strict=True):
        expected = f"found {count} thin region(s)" if count else "found no thin region"
        assert expected in line, line

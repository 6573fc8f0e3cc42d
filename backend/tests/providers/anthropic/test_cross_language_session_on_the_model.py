"""Issue #38's "done when" for research: a Chinese and a Japanese session through the real Anthropic SDK
(a scripted Messages API behind an injected transport) research the shipped English corpus with queries
in their own language — the model renders each query in English through the same SDK — cite what that
found, and open the antithesis and falsification gates at the first search, not by the fruitless-search
fallback: the verifier, asked through the same SDK, judged the English results about the Chinese or
Japanese thesis and claim (meaning, not shared words)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
from providers.anthropic.fake_anthropic_api import API_KEY, MODEL, Sleeps
from providers.sessions.offline_decisions_api import OfflineDecisionsApi, observe_requests
from research.renderings import TableRenderings
from support.agent_run import apply_step
from support.fixed_clock import CountingIds, FixedClock
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.call_model import Live
from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.bootstrap.adapters import build_structured_model
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.core.domain_types import Phase, ReviewType, SessionId
from forge.core.llm.messages import Usage
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.inputs import ClaimsReview
from forge.core.rules.phase_gates import EXHAUSTED_QUERIES
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.engine.verify.research_relevance import RelevanceContext, ResearchRelevanceOutput, ResultRelevance
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.providers.anthropic_model import AnthropicModel, anthropic_model_from_settings
from forge.providers.structured_output import SchemaStructuredModel
from forge.research.cross_language import CrossLanguageResearch, ModelQueryRenderer
from forge.research.local_corpus import LocalCorpusResearch

SESSIONS: dict[str, dict[str, str]] = {
    "zh": {
        "problem": "如何在不增加人手的情况下缩短医院急诊的等待时间？",
        "thesis_query": "急诊 排队 等待时间 利用率",
        "thesis_english": "emergency department queue waiting time utilization",
        "thesis": "急诊排队的等待时间在利用率接近满负荷时急剧上升，因此削峰可以缩短等待时间",
        "antithesis": "削峰会把病人推迟到其他时段，排队总量不变，等待时间并不缩短。",
        "claim": "在利用率高于85%的急诊，把轻症病人分流到快速通道可将排队等待时间缩短15%。",
        "claim_query": "急诊 排队 等待时间 快速通道",
        "claim_english": "emergency department queue waiting time fast track",
        "falsifiable": "若8周内中位等待时间未比基线下降10%，则该主张不成立。",
    },
    "ja": {
        "problem": "人員を増やさずに病院の救急外来の待ち時間を短縮するには？",
        "thesis_query": "救急外来 待ち時間 待ち行列 稼働率",
        "thesis_english": "emergency department waiting time queue utilization",
        "thesis": "救急外来の待ち行列の待ち時間は稼働率が満杯に近づくと急増するため、ピークを削れば待ち時間は短くなる",
        "antithesis": "ピークを削っても患者は別の時間帯に移るだけで、待ち行列の総量は変わらない。",
        "claim": "稼働率85%超の救急外来では、軽症患者をファストトラックに振り分けると待ち行列の待ち時間が15%短くなる。",
        "claim_query": "救急外来 待ち行列 待ち時間 ファストトラック",
        "claim_english": "emergency department queue waiting time fast track",
        "falsifiable": "8週間で待ち時間の中央値が基準より10%下がらなければ、この主張は成り立たない。",
    },
}


async def first_source(corpus: LocalCorpusResearch, english: str) -> str:
    return (await corpus.search(english, session_id=None, limit=1))[0].source


class RendersAndJudges:
    """The model's two roles here: it renders queries (a table) and judges a result about a thesis or claim
    when it is the one the English rendering of that subject's query found first."""

    def __init__(self, renderings: TableRenderings, about: dict[str, str]) -> None:
        self.renderings, self.about = renderings, about

    @property
    def label(self) -> str:
        return "scripted verifier"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        context = request.offline_context
        if not isinstance(context, RelevanceContext):
            return await self.renderings.generate(request)
        verdicts = [
            ResultRelevance(
                result=n, reason="同じ機制 / 同一机制", about_subject=h.source == self.about[context.subject]
            )
            for n, h in enumerate(context.offered, start=1)
        ]
        return StructuredResult(ResearchRelevanceOutput(results=verdicts), Usage(300, 40), 1)


async def script(s: dict[str, str], corpus: LocalCorpusResearch) -> ScriptedModel:
    for_thesis = {"evidence_sources": [await first_source(corpus, s["thesis_english"])]}
    for_claim = {"evidence_sources": [await first_source(corpus, s["claim_english"])]}
    return ScriptedModel([
        turn(call("research", {"query": s["thesis_query"]})),
        turn(
            call("state_thesis", {"thesis": s["thesis"], **for_thesis}),
            call("find_antithesis", {"claim_index": 0, "antithesis": s["antithesis"], **for_thesis}),
            call("create_synthesis", {"claim_index": 0, "claim_text": s["claim"], "falsifiability_condition": s["falsifiable"]}),
        ),
        turn(text="OK"),
        turn(call("research", {"query": s["claim_query"]})),
        turn(
            call("attempt_falsification", {"claim_index": 0, "approach": s["claim_query"], "result": s["antithesis"], "survived": True, **for_claim}),
            call("check_novelty", {"claim_index": 0, "closest_prior_work": s["thesis"], "assessment": s["claim"], "is_novel": True}),
            call("score_claim", {"claim_index": 0, "novelty": 0.6, "groundedness": 0.5, "falsifiability": 0.8, "significance": 0.6, "rationale": s["falsifiable"]}),
        ),
        turn(text="OK"),
    ])  # fmt: skip


@pytest.fixture
async def http_client(api: OfflineDecisionsApi) -> AsyncIterator[httpx2.AsyncClient]:
    async with httpx2.AsyncClient(transport=httpx2.MockTransport(api)) as client:
        yield client


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch, language: str) -> OfflineDecisionsApi:
    observe_requests(monkeypatch, AnthropicModel, SchemaStructuredModel)
    s = SESSIONS[language]
    table = TableRenderings({s["thesis_query"]: s["thesis_english"], s["claim_query"]: s["claim_english"]})
    return OfflineDecisionsApi(ScriptedModel([]).complete, RendersAndJudges(table, {}))  # the test sets the rest


@pytest.mark.parametrize("language", ["zh", "ja"])
async def test_a_session_in_its_own_language_researches_the_english_corpus_and_opens_the_gates(
    language: str, api: OfflineDecisionsApi, http_client: httpx2.AsyncClient
) -> None:
    s, corpus = SESSIONS[language], LocalCorpusResearch.from_directory()
    scripted = await script(s, corpus)
    api.agent = scripted.complete
    assert isinstance(api.structured, RendersAndJudges)
    api.structured.about = {
        s["thesis"]: await first_source(corpus, s["thesis_english"]),
        s["claim"]: await first_source(corpus, s["claim_english"]),
    }
    model = anthropic_model_from_settings(API_KEY, MODEL, None, http_client, web_search_max_uses=0, sleep=Sleeps())
    renderer = build_structured_model(ModelRoute(Provider.ANTHROPIC, MODEL), model, ())
    ids = CountingIds()
    state = ForgeState(problem=s["problem"], current_phase=Phase.SYNTHESIZE)
    ctx = ToolContext(
        SessionId(ids()),
        state,
        CrossLanguageResearch(corpus, ModelQueryRenderer(renderer)),
        FixedClock(),
        ids,
        model.label,
    )
    ctx.relevance_judge = renderer  # the verifier's structured model, through the SDK
    runner, history, errors, results = AgentRunner(model), [phase_kickoff(state)], [], []
    for _ in range(2):  # SYNTHESIZE to its claims review, then VALIDATE to the verdicts
        async for out in runner.run(ctx, history):
            if not isinstance(out, Live):
                history = apply_step(history, out)
                errors += [e.data for e in out.events if e.type == EventType.TOOL_ERROR]
                results += [t for t in out.tool_calls if t.name == "research"]
        if ctx.state.awaiting_input_type is ReviewType.CLAIMS_REVIEW:
            applied = apply_review(ctx.state, ClaimsReview(), ids)
            assert isinstance(applied, ReviewApplied), applied
            ctx.state = applied.state
            history = [*history, phase_kickoff(ctx.state)]

    assert errors == [] and api.refusals == [] and api.failures == []
    assert ctx.state.awaiting_input_type is ReviewType.VERDICTS
    claim = ctx.state.current_round_claims[0]
    assert claim.antithesis_text == s["antithesis"] and claim.falsification_summary  # both gates opened
    records = ctx.state.research_log
    assert [(r.query, r.renderings) for r in records] == [
        (s["thesis_query"], (s["thesis_english"],)),
        (s["claim_query"], (s["claim_english"],)),
    ]  # one search per gate: fewer than the EXHAUSTED_QUERIES the fruitless-search fallback needs
    assert len(records) < EXHAUSTED_QUERIES and all(r.hits for r in records)
    assert all(h.source.startswith("corpus://") for r in records for h in r.hits)
    rendered, judged = "render_query_in_english", "judge_research_relevance"
    assert api.schema_names == [rendered, judged, rendered, judged]  # through the SDK
    shown: list[dict[str, Any]] = [r.output for r in results]  # what the model read: which query found what
    assert shown[0]["searched_as"] == [s["thesis_query"], s["thesis_english"]]
    assert {r["found_by"] for r in shown[0]["results"]} == {s["thesis_english"]}

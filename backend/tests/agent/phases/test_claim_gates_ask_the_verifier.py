"""With a real verifier, find_antithesis and attempt_falsification ask it which of this phase's read
results bear on the claim (issue #38): a Chinese thesis opens on English research it judged about it
— which shared words cannot see — the call is billed, a judgment of "none" refuses with the model's
reasons, and a failed call falls back to words and says so. The problem and domain gates ask it only
when no query named their subject."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from support.fixed_clock import CountingIds, FixedClock

from forge.agent.phases.decompose_tools import StateOfArtInput, map_state_of_art
from forge.agent.phases.research_relevance_gate import judge_where_words_fail
from forge.agent.phases.shared_tools import ResearchInput, research
from forge.agent.phases.synthesize_tools import AntithesisInput, ThesisInput, find_antithesis, state_thesis
from forge.agent.phases.validate_tools import FalsificationInput, attempt_falsification
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.llm.messages import Usage
from forge.core.rules.phase_gates import check_research_before_cross_domain
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.engine.verify.research_relevance import RelevanceContext, ResearchRelevanceOutput, ResultRelevance
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.research.local_corpus import LocalCorpusResearch

ZH_THESIS = "按到达率动态调整分诊排班可以缩短急诊等待时间。"
EN_QUERY = "emergency department triage arrival rate waiting"
ANTITHESIS = "动态排班会增加交接错误，反而延长等待。"


class ScriptedVerifier:
    """Judges the results whose source contains `about` as about the claim, the rest not; or fails."""

    def __init__(self, about: str = "", fails: bool = False) -> None:
        self.requests: list[StructuredRequest[Any]] = []
        self._about, self._fails = about, fails

    @property
    def label(self) -> str:
        return "anthropic:claude-sonnet-4-6"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.requests.append(request)
        if self._fails:
            return StructuredFailure("invalid output after retries", Usage(500, 60), 3)
        context = request.offline_context
        assert isinstance(context, RelevanceContext)
        results = [
            ResultRelevance(result=n, reason="同一机制" if hit else "无关", about_subject=hit)
            for n, hit in ((n, bool(self._about) and self._about in h.source) for n, h in enumerate(context.offered, 1))
        ]
        return StructuredResult(ResearchRelevanceOutput(results=results), Usage(800, 120), 1)


async def session_with_thesis(verifier: ScriptedVerifier | None, phase: Phase = Phase.SYNTHESIZE) -> ToolContext:
    state = ForgeState(problem="如何在不增加人手的情况下缩短急诊等待时间？", current_phase=Phase.SYNTHESIZE)
    ctx = ToolContext(SessionId(UUID(int=5)), state, LocalCorpusResearch.from_directory(), FixedClock(), CountingIds())
    found = await research(ctx, ResearchInput(query=EN_QUERY))
    sources = [r["source"] for r in found.payload["results"]]  # type: ignore[index]
    assert (await state_thesis(ctx, ThesisInput(thesis=ZH_THESIS, evidence_sources=sources[:1]))).violation is None
    if phase is Phase.VALIDATE:
        state.enter_phase(Phase.VALIDATE)
        await research(ctx, ResearchInput(query=EN_QUERY))
    ctx.relevance_judge = verifier
    return ctx


def spent(ctx: ToolContext) -> int:
    return sum(s.tokens for s in ctx.state.spend_by_phase.values())


async def test_a_chinese_thesis_opens_at_the_first_english_search_the_verifier_judged_about_it() -> None:
    without = await session_with_thesis(None)
    refused = await find_antithesis(without, AntithesisInput(claim_index=0, antithesis=ANTITHESIS, evidence_sources=[]))
    assert refused.violation is not None and refused.violation.code == ErrorCode.ANTITHESIS_NOT_SEARCHED

    verifier = ScriptedVerifier(about="patient-flow")
    ctx = await session_with_thesis(verifier)
    before = spent(ctx)
    outcome = await find_antithesis(ctx, AntithesisInput(claim_index=0, antithesis=ANTITHESIS, evidence_sources=[]))
    assert outcome.violation is None and outcome.payload["antithesis_recorded"] is True
    (request,) = verifier.requests
    assert ZH_THESIS in request.input and "patient-flow" in request.input
    assert spent(ctx) - before == 920  # the judgment is billed like every model call


async def test_when_the_verifier_judges_no_result_about_the_claim_the_gate_refuses_with_its_reasons() -> None:
    ctx = await session_with_thesis(ScriptedVerifier(about=""), Phase.VALIDATE)
    args = FalsificationInput.model_validate(
        {
            "claim_index": 0,
            "approach": "在两家医院做对照试验",
            "result": "等待时间没有缩短",
            "survived": False,
            "evidence_sources": [],
        }
    )
    outcome = await attempt_falsification(ctx, args)
    assert outcome.violation is not None and outcome.violation.code == ErrorCode.FALSIFICATION_NOT_SEARCHED
    assert "anthropic:claude-sonnet-4-6 read the" in outcome.violation.message and "无关" in outcome.violation.message


async def test_a_failed_judgment_falls_back_to_words_and_says_so() -> None:
    ctx = await session_with_thesis(ScriptedVerifier(fails=True))
    outcome = await find_antithesis(ctx, AntithesisInput(claim_index=0, antithesis=ANTITHESIS, evidence_sources=[]))
    assert outcome.violation is not None  # words cannot see the English results are about the Chinese thesis
    (notice,) = outcome.notices
    assert notice.type == EventType.RESEARCH_WARNING and "judged by shared words instead" in notice.data["message"]
    assert spent(ctx) == 560  # a failed call's tokens are billed too


async def test_a_tool_retried_on_the_same_research_is_not_judged_or_billed_twice() -> None:
    verifier = ScriptedVerifier(about="")
    ctx = await session_with_thesis(verifier)
    args = AntithesisInput(claim_index=0, antithesis=ANTITHESIS, evidence_sources=[])
    first, second = await find_antithesis(ctx, args), await find_antithesis(ctx, args)
    assert first.violation is not None and second.violation is not None
    assert len(verifier.requests) == 1 and spent(ctx) == 920
    await research(ctx, ResearchInput(query="fast track triage emergency"))  # new research: judged again
    await find_antithesis(ctx, args)
    assert len(verifier.requests) == 2


async def test_the_problem_gate_opens_on_an_english_search_the_verifier_judged_about_a_chinese_problem() -> None:
    state = ForgeState(problem="如何在不增加人手的情况下缩短急诊等待时间？", current_phase=Phase.DECOMPOSE)
    ctx = ToolContext(SessionId(UUID(int=6)), state, LocalCorpusResearch.from_directory(), FixedClock(), CountingIds())
    found = await research(ctx, ResearchInput(query=EN_QUERY))
    sources = [r["source"] for r in found.payload["results"]][:1]  # type: ignore[index]
    args = StateOfArtInput(summary="Patient-flow studies match triage staffing to arrivals.", sources=sources)
    refused = await map_state_of_art(ctx, args)  # words: no query named the Chinese problem
    assert refused.violation is not None and refused.violation.code == ErrorCode.STATE_OF_ART_NOT_RESEARCHED
    verifier = ScriptedVerifier(about="patient-flow")
    ctx.relevance_judge = verifier
    assert (await map_state_of_art(ctx, args)).violation is None
    assert len(verifier.requests) == 1 and "<subject>\n如何在不增加人手" in verifier.requests[0].input


async def test_a_query_naming_the_domain_opens_its_gate_without_asking_the_verifier() -> None:
    state = ForgeState(problem="Cut emergency waits", current_phase=Phase.EXPLORE)
    ctx = ToolContext(SessionId(UUID(int=7)), state, LocalCorpusResearch.from_directory(), FixedClock(), CountingIds())
    await research(ctx, ResearchInput(query="ant colony stigmergy pheromone trails"))
    verifier = ScriptedVerifier(about="")
    ctx.relevance_judge = verifier
    assert check_research_before_cross_domain(state, "ant colony stigmergy") is None
    outcome = await judge_where_words_fail(ctx, "ant colony stigmergy", None)
    assert outcome.judgment is None and verifier.requests == []

"""The VERIFY stage at VALIDATE verifies the round's claims and the AnswerPack's ranking candidates
without a verdict in ONE pass (k + 1 scoring calls and one prior-art call over both), then parts the
verdicts again: the claims' into `verifications`, the candidates' into `hypothesis_verifications`, and
the stage event still counts each side's items, calls and searches."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.tool_context import ToolContext
from forge.core.domain_types import ClaimId, ClaimType, Phase, SessionId
from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.hypotheses.pool import Hypothesis, HypothesisId, gate_summary
from forge.core.llm.messages import Usage
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ResearchHit
from forge.core.verify.claim_verification import VerifyInputs, compose_verification
from forge.core.verify.verdicts import LogicVerdict, VerifySample
from forge.engine.verify.requests import (
    PriorArtBatch,
    PriorArtItem,
    PriorArtJudgement,
    PriorArtOutput,
    SampleBatch,
    VerifyItemScores,
    VerifyScoresOutput,
)
from forge.offline.offline_model import OfflineModel
from forge.ports import StructuredRequest, StructuredResult
from forge.services.stages.verify_claims import VerifyStage

HIT = ResearchHit("https://prior.example/triage", "Dynamic triage staffing", "Dynamic triage cut waits 10%.")


class NovelVerifier:
    """Scores every item of a batch as novel (so each is searched), with a concept query naming the
    item; judges the prior art of every item it is shown."""

    label = "scripted verifier"

    def __init__(self) -> None:
        self.requests: list[StructuredRequest[Any]] = []

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any]:
        self.requests.append(request)
        context = request.offline_context
        if isinstance(context, PriorArtBatch):
            judged = [
                PriorArtJudgement(
                    item_id=c.item_id,
                    rationale="scripted prior art",
                    kinds=[PriorArtItem(kind=r.kind, closest_result=1, similarity=0.2) for r in c.results],
                )
                for c in context.items
            ]
            return StructuredResult(PriorArtOutput(items=judged), Usage(10, 2), 1)
        assert isinstance(context, SampleBatch)
        scores = [
            VerifyItemScores(
                item_id=m.item_id,
                rationale="scripted sample",
                analogy_validity=8,
                internal_consistency=8,
                causal_rigor=8,
                novelty=8,
                concept_query=f"prior art of {m.item_id}",
            )
            for m in context.items
        ]
        return StructuredResult(VerifyScoresOutput(items=scores), Usage(100, 20), 1)


def claim(n: int) -> Claim:
    return Claim(
        ClaimId(UUID(int=n)), f"Lever {n} cuts median emergency waits by {n}0% within 8 weeks.",
        ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE, thesis_text="Triage staffing follows arrivals.",
        falsifiability_condition="Median wait does not fall 10% within 8 weeks.",
    )  # fmt: skip


def hypothesis(n: int) -> Hypothesis:
    observable = "door-to-doctor minutes per patient each evening"
    rows = tuple(
        MappingRow(f"source {i}", "drives", f"target {i}", "drives", MappingType.RELATION, "g", observable)
        for i in range(6)
    )
    return Hypothesis(
        HypothesisId(f"biso-0-queueing-{n}"), "queueing", "Queueing", "s", f"Hypothesis {n}",
        f"Throttle evening arrivals by {n} per hour", "arrivals are throttled like packets", MappingTable(rows),
        observable, ("fails in a surge",), gate_summary(MappingTable(rows), observable),
    )  # fmt: skip


async def test_claims_and_unjudged_candidates_are_verified_in_one_pass_and_parted_again() -> None:
    pool = [hypothesis(1), hypothesis(2), hypothesis(3)]
    earlier = compose_verification(VerifyInputs(ClaimId(UUID(int=90)), "v", (VerifySample(LogicVerdict(7, 7, 7), 5),)))

    async def read_pool(_: SessionId) -> list[Hypothesis]:
        return pool

    state = ForgeState(problem="How can an emergency department cut waits without more staff?")
    state.current_phase = Phase.VALIDATE
    state.current_round_claims = [claim(1), claim(2)]
    state.hypothesis_verifications["biso-0-queueing-2"] = earlier  # judged before: not sent again
    verifier = NovelVerifier()
    stage = VerifyStage(verifier, OfflineModel(), read_pool=read_pool)
    ids = CountingIds()
    events = await stage.run(
        ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids), lambda progress: None
    )
    items = ["claim-1", "claim-2", "biso-0-queueing-1", "biso-0-queueing-3"]
    assert [r.name for r in verifier.requests] == ["verify_claims"] * 4 + ["judge_prior_art"]
    batches = [r.offline_context for r in verifier.requests]
    scoring = [b for b in batches if isinstance(b, SampleBatch)]
    assert len(scoring) == 4 and all(sorted(m.item_id for m in b.items) == sorted(items) for b in scoring)
    # each item judged on its own three searches: claim 1 and candidate 1 share index 0, not results
    prior_art = batches[4]
    assert isinstance(prior_art, PriorArtBatch) and [c.item_id for c in prior_art.items] == items
    for context in prior_art.items:
        assert len(context.results) == 3 and f"prior art of {context.item_id}" in [r.query for r in context.results]
    assert set(state.verifications) == {claim(1).id, claim(2).id}
    assert set(state.hypothesis_verifications) == {"biso-0-queueing-1", "biso-0-queueing-2", "biso-0-queueing-3"}
    assert state.hypothesis_verifications["biso-0-queueing-2"] is earlier
    assert len(state.research_log) == 12
    (stage_event,) = [e for e in events if e.type == "engine_stage"]
    counts = stage_event.data["counts"]
    assert (counts["claims"], counts["hypotheses"]) == (2, 2)
    assert (counts["calls"], counts["hypothesis_calls"]) == (5, 5)  # every call shared by both
    assert (counts["searches"], counts["hypothesis_searches"]) == (12, 6)
    assert "ranking candidates (in the same calls" in stage_event.data["summary"]
    assert sum(e.type == "context_usage" for e in events) == 1  # one pass, accounted once


async def test_without_a_pool_reader_only_the_claims_are_verified() -> None:
    state = ForgeState(problem="How can an emergency department cut waits without more staff?")
    state.current_phase = Phase.VALIDATE
    state.current_round_claims = [claim(1)]
    verifier = NovelVerifier()
    ids = CountingIds()
    events = await VerifyStage(verifier, OfflineModel()).run(
        ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids), lambda progress: None
    )
    (stage_event,) = [e for e in events if e.type == "engine_stage"]
    assert stage_event.data["counts"]["calls"] == 5 and "hypotheses" not in stage_event.data["counts"]
    assert set(state.verifications) == {claim(1).id} and not state.hypothesis_verifications

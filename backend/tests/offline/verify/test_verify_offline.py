"""The offline verifier answers VERIFY's batched requests: one labelled answer per item, by its id,
the same scores whether an item is asked with others or alone, forward or reversed; and one prior-art
judgement per item of a batch."""

from uuid import UUID

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.core.domain_types import ClaimId, ClaimType, Phase, SessionId
from forge.core.session.records import Claim, ResearchHit
from forge.engine.verify.requests import (
    PriorArtOutput,
    SampleBatch,
    VerifyScoresOutput,
    claim_material,
    sample_request,
)
from forge.engine.verify.score_claims import VerifySetting, run_verify
from forge.knowledge.load_knowledge import load_source_domains
from forge.offline.offline_structured_model import OfflineStructuredModel
from forge.offline.verify.verify_offline import LABEL, offline_prior_art, offline_verifier
from forge.ports import StructuredResult

PROBLEM = "How can an emergency department cut waits without more staff?"
MODEL = OfflineStructuredModel(
    {VerifyScoresOutput: offline_verifier(load_source_domains()), PriorArtOutput: offline_prior_art}
)


def claim(n: int, text: str, source: str) -> Claim:
    return Claim(
        ClaimId(UUID(int=n)), text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE,
        thesis_text=text, antithesis_text="Handover errors could lengthen waits.",
        falsifiability_condition="Median wait does not fall 10% within 8 weeks.", cross_domain_source=source,
    )  # fmt: skip


CLAIMS = [
    claim(1, "Throttling evening arrivals like packets cuts median waits 15% within 8 weeks.", "queueing"),
    claim(2, "Pooling fast-track beds cuts median waits by 10% in 8 weeks.", "ecology"),
]


async def answer(batch: SampleBatch) -> dict[str, tuple[float, float, float, float]]:
    result = await MODEL.generate(sample_request(batch))
    assert isinstance(result, StructuredResult), result
    return {
        i.item_id: (i.analogy_validity, i.internal_consistency, i.causal_rigor, i.novelty) for i in result.value.items
    }


async def test_one_answer_per_item_by_id_the_same_in_a_batch_alone_and_reversed() -> None:
    items = tuple(claim_material(i, c) for i, c in enumerate(CLAIMS))
    together = await answer(SampleBatch(PROBLEM, items, 0, False))
    alone = {
        **await answer(SampleBatch(PROBLEM, items[:1], 0, False)),
        **await answer(SampleBatch(PROBLEM, items[1:], 0, False)),
    }
    assert set(together) == {"claim-1", "claim-2"} and together == alone
    assert await answer(SampleBatch(PROBLEM, items, 3, True)) == await answer(SampleBatch(PROBLEM, items, 0, False))


async def test_run_verify_over_the_offline_verifier_judges_every_claim_with_batched_calls() -> None:
    hit = ResearchHit("corpus://triage", "Packet throttling of arrivals", "Throttling evening arrivals cut waits.")
    setting = VerifySetting(SessionId(UUID(int=9)), PROBLEM, 0, MemoryResearch([hit]), FixedClock(), CountingIds())
    run = await run_verify(MODEL, [claim_material(i, c) for i, c in enumerate(CLAIMS)], setting)
    searched = sum(v.novelty is not None and v.novelty.searched for v in run.verifications)
    assert searched == 2 and run.calls == 4 + 1  # k + 1 scoring calls and one prior-art call, each for both
    assert all(v.samples == 3 and v.position_consistent is True and LABEL in v.rationale for v in run.verifications)

"""A session on each database whose verifier role is a scripted model answering the scoring call: every
hypothesis BISO and SEARCH put in the pool is scored by it (eight a call, never twice), the scores are
stored with the session and read back, and the supervisor's CP-4 statistics ran on them (the scripted
scores are flat, so Layer 1 sees compression at a spread of 0, which the word rules never give).
The generator is the offline model; the verifier is another (scripted) model."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.fixed_clock import CountingIds, FixedClock
from support.fresh_database import migrated_database_url
from support.recorded_offline_service import autopilot_until
from support.scripted_scorer import ScriptedScorer

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_structured_model
from forge.bootstrap.build_container import build_container
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.config import Settings
from forge.core.domain_types import Phase, SessionId
from forge.core.hypotheses.judged_scores import ScoreSource
from forge.core.saga.records import FindingKind
from forge.core.selection.composite_score import ScoreVector
from forge.engine.verify.score_hypotheses import SCORE_BATCH
from forge.knowledge.load_knowledge import load_source_domains
from forge.offline.offline_model import OfflineModel
from forge.ports import HypothesisFilter
from forge.research.local_corpus import LocalCorpusResearch, load_shipped_corpus
from forge.services.service_results import ServiceFailure

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FLAT = ScoreVector(6.0, 6.0, 6.0, 6.0, 6.0)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_verifier_scores_every_pool_hypothesis_once_and_the_supervisor_reads_them(
    backend: str, tmp_path: Path
) -> None:
    model = OfflineModel(KNOWLEDGE_DIR)
    structured = build_structured_model(ModelRoute(Provider.OFFLINE, ""), model, load_source_domains())
    scorer = ScriptedScorer(lambda h, _: FLAT, inner=structured)
    research = LocalCorpusResearch(load_shipped_corpus(KNOWLEDGE_DIR / "corpus"))
    async with migrated_database_url(backend, tmp_path) as url:
        container = build_container(
            Settings(database_url=url), model=model, structured=structured, verifier_structured=scorer,
            research=research, clock=FixedClock(), new_id=CountingIds(),
        )  # fmt: skip
        try:
            service = container.service
            record = await service.create(PROBLEM)
            assert not isinstance(record, ServiceFailure)
            await service.start_run(record.id)
            state = await autopilot_until(container, record.id, Phase.VALIDATE, reviews=4)
            async with container.uow_factory() as uow:
                page = await uow.hypotheses.page(SessionId(record.id), HypothesisFilter(), limit=1000, offset=0)
        finally:
            await container.close()

    assert state.current_phase is Phase.VALIDATE and state.search is not None
    pool = {h.id for h in page.items}
    asked = [h.id for r in scorer.scoring for h in r.offline_context.hypotheses]
    assert sorted(asked) == sorted(pool)  # every pool hypothesis asked about once, none twice
    assert all(len(r.offline_context.hypotheses) <= SCORE_BATCH for r in scorer.scoring)
    assert set(state.hypothesis_scores) == pool  # stored with the session and read back
    assert all(
        j.source is ScoreSource.VERIFIER and j.scores == FLAT and j.judge == "scripted verifier"
        for j in state.hypothesis_scores.values()
    )
    assert state.supervision is not None
    cp4 = [f for f in state.supervision.findings if f.checkpoint.value == "CP-4"]
    compression = [f for f in cp4 if f.finding.kind is FindingKind.SCORE_COMPRESSION]
    assert compression and compression[0].finding.statistic == 0.0
    assert set(state.search.seeds) <= pool

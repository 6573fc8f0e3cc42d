"""The verifier role: VALIDATE runs on the verifier model, every other phase on the generator."""

from __future__ import annotations

import re
from pathlib import Path

from support.fixed_clock import CountingIds, FixedClock
from support.fresh_database import migrated_sqlite_url

from forge.bootstrap.adapters import KNOWLEDGE_DIR
from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.core.llm.messages import ModelRequest, ModelResponse
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.offline.offline_model import OfflineModel
from forge.research.local_corpus import LocalCorpusResearch, load_shipped_corpus
from forge.services.service_results import ServiceFailure

MARKER = re.compile(r"\[forge phase=(\w+)")


class PhaseRecordingModel:
    """The offline model under another name, noting the phase of every request it answers."""

    def __init__(self, name: str) -> None:
        self._inner = OfflineModel(KNOWLEDGE_DIR)
        self._name = name
        self.phases: list[str] = []

    @property
    def label(self) -> str:
        return self._name

    @property
    def context_window(self) -> int:
        return self._inner.context_window

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.phases.append(MARKER.findall("\n".join(m.text for m in request.messages))[-1])
        return await self._inner.complete(request)


async def test_validate_is_run_by_the_verifier_and_everything_else_by_the_generator(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    generator, verifier = PhaseRecordingModel("generator"), PhaseRecordingModel("verifier")
    research = LocalCorpusResearch(load_shipped_corpus(KNOWLEDGE_DIR / "corpus"))
    container = build_container(
        Settings(embedder="hashed", database_url=url),
        model=generator,
        verifier=verifier,
        research=research,
        clock=FixedClock(),
        new_id=CountingIds(),
    )
    service, policy = container.service, AutopilotPolicy()
    record = await service.create("How can a hospital cut emergency wait times without more staff?")
    assert not isinstance(record, ServiceFailure)
    await service.start_run(record.id)
    for _ in range(8):
        await container.runs.wait(record.id)
        state = await service.state(record.id)
        assert not isinstance(state, ServiceFailure)
        if state.knowledge_document_markdown is not None:
            break
        assert state.awaiting_input_type is not None
        assert not isinstance(
            await service.submit_review(record.id, policy.review_for(state, state.awaiting_input_type)), ServiceFailure
        )
    await container.close()
    assert state.knowledge_document_markdown is not None
    assert set(verifier.phases) == {"validate"}
    assert "validate" not in generator.phases
    assert {"decompose", "explore", "synthesize", "build", "crystallize"} <= set(generator.phases)

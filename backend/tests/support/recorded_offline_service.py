"""A whole offline session through the service, with every request the model gets recorded: the
offline model behind a recorder, the offline engine (or a wrapper of it), the shipped corpus as
research, a fresh SQLite database, a fixed clock and counting ids.

`recorded_offline_service` yields the container and closes it however the test ends; the briefs the
model received are read back with `first_brief` / `last_brief`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from uuid import UUID

from support.fixed_clock import CountingIds, FixedClock

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_structured_model
from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.config import Settings
from forge.core.domain_types import Phase
from forge.core.llm.messages import ModelRequest, ModelResponse
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.forge_state import ForgeState
from forge.db.migrate import upgrade_database
from forge.knowledge.load_knowledge import load_source_domains
from forge.offline.offline_model import OfflineModel
from forge.ports import StructuredModel
from forge.research.local_corpus import LocalCorpusResearch, load_shipped_corpus
from forge.services.service_results import ServiceFailure


class RecordingModel:
    def __init__(self) -> None:
        self.inner = OfflineModel(KNOWLEDGE_DIR)
        self.requests: list[ModelRequest] = []

    @property
    def label(self) -> str:
        return "recorded offline"

    @property
    def context_window(self) -> int:
        return self.inner.context_window

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        return await self.inner.complete(request)


def _briefs(model: RecordingModel, prefix: str) -> list[str]:
    return [m.text for r in model.requests for m in r.messages if m.text.startswith(prefix)]


def first_brief(model: RecordingModel, phase: str) -> str:
    """The first round's brief of `phase` as the model first received it."""
    texts = _briefs(model, f"[forge phase={phase} round=1]")
    assert texts, f"no {phase} brief was sent"
    return texts[0]


def last_brief(model: RecordingModel, phase: str) -> str:
    """The latest brief of `phase` (any round) the model received."""
    texts = _briefs(model, f"[forge phase={phase} ")
    assert texts, f"no {phase} brief was sent"
    return texts[-1]


@asynccontextmanager
async def recorded_offline_service(
    tmp_path: Path,
    model: RecordingModel,
    engine: Callable[[StructuredModel], StructuredModel] = lambda offline: offline,
) -> AsyncIterator[Container]:
    """The container over a fresh database in `tmp_path`; `engine` wraps the offline engine."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}"
    await upgrade_database(url)
    structured = engine(build_structured_model(ModelRoute(Provider.OFFLINE, ""), model, load_source_domains()))
    research = LocalCorpusResearch(load_shipped_corpus(KNOWLEDGE_DIR / "corpus"))
    container = build_container(
        Settings(embedder="hashed", database_url=url), model=model, structured=structured, research=research,
        clock=FixedClock(), new_id=CountingIds(),
    )  # fmt: skip
    try:
        yield container
    finally:
        await container.close()


async def autopilot_until(
    container: Container, session_id: UUID, phase: Phase, policy: AutopilotPolicy | None = None, reviews: int = 6
) -> ForgeState:
    """Run the started session, answering each review as the autopilot would, until it stands in
    `phase` (at most `reviews` reviews); the state it stands in then."""
    service = container.service
    for _ in range(reviews):
        await container.runs.wait(session_id)
        state = await service.state(session_id)
        assert not isinstance(state, ServiceFailure)
        if state.current_phase is phase:
            return state
        answered = await service.submit_autopilot_review(session_id, policy or AutopilotPolicy())
        assert not isinstance(answered, ServiceFailure), answered
    raise AssertionError(f"the session did not reach {phase.value} within {reviews} reviews")

"""Benchmark: how many hypothesis-scoring calls, and what they cost, in one one-round autopilot session.

The generator is the offline model; the VERIFIER ROLE IS A SCRIPTED MODEL (no provider is called): it
answers every `score_hypotheses` call with fixed scores and hands every other request to the offline
generators. It measures the plumbing — how many calls the scoring stage makes for the pool a session
really grows (BISO over the chosen domains, suggested domains, SEARCH children), eight hypotheses a
call, each hypothesis once — not a model's quality.

Per scoring call the scripted model reports the usage a provider would bill: input = the request's
instructions + input / 4 characters per token, output = the JSON answer / 4 characters. The cost is
those tokens at genai-prices' Claude Sonnet 4.6 price (forge's `cost_of`).

Prints the pool size, the calls and tokens, then:
    RESULT scoring_calls=<int> scoring_cost_usd=<float>
Run: make bench-scoring-calls   (or backend/.venv/bin/python bench/bench_scoring_calls.py)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_structured_model
from forge.bootstrap.build_container import build_container
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.llm.messages import Usage
from forge.core.llm.pricing import cost_of, price_for
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.db.migrate import upgrade_database
from forge.engine.verify.score_hypotheses import HypothesisScoreItem, HypothesisScoresOutput, ScoreBatch
from forge.knowledge.load_knowledge import load_source_domains
from forge.offline.offline_model import OfflineModel
from forge.ports import HypothesisFilter, StructuredFailure, StructuredModel, StructuredRequest, StructuredResult
from forge.providers.library_prices import LIBRARY_PRICES
from forge.research.local_corpus import LocalCorpusResearch, load_shipped_corpus
from forge.services.service_results import ServiceFailure

MODEL = "claude-sonnet-4-6"
PRICE = price_for(MODEL, LIBRARY_PRICES)
PROBLEM = "How can a hospital cut emergency wait times without more staff?"
REASON = "Scripted reasoning of about the length a model writes for one dimension of one hypothesis."


class ScriptedScoringVerifier:
    """The verifier role: scripted answers to the scoring call, the offline generators for the rest."""

    def __init__(self, inner: StructuredModel) -> None:
        self.inner = inner
        self.calls = 0
        self.usage = Usage()
        self.items = 0

    @property
    def label(self) -> str:
        return "scripted verifier (bench)"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        if request.output is not HypothesisScoresOutput:
            return await self.inner.generate(request)
        batch = request.offline_context
        assert isinstance(batch, ScoreBatch)
        answer = HypothesisScoresOutput(items=[_item(h.id, n) for n, h in enumerate(batch.hypotheses)])
        usage = Usage(len(request.instructions + request.input) // 4, len(answer.model_dump_json()) // 4)
        self.calls += 1
        self.items += len(batch.hypotheses)
        self.usage = self.usage + usage
        return StructuredResult(answer, usage, 1)


def _item(hid: str, n: int) -> HypothesisScoreItem:
    value = float(3 + n % 6)
    return HypothesisScoreItem(
        item_id=hid,
        divergence_reasoning=REASON, divergence=value,
        testability_reasoning=REASON, testability=10 - value,
        rationale_reasoning=REASON, rationale=value,
        robustness_reasoning=REASON, robustness=5.0,
        feasibility_reasoning=REASON, feasibility=7.0,
    )  # fmt: skip


async def run(directory: Path) -> tuple[ScriptedScoringVerifier, int]:
    url = f"sqlite+aiosqlite:///{directory / 'forge.db'}"
    await upgrade_database(url)
    model = OfflineModel(KNOWLEDGE_DIR)
    structured = build_structured_model(ModelRoute(Provider.OFFLINE, ""), model, load_source_domains())
    verifier = ScriptedScoringVerifier(structured)
    research = LocalCorpusResearch(load_shipped_corpus(KNOWLEDGE_DIR / "corpus"))
    container = build_container(
        Settings(database_url=url, data_dir=directory), model=model, structured=structured,
        verifier_structured=verifier, research=research,
    )  # fmt: skip
    try:
        service, policy = container.service, AutopilotPolicy(rounds=1)
        record = await service.create(PROBLEM)
        assert not isinstance(record, ServiceFailure)
        await service.start_run(record.id)
        for _ in range(12):
            await container.runs.wait(record.id)
            state = await service.state(record.id)
            assert not isinstance(state, ServiceFailure)
            if state.knowledge_document_markdown is not None or state.awaiting_input_type is None:
                break
            assert not isinstance(await service.submit_autopilot_review(record.id, policy), ServiceFailure)
        async with container.uow_factory() as uow:
            pool = await uow.hypotheses.page(SessionId(record.id), HypothesisFilter(), limit=5000, offset=0)
    finally:
        await container.close()
    return verifier, pool.total


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        verifier, pool = asyncio.run(run(Path(directory)))
    cost = cost_of(verifier.usage, PRICE)
    print(f"scripted verifier (no provider called); priced as {MODEL}")
    print(f"pool hypotheses: {pool}; scored: {verifier.items}; scoring calls: {verifier.calls}")
    print(f"tokens: input {verifier.usage.input_tokens}, output {verifier.usage.output_tokens}")
    print(f"RESULT scoring_calls={verifier.calls} scoring_cost_usd={cost:.4f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

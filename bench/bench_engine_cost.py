"""Benchmark: what the creative engine costs in one one-round autopilot session through a model provider.

The session runs over the app's API on a container the composition root builds for
`anthropic:claude-sonnet-4-6` (the real AnthropicModel and its structured output; only the SDK's HTTP
client is a MockTransport), against the fake Messages API of the whole-session tests
(`tests/providers/sessions/offline_decisions_api.py`): it answers every agent turn and every engine call
with the offline model's decisions, so the provider sees each request as a real one would.

Per call the bench keeps what the provider would bill:
    - input: the Messages API body through the prompt-cache simulator (`forge.providers.simulate_prompt_cache`,
      ~4 characters per token): uncached, cache write, cache read;
    - output: the answer's text (JSON for an engine call, text and tool calls for an agent turn) / 4 characters;
    - cost: those tokens at genai-prices' Claude Sonnet 4.6 price (forge's `cost_of`).
These usages are what the fake server returns, so the session's own cost accounting sees the same.

The pace (`--ttft 1.2 --tps 70`): a call takes ttft + output_tokens / tps seconds. No call sleeps; a
virtual clock adds them up:
    - an engine batch (`run_structured_batch`, found by a context variable set around it) runs its calls
      on `concurrency` slots in request order (list scheduling: each call starts when a slot frees);
      batches in flight at the same time (gathered side by side, e.g. the scores during the mapping
      review) each have their own slots: their segment lasts as long as the task whose batches, one
      after the other, take longest;
    - every other call (an agent turn, a lone engine call) waits for the one before it;
    - local work (tools, the database, the offline decisions themselves) counts zero seconds.
A phase's wait is its engine work (the stages that open it) plus its agent turns; the round is the sum
of the six phases' waits (the person's review time is not counted: autopilot answers at once).

Prints the calls, tokens and cost per engine stage, the agent's, the wait per phase, then:
    RESULT engine_calls=<int> cost_usd=<float> explore_wait_s=<float> round_s=<float>
Run: backend/.venv/bin/python bench/bench_engine_cost.py [--ttft 1.2] [--tps 70]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import heapq
import json
import sys
import tempfile
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend" / "tests"))

import httpx2
import pytest
from providers.sessions import offline_decisions_api as fake
from providers.sessions.session_over_api import app_client, offline_deciders, run_to_the_answer

from forge.config import Settings
from forge.core.llm.messages import Usage
from forge.core.llm.pricing import cost_of, price_for
from forge.engine import structured_batch
from forge.offline.phases.planning import read_conversation
from forge.providers import anthropic_model
from forge.providers.anthropic_model import AnthropicModel
from forge.providers.library_prices import LIBRARY_PRICES
from forge.providers.model_catalogue import shipped_catalogue
from forge.providers.simulate_prompt_cache import CacheRules, PromptCacheSimulator
from forge.providers.structured_output import SchemaStructuredModel
from forge.providers.token_counting import TiktokenCounter
from forge.services.stages.engine_stages import EngineStages

MODEL = "claude-sonnet-4-6"
PRICE = price_for(MODEL, LIBRARY_PRICES)
COUNT = TiktokenCounter().count_tokens
PHASES = ("decompose", "explore", "synthesize", "validate", "build", "crystallize")
# The engine stage of a lone call (outside a batch), by the name its StructuredRequest gives it.
STAGE_OF_REQUEST = {
    "record_problem_frame": "frame",
    "record_reasoner_analysis": "solve",
    "record_solution_plan": "solve",
    "record_quality_audit": "solve",
    "record_solution": "solve",
    "record_compliance_audit": "solve",
}


@dataclass
class Batch:
    stage: str
    concurrency: int
    task: int  # the asyncio task that awaited it: one task's batches run one after the other
    overlap: int  # batches in flight at the same time share this number (gathered side by side)


@dataclass
class InFlight:
    """Batches running now, and the overlap group the next one joins (a new one when none runs)."""

    running: int = 0
    group: int = 0

    def start(self) -> int:
        if self.running == 0:
            self.group += 1
        self.running += 1
        return self.group

    def stop(self) -> None:
        self.running -= 1


IN_FLIGHT = InFlight()


@dataclass(frozen=True)
class Call:
    phase: str
    stage: str  # "agent" for an agent turn
    name: str  # the engine request's name, or "agent"
    usage: Usage
    seconds: float
    batch: Batch | None

    @property
    def cost(self) -> float:
        return cost_of(self.usage, PRICE)


BATCH: ContextVar[Batch | None] = ContextVar("bench_batch", default=None)
ENGINE_PHASE: ContextVar[str | None] = ContextVar("bench_engine_phase", default=None)


@dataclass
class Recorder:
    """Every call the fake provider served, with its usage, phase, stage and batch."""

    ttft: float
    tps: float
    cache: PromptCacheSimulator = field(default_factory=lambda: PromptCacheSimulator(_cache_rules()))
    calls: list[Call] = field(default_factory=list)
    last_agent_phase: str = "decompose"
    seen_bodies: set[str] = field(default_factory=set)
    repeated: list[str] = field(default_factory=list)  # engine calls whose whole body was sent before

    def served_usage(self, body: dict[str, Any], output_text: str) -> dict[str, int]:
        cached = self.cache.send(body)
        out = max(1, COUNT(output_text)) if output_text else 1
        usage = Usage(cached.uncached, out, cached.cache_write, cached.cache_read)
        self.calls.append(self._call(body, usage))
        return {
            "input_tokens": cached.uncached,
            "cache_creation_input_tokens": cached.cache_write,
            "cache_read_input_tokens": cached.cache_read,
            "output_tokens": out,
        }

    def _call(self, body: dict[str, Any], usage: Usage) -> Call:
        seconds = self.ttft + usage.output_tokens / self.tps
        if (body.get("output_config") or {}).get("format"):
            request = fake.STRUCTURED_REQUEST.get()
            name = request.name if request is not None else "?"
            batch = BATCH.get()
            stage = batch.stage if batch is not None else STAGE_OF_REQUEST.get(name, name)
            phase = ENGINE_PHASE.get() or self.last_agent_phase
            key = json.dumps(body, sort_keys=True)
            if key in self.seen_bodies:
                self.repeated.append(name)
            self.seen_bodies.add(key)
            return Call(phase, stage, name, usage, seconds, batch)
        agent_request = fake.AGENT_REQUEST.get()
        assert agent_request is not None
        self.last_agent_phase = read_conversation(agent_request.messages).phase or self.last_agent_phase
        return Call(self.last_agent_phase, "agent", "agent", usage, seconds, None)


def _cache_rules() -> CacheRules:
    return CacheRules(min_cacheable_tokens=shipped_catalogue().capabilities(MODEL).min_cacheable_tokens)


def makespan(durations: list[float], slots: int) -> float:
    """List scheduling in request order: each call starts when the earliest slot frees."""
    free = [0.0] * max(1, min(slots, len(durations)))
    for seconds in durations:
        heapq.heappush(free, heapq.heappop(free) + seconds)
    return max(free)


def segments(calls: list[Call]) -> Iterator[tuple[list[Call], float]]:
    """Consecutive calls of batches that were in flight together are one segment; any other call is its own."""
    group: list[Call] = []
    for call in calls:
        if group and (call.batch is None or group[0].batch is None or call.batch.overlap != group[0].batch.overlap):
            yield group, _segment_seconds(group)
            group = []
        group.append(call)
    if group:
        yield group, _segment_seconds(group)


def _segment_seconds(group: list[Call]) -> float:
    """A lone call's seconds; for batches in flight together, the longest task's: each batch runs on its
    own slots, one task's batches one after the other, different tasks' side by side."""
    if group[0].batch is None:
        return sum(c.seconds for c in group)
    by_task: dict[int, dict[int, tuple[Batch, list[float]]]] = {}
    for call in group:
        assert call.batch is not None
        batches = by_task.setdefault(call.batch.task, {})
        batches.setdefault(id(call.batch), (call.batch, []))[1].append(call.seconds)
    return max(
        sum(makespan(seconds, batch.concurrency) for batch, seconds in batches.values())
        for batches in by_task.values()
    )


def _segment_name(group: list[Call]) -> str:
    names = dict.fromkeys(f"{c.stage}:{c.name}" for c in group)
    return " + ".join(f"{n} x{sum(f'{c.stage}:{c.name}' == n for c in group)}" for n in names)


@contextlib.contextmanager
def instrumented(recorder: Recorder) -> Iterator[None]:
    """Batches and engine stages marked by context variables; the fake server's usage from the recorder."""
    original = structured_batch.run_structured_batch

    async def batch(model: Any, requests: Any, *, stage: Any, concurrency: int = 8, progress: Any = None) -> Any:
        task = id(asyncio.current_task())
        token = BATCH.set(Batch(str(stage.value), concurrency, task, IN_FLIGHT.start()))
        try:
            return await original(model, requests, stage=stage, concurrency=concurrency, progress=progress)
        finally:
            IN_FLIGHT.stop()
            BATCH.reset(token)

    run_stage = EngineStages.run

    async def stage_run(self: EngineStages, ctx: Any, live: Any) -> Any:
        token = ENGINE_PHASE.set(ctx.state.current_phase.value)
        try:
            return await run_stage(self, ctx, live)
        finally:
            ENGINE_PHASE.reset(token)

    with pytest.MonkeyPatch.context() as patch:
        for module in [m for name, m in list(sys.modules.items()) if name.startswith("forge.") and m is not None]:
            if getattr(module, "run_structured_batch", None) is original:
                patch.setattr(module, "run_structured_batch", batch)
        patch.setattr(EngineStages, "run", stage_run)
        patch.setattr(fake, "served_usage", recorder.served_usage)
        yield


async def run_session(recorder: Recorder, database: Path, concurrency: int | None) -> tuple[dict[str, Any], int]:
    offline, structured = offline_deciders()
    api = fake.OfflineDecisionsApi(offline.complete, structured)
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{database}",
        model=f"anthropic:{MODEL}",
        anthropic_api_key="sk-ant-api03-bench",
    )
    if concurrency is not None:
        settings = dataclasses.replace(settings, engine_concurrency=concurrency)
    async with httpx2.AsyncClient(transport=httpx2.MockTransport(api)) as http_client:
        made = functools.partial(anthropic_model.anthropic_model_from_settings, http_client=http_client)
        with pytest.MonkeyPatch.context() as patch, instrumented(recorder):
            patch.setattr(anthropic_model, "anthropic_model_from_settings", made)
            fake.observe_requests(patch, AnthropicModel, SchemaStructuredModel)
            async for client in app_client(settings):
                sid, events = await run_to_the_answer(client, autopilot=True)
                session = (await client.get(f"/api/v1/sessions/{sid}")).json()
    assert api.failures == [] and api.refusals == [], (api.failures, api.refusals)
    rounds = len({e.data["round"] for e in events if e.type == "phase_change"})
    return session, rounds


# Who reads each stage's result (issue #36: an engine product that reaches none of these is not done).
READ_BY = {
    "frame": "every brief's HARD CONSTRAINTS / SUCCESS CRITERIA, CP-1, Solve",
    "biso": "the pool: explore review, SEARCH seeds, CP-4, the EXPLORE brief",
    "mapping_review": "each pool hypothesis's mapping score: gate, selection, SEARCH seeds, ranking",
    "search": "SYNTHESIZE's brief (search_candidates), the pool",
    "score": "SEARCH seeds, Pareto/MOME, CP-4/CP-5 Layer 1, red-team targets, the AnswerPack ranking",
    "red_team": "CP-5: VALIDATE's brief (challenges); CP-6: Solve / the AnswerPack's findings",
    "verify": "VALIDATE's brief, the verdicts review, autopilot's acceptance; the AnswerPack's ranking",
    "solve": "the AnswerPack and the document's opening",
    "suggested_domains": "the pool (the person's domains)",
}


def _stage_rows(calls: list[Call]) -> None:
    print(f"{'stage':<16} {'calls':>6} {'input':>9} {'c.read':>9} {'c.write':>8} {'output':>8} {'cost $':>8}  read by")
    stages: dict[str, list[Call]] = {}
    for call in calls:
        stages.setdefault(call.stage, []).append(call)
    for stage, rows in [*stages.items(), ("engine total", [c for c in calls if c.stage != "agent"])]:
        u = sum((c.usage for c in rows), Usage())
        total_in = u.input_tokens + u.cache_read_tokens + u.cache_creation_tokens
        print(
            f"{stage:<16} {len(rows):>6} {total_in:>9,} {u.cache_read_tokens:>9,} {u.cache_creation_tokens:>8,} "
            f"{u.output_tokens:>8,} {sum(c.cost for c in rows):>8.4f}  {READ_BY.get(stage, '')}"
        )


def _phase_rows(calls: list[Call]) -> dict[str, tuple[float, float]]:
    print(f"\n{'phase':<12} {'engine s':>9} {'agent s':>8} {'wait s':>8}  (engine calls, agent turns)")
    waits: dict[str, tuple[float, float]] = {}
    for phase in PHASES:
        rows = [c for c in calls if c.phase == phase]
        engine = sum(s for g, s in segments([c for c in rows if c.stage != "agent"]))
        agent = sum(c.seconds for c in rows if c.stage == "agent")
        waits[phase] = (engine, agent)
        n_engine = sum(c.stage != "agent" for c in rows)
        print(f"{phase:<12} {engine:>9.1f} {agent:>8.1f} {engine + agent:>8.1f}  ({n_engine}, {len(rows) - n_engine})")
    return waits


def _breakdown(calls: list[Call]) -> None:
    """Engine calls per phase and request (where each stage's calls fall)."""
    rows: dict[tuple[str, str], int] = {}
    for call in calls:
        if call.stage != "agent":
            rows[(call.phase, f"{call.stage}:{call.name}")] = rows.get((call.phase, f"{call.stage}:{call.name}"), 0) + 1
    print("\nengine calls by phase: " + "; ".join(f"{p} {n} x{k}" for (p, n), k in rows.items()))


def _wait_rows(calls: list[Call]) -> None:
    """Where each phase's engine wait goes: its segments in order (a batch on its slots, or a lone call)."""
    print("\nengine wait by segment:")
    for phase in PHASES:
        parts = [
            f"{_segment_name(group)} {seconds:.1f}s"
            for group, seconds in segments([c for c in calls if c.phase == phase and c.stage != "agent"])
        ]
        if parts:
            print(f"  {phase:<12} " + " -> ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ttft", type=float, default=1.2, help="seconds to the first token")
    parser.add_argument("--tps", type=float, default=70.0, help="output tokens per second")
    parser.add_argument("--concurrency", type=int, default=None, help="FORGE_ENGINE_CONCURRENCY (default: Settings')")
    args = parser.parse_args()
    recorder = Recorder(args.ttft, args.tps)
    with tempfile.TemporaryDirectory() as tmp:
        session, rounds = asyncio.run(run_session(recorder, Path(tmp) / "forge.db", args.concurrency))
    calls = recorder.calls
    print(f"One autopilot session ({rounds} round(s)) on {MODEL}, {len(calls)} model calls.\n")
    _stage_rows(calls)
    _breakdown(calls)
    _wait_rows(calls)
    waits = _phase_rows(calls)
    print(
        f"engine calls repeating an earlier request exactly: {len(recorder.repeated)} {sorted(set(recorder.repeated))}"
    )
    engine_calls = sum(c.stage != "agent" for c in calls)
    cost = sum(c.cost for c in calls)
    explore_wait = waits["explore"][0]
    round_s = sum(e + a for e, a in waits.values())
    print(f"\nsession cost as the app accounted it: ${session['total_cost_usd']:.4f} (bench: ${cost:.4f})")
    print(json.dumps({"pace": {"ttft_s": args.ttft, "output_tokens_per_s": args.tps}}))
    print(
        f"RESULT engine_calls={engine_calls} cost_usd={cost:.4f} explore_wait_s={explore_wait:.1f} round_s={round_s:.1f}"
    )


if __name__ == "__main__":
    main()

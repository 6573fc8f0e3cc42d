"""Benchmark: the share of input tokens Anthropic's prompt cache would serve over one full session,
with a tool list per phase (today) versus one stable tool list for the whole session.

A whole session runs in process with the offline model in autopilot (the agent loop of
tests/agent/test_offline_model_completes_session.py, reviews answered by AutopilotPolicy); every
ModelRequest it sends is recorded. Each request is then turned into the Messages API body that
AnthropicModel sends (`anthropic_wire.request_params`, with its cache_control breakpoints), once
as the runner sends it now ("after": one stable tool list for the whole session, server web search
always on) and once with the tool list of its phase ("before": `tools_for_phase`, web search only
in phases that offer research — what the runner sent before issue #10). The
bodies go through `simulate_prompt_cache` (Anthropic's documented rules: prefix order tools ->
system -> messages, exact-prefix hits at breakpoints written earlier with a 20-block look-back,
1,024-token minimum, TTL ignored). Tokens are estimated at 4 characters per token of each block's
JSON. The share is cache-read tokens / all input tokens.

Prints one row per phase, then:
    RESULT cache_read_share_before=<float> cache_read_share_after=<float>
Run: backend/.venv/bin/python bench/bench_prompt_cache.py [--problem "..."] [--rounds 2] [--calls]
(--calls: one line per request as sent now — cache read, write, uncached — to see which calls lose the cache)
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import uuid
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from forge.agent.call_model import Live
from forge.agent.phase_briefs import phase_kickoff
from forge.agent.phases.registry import phase_definition
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.agent.tool_registry import tools_for_phase
from forge.core.domain_types import Phase, SessionId
from forge.core.llm.messages import Message, ModelRequest, ModelResponse
from forge.core.review.apply import ReviewApplied, apply_review
from forge.core.review.autopilot_policy import AutopilotPolicy
from forge.core.session.events import REVIEW_EVENT, EventType
from forge.core.session.forge_state import ForgeState
from forge.knowledge.load_knowledge import load_triz
from forge.offline.offline_model import OfflineModel
from forge.providers.anthropic_wire import request_params
from forge.providers.simulate_prompt_cache import (
    CacheRules,
    CacheUsage,
    PromptCacheSimulator,
)
from forge.research.local_corpus import LocalCorpusResearch

DEFAULT_PROBLEM = "How can a hospital cut emergency wait times without more staff?"
# The Claude model whose wire the bench builds (--model): the default generator.
WIRE_MODEL = "claude-sonnet-5-5"
MAX_RUNS = 40


class _Clock:
    def __init__(self) -> None:
        self._now = datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        self._now += timedelta(seconds=1)
        return self._now


class _Ids:
    def __init__(self) -> None:
        self._n = 0

    def __call__(self) -> uuid.UUID:
        self._n += 1
        return uuid.UUID(int=self._n)


@dataclass
class RecordingModel:
    """The offline model, keeping every request it was sent (with the phase it was sent in)."""

    inner: OfflineModel
    requests: list[tuple[str, ModelRequest]] = field(default_factory=list)
    phase: str = ""
    final_state: ForgeState | None = (
        None  # the session's state when the document was written
    )

    @property
    def label(self) -> str:
        return self.inner.label

    @property
    def context_window(self) -> int:
        return self.inner.context_window

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append((self.phase, request))
        return await self.inner.complete(request)


async def record_session(
    problem: str, rounds: int, model: RecordingModel | None = None, curator: Any = None
) -> list[tuple[str, ModelRequest]]:
    """Every request of one whole autopilot session, in order (kept by `model`, a fresh one by default).
    `curator`: the runner's context curator (its default, the provider's budget, when None)."""
    ids, model = _Ids(), model or RecordingModel(OfflineModel())
    ctx = ToolContext(
        SessionId(ids()),
        ForgeState(problem=problem),
        LocalCorpusResearch.from_directory(),
        _Clock(),
        ids,
        model.label,
        load_triz(),  # identify_contradictions resolves the TRIZ matrix cell, as in a real run
    )
    runner = (
        AgentRunner(model, curator=curator)
        if curator is not None
        else AgentRunner(model)
    )
    policy = AutopilotPolicy(rounds=rounds)
    history: list[Message] = [phase_kickoff(ctx.state)]
    for _ in range(MAX_RUNS):
        model.phase, review = ctx.state.current_phase.value, None
        async for output in runner.run(ctx, history):
            if isinstance(output, Live):
                continue
            base = (
                list(output.replaced_history)
                if output.replaced_history is not None
                else history
            )
            history = [*base, *output.appended]
            for event in output.events:
                if event.type == EventType.KNOWLEDGE_DOCUMENT:
                    model.final_state = ctx.state
                    return model.requests
                if event.type in REVIEW_EVENT.values():
                    review = event
        waiting = ctx.state.awaiting_input_type
        if review is None or waiting is None:
            raise SystemExit(
                f"the session stopped in {model.phase} without asking for a review"
            )
        applied = apply_review(ctx.state, policy.review_for(ctx.state, waiting), ids)
        if not isinstance(applied, ReviewApplied):
            raise SystemExit(f"autopilot review refused: {applied}")
        ctx.state = applied.state
        history = [*history, phase_kickoff(ctx.state)]
    raise SystemExit("the session did not reach the knowledge document")


def per_phase_tools(phase: str, request: ModelRequest) -> ModelRequest:
    """The request as the runner sent it before: only its phase's tools, web search where research is."""
    definition = phase_definition(Phase(phase))
    return replace(
        request,
        tools=tools_for_phase(Phase(phase)),
        server_research=definition.offers_research,
    )


def wire_body(request: ModelRequest) -> dict[str, Any]:
    # What request_params takes to decide thinking (a flag before issue #35, the model's capabilities
    # and the effort for the request's scope since), so the bench also runs against older commits.
    parameters = inspect.signature(request_params).parameters
    thinking: dict[str, Any] = {"thinking": True} if "thinking" in parameters else {}
    if "capabilities" in parameters:
        from forge.core.llm.effort import EffortPolicy
        from forge.providers.model_catalogue import shipped_catalogue

        scope = getattr(request, "effort_scope", "")
        thinking = {
            "capabilities": shipped_catalogue().capabilities(WIRE_MODEL),
            "effort": EffortPolicy().level_for(scope) if scope else None,
        }
    fetch: dict[str, Any] = (
        {"web_fetch_max_uses": 3} if "web_fetch_max_uses" in parameters else {}
    )
    return request_params(
        request,
        model=WIRE_MODEL,
        max_tokens=max(request.max_tokens, 8192),  # as AnthropicModel bounds it
        web_search_max_uses=5,
        **thinking,
        **fetch,
    )


def cache_rules() -> CacheRules:
    """The simulator's rules for WIRE_MODEL: its minimum cacheable prompt, where the catalogue knows it."""
    try:
        from forge.providers.model_catalogue import shipped_catalogue
    except ImportError:  # a commit before the catalogue (issue #35)
        return CacheRules()
    return CacheRules(
        min_cacheable_tokens=shipped_catalogue()
        .capabilities(WIRE_MODEL)
        .min_cacheable_tokens
    )


def simulate(
    requests: list[tuple[str, ModelRequest]], calls: bool = False
) -> dict[str, CacheUsage]:
    """Usage per phase (in order of first appearance) of the requests sent through one cache;
    with `calls`, one line per request too (where a cache read falls short shows there)."""
    cache, by_phase = PromptCacheSimulator(cache_rules()), dict[str, CacheUsage]()
    for n, (phase, request) in enumerate(requests):
        usage = cache.send(wire_body(request))
        by_phase[phase] = by_phase.get(phase, CacheUsage()) + usage
        if calls:
            print(
                f"  call {n:>3} {phase:<12} messages {len(request.messages):>3} anchor {request.cache_anchor:>3}"
                f" read {usage.cache_read:>7,} write {usage.cache_write:>7,} uncached {usage.uncached:>7,}"
            )
    return by_phase


def set_wire_model(model: str) -> None:
    global WIRE_MODEL
    WIRE_MODEL = model


def share(usage: CacheUsage) -> float:
    return usage.cache_read / usage.total if usage.total else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default=DEFAULT_PROBLEM)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--model", default=WIRE_MODEL, help="the Claude model whose wire is simulated"
    )
    parser.add_argument(
        "--calls",
        action="store_true",
        help="also print each request's cache read, write and uncached tokens (as sent now)",
    )
    args = parser.parse_args()
    set_wire_model(args.model)
    requests = asyncio.run(record_session(args.problem, args.rounds))
    before = simulate(
        [(phase, per_phase_tools(phase, request)) for phase, request in requests]
    )
    after = simulate(requests, calls=args.calls)
    print(
        f"{len(requests)} model requests to {WIRE_MODEL}; tokens ~ JSON characters / 4; cache rules: {cache_rules()}"
    )
    print(
        f"{'phase':<12} {'input before':>13} {'share before':>13} {'input after':>12} {'share after':>12}"
    )
    total_before, total_after = (
        sum(before.values(), CacheUsage()),
        sum(after.values(), CacheUsage()),
    )
    for phase, b, a in [
        *((p, before[p], after[p]) for p in before),
        ("session", total_before, total_after),
    ]:
        print(
            f"{phase:<12} {b.total:>13,} {share(b):>13.3f} {a.total:>12,} {share(a):>12.3f}"
        )
    print(
        f"cache writes: before {total_before.cache_write:,} tokens, after {total_after.cache_write:,} tokens"
    )
    print(
        f"RESULT cache_read_share_before={share(total_before):.4f} cache_read_share_after={share(total_after):.4f}"
    )


if __name__ == "__main__":
    main()

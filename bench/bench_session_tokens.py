"""Benchmark: tokens and cost per phase of one whole session as Anthropic would bill it.

The session of bench_prompt_cache.py (offline model in autopilot, every ModelRequest recorded) is
turned into the Messages API bodies AnthropicModel sends and run through the prompt-cache simulator
(`forge.providers.simulate_prompt_cache`): input tokens split into uncached, cache write and cache
read. Output tokens are the JSON characters of each reply / 4 (the offline model's replies stand in
for a real model's; a real model writes more). Cost uses the price table of `forge.core.model_pricing`
for WIRE_MODEL. Numbers are estimates (4 characters per token) meant for before/after comparison of
prompt changes: run it on two commits.

Prints one row per phase, then:
    RESULT input_tokens=<int> cache_read=<int> cache_write=<int> uncached=<int> output_tokens=<int>
           cost_usd=<float> crystallize_cost_share=<float>
Run: backend/.venv/bin/python bench/bench_session_tokens.py [--problem "..."] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from dataclasses import dataclass, field

import bench_prompt_cache as session

from forge.core.model_messages import ModelRequest, ModelResponse, Usage
from forge.core.model_pricing import cost_of, price_for
from forge.core.state_codec import encode_value
from forge.providers.simulate_prompt_cache import PromptCacheSimulator


@dataclass
class PhaseTokens:
    requests: int = 0
    usage: Usage = field(default_factory=Usage)


class RepliesKept(session.RecordingModel):
    """The recording model of bench_prompt_cache, also keeping each reply's size."""

    reply_chars: list[int]

    def __init__(self, inner: session.OfflineModel) -> None:
        super().__init__(inner)
        self.reply_chars = []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        response = await super().complete(request)
        self.reply_chars.append(len(json.dumps(encode_value(response.message), ensure_ascii=False)))
        return response


def tokens_by_phase(problem: str, rounds: int) -> dict[str, PhaseTokens]:
    model = RepliesKept(session.OfflineModel())
    requests = asyncio.run(session.record_session(problem, rounds, model))
    cache, phases = PromptCacheSimulator(), dict[str, PhaseTokens]()
    for (phase, request), chars in zip(requests, model.reply_chars, strict=True):
        used = cache.send(session.wire_body(request))
        row = phases.setdefault(phase, PhaseTokens())
        row.requests += 1
        row.usage += Usage(used.uncached, chars // 4, used.cache_write, used.cache_read)
    return phases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default=session.DEFAULT_PROBLEM)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    phases = tokens_by_phase(args.problem, args.rounds)
    price = price_for(session.WIRE_MODEL)
    total = sum((p.usage for p in phases.values()), Usage())
    print(f"model {session.WIRE_MODEL}; tokens ~ JSON characters / 4; cache simulated")
    header = f"{'phase':<12} {'requests':>8} {'input':>9} {'cache read':>10} {'cache write':>11} {'uncached':>9} {'output':>7} {'cost $':>8}"
    print(header)
    for name, row in [*phases.items(), ("session", PhaseTokens(sum(p.requests for p in phases.values()), total))]:
        u = row.usage
        inputs = u.input_tokens + u.cache_read_tokens + u.cache_creation_tokens
        print(
            f"{name:<12} {row.requests:>8} {inputs:>9,} {u.cache_read_tokens:>10,} {u.cache_creation_tokens:>11,} "
            f"{u.input_tokens:>9,} {u.output_tokens:>7,} {cost_of(u, price):>8.4f}"
        )
    crystallize = cost_of(phases["crystallize"].usage, price) if "crystallize" in phases else 0.0
    session_cost = cost_of(total, price)
    print(
        f"RESULT input_tokens={total.input_tokens + total.cache_read_tokens + total.cache_creation_tokens} "
        f"cache_read={total.cache_read_tokens} cache_write={total.cache_creation_tokens} "
        f"uncached={total.input_tokens} output_tokens={total.output_tokens} cost_usd={session_cost:.4f} "
        f"crystallize_cost_share={crystallize / session_cost if session_cost else 0.0:.4f}"
    )


if __name__ == "__main__":
    main()

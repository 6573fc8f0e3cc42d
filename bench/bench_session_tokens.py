"""Benchmark: input tokens of one whole session with and without the context curator.

The session of bench_prompt_cache.py (offline model in autopilot, every ModelRequest recorded) runs
twice: once as the runner sends it (every call curated under the provider's budget,
`forge.agent.curate_request`) and once with a curator that keeps the whole conversation (what the
runner sent before curation). For each request:
    - `tokens`: the real count of what is sent — cl100k_base (the shipped tokenizer) over the system
      prompt, the tools and every message (`forge.core.curation.curate_conversation.message_text`);
    - the Messages API body AnthropicModel sends goes through the prompt-cache simulator
      (`forge.providers.simulate_prompt_cache`, ~4 characters per token): uncached, cache write and
      cache read, priced for WIRE_MODEL. Output is the JSON characters of each reply / 4.
The offline model reads what it is sent, so the curated session may decide differently; the
bench reports each session's requests, claims, graph nodes and document size so a lost gate shows.

Prints one row per phase and mode, then:
    RESULT input_tokens_full=<int> input_tokens_curated=<int> input_reduction=<float>
           cost_usd_full=<float> cost_usd_curated=<float> requests_full=<int> requests_curated=<int>
           claims_full=<int> claims_curated=<int> graph_nodes_full=<int> graph_nodes_curated=<int> document_identical=<bool>
           build_per_call_over_validate=<float> (curated; issue 42 asks <= 0.6)
Run: backend/.venv/bin/python bench/bench_session_tokens.py [--problem "..."] [--rounds 2] [--carry N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import bench_prompt_cache as session

from forge.agent.curate_request import CuratedRequest, LiveCurationSettings, RequestCurator
from forge.core.curation.curate_conversation import CuratedContext, message_text
from forge.core.curation.curation_settings import CurationChange
from forge.core.llm.messages import Message, ModelRequest, ModelResponse, ToolDefinition, Usage
from forge.core.llm.pricing import cost_of, price_for
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import encode_value
from forge.providers.library_prices import LIBRARY_PRICES
from forge.providers.simulate_prompt_cache import PromptCacheSimulator
from forge.providers.token_counting import TiktokenCounter

COUNT = TiktokenCounter().count_tokens


@dataclass
class PhaseTokens:
    requests: int = 0
    tokens: int = 0
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0  # per call: tokens x the library's prices (forge's cost_of)
    library_cost_usd: float = 0.0  # the same calls priced by genai_prices.calc_price itself


@dataclass
class SessionTokens:
    phases: dict[str, PhaseTokens]
    state: ForgeState

    @property
    def total(self) -> PhaseTokens:
        rows = self.phases.values()
        return PhaseTokens(
            sum(p.requests for p in rows),
            sum(p.tokens for p in rows),
            sum((p.usage for p in rows), Usage()),
            sum(p.cost_usd for p in rows),
            sum(p.library_cost_usd for p in rows),
        )


def library_cost(call: Usage) -> float:
    """What genai-prices itself charges for one call (its input counts include the cache)."""
    import genai_prices

    usage = genai_prices.Usage(
        input_tokens=call.input_tokens + call.cache_creation_tokens + call.cache_read_tokens,
        cache_write_tokens=call.cache_creation_tokens,
        cache_read_tokens=call.cache_read_tokens,
        output_tokens=call.output_tokens,
    )
    return float(genai_prices.calc_price(usage, session.WIRE_MODEL, provider_id="anthropic").total_price)


class KeepEverything(RequestCurator):
    """The runner before curation: every call carries the whole conversation."""

    def curate(
        self, state: ForgeState, messages: Sequence[Message], system: str, tools: Sequence[ToolDefinition]
    ) -> CuratedRequest:
        summary = super().curate(state, messages, system, tools).context.summary
        return CuratedRequest(
            CuratedContext(tuple(messages), replace(summary, tokens_sent=summary.tokens_available)), {}
        )


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


def request_tokens(request: ModelRequest) -> int:
    tools = [f"{t.name} {t.description} {json.dumps(t.input_schema, default=str)}" for t in request.tools]
    return sum(COUNT(t) for t in [request.system, *tools, *(message_text(m) for m in request.messages)])


def run_session(problem: str, rounds: int, curated: bool, carry: int | None = None) -> SessionTokens:
    model = RepliesKept(session.OfflineModel())
    curator = None if curated else KeepEverything(model.label, model.context_window)
    if curated and carry is not None:
        settings = LiveCurationSettings()
        settings.update(CurationChange(carry_tokens=carry))
        curator = RequestCurator(model.label, model.context_window, settings)
    requests = asyncio.run(session.record_session(problem, rounds, model, curator))
    cache, phases = PromptCacheSimulator(session.cache_rules()), dict[str, PhaseTokens]()
    for (phase, request), chars in zip(requests, model.reply_chars, strict=True):
        used = cache.send(session.wire_body(request))
        row = phases.setdefault(phase, PhaseTokens())
        row.requests += 1
        row.tokens += request_tokens(request)
        call = Usage(used.uncached, chars // 4, used.cache_write, used.cache_read)
        row.usage += call
        row.cost_usd += cost_of(call, price_for(session.WIRE_MODEL, LIBRARY_PRICES))
        row.library_cost_usd += library_cost(call)
    assert model.final_state is not None
    return SessionTokens(phases, model.final_state)


def _print_rows(label: str, run: SessionTokens) -> None:
    for name, row in [*run.phases.items(), ("session", run.total)]:
        u = row.usage
        print(
            f"{label:<8} {name:<12} {row.requests:>8} {row.tokens:>10,} {row.tokens // max(1, row.requests):>9,} "
            f"{u.cache_read_tokens:>10,} "
            f"{u.cache_creation_tokens:>11,} {u.input_tokens:>9,} {row.cost_usd:>8.4f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default=session.DEFAULT_PROBLEM)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--carry", type=int, default=None, help="carry_tokens per finished phase (default: the table's)"
    )
    parser.add_argument("--model", default=session.WIRE_MODEL, help="the Claude model whose wire and prices are used")
    args = parser.parse_args()
    session.set_wire_model(args.model)
    full = run_session(args.problem, args.rounds, curated=False)
    curated = run_session(args.problem, args.rounds, curated=True, carry=args.carry)
    if price_for(session.WIRE_MODEL, LIBRARY_PRICES) is None:
        raise SystemExit(f"{session.WIRE_MODEL} has no price in genai-prices; its cost would be unknown")
    print(f"model {session.WIRE_MODEL}; tokens: cl100k_base of what is sent; cache simulated at ~4 chars/token")
    print(
        f"{'mode':<8} {'phase':<12} {'requests':>8} {'tokens':>10} {'per call':>9} {'cache read':>10} {'cache write':>11} {'uncached':>9} {'cost $':>8}"
    )
    _print_rows("full", full)
    _print_rows("curated", curated)
    a, b = full.total, curated.total
    print(
        f"RESULT input_tokens_full={a.tokens} input_tokens_curated={b.tokens} "
        f"input_reduction={1 - b.tokens / a.tokens:.4f} "
        f"cost_usd_full={a.cost_usd:.4f} cost_usd_curated={b.cost_usd:.4f} "
        f"library_cost_usd_curated={b.library_cost_usd:.4f} "
        f"cost_equals_library={abs(a.cost_usd - a.library_cost_usd) < 1e-9 and abs(b.cost_usd - b.library_cost_usd) < 1e-9} "
        f"requests_full={a.requests} requests_curated={b.requests} "
        f"claims_full={len(full.state.all_claims)} claims_curated={len(curated.state.all_claims)} "
        f"graph_nodes_full={len(full.state.knowledge_graph_nodes)} "
        f"graph_nodes_curated={len(curated.state.knowledge_graph_nodes)} "
        f"document_identical={full.state.knowledge_document_markdown == curated.state.knowledge_document_markdown} "
        f"build_per_call_over_validate={per_call(curated, 'build') / max(1.0, per_call(curated, 'validate')):.3f}"
    )


def per_call(run: SessionTokens, phase: str) -> float:
    """Input tokens per call of one phase (issue 42: BUILD's at most 60% of VALIDATE's)."""
    row = run.phases.get(phase, PhaseTokens())
    return row.tokens / max(1, row.requests)


if __name__ == "__main__":
    main()

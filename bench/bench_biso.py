"""BISO fan-out benchmark: 24 domains x 3 hypotheses through the real structured-output path
(ToolCallingStructuredModel over a LanguageModel) with a scripted model of realistic latency.

The scripted model sleeps `--latency` seconds +- `--jitter` per call (uniform, seeded) and answers
with a forced tool call whose arguments are the offline generator's hypotheses for that domain, so
the JSON is as large as real output and is validated and gated as real output is. Prints wall time,
the ideal wall time calls / concurrency x latency, the sequential estimate, calls and tokens.
No assertions. Ends with:
    RESULT wall_s=<float> ideal_s=<float> ratio=<float> sequential_s=<float> calls=<int>

Run: make bench-biso   (or backend/.venv/bin/python bench/bench_biso.py [--latency 1.5] [--concurrency 8])
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from forge.core.domain_types import ToolCallId
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Role,
    StopReason,
    ToolCall,
    Usage,
)
from forge.engine.explore.biso import BisoOutput, biso_request, run_biso
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.explore.biso_offline import offline_biso
from forge.ports import StructuredRequest
from forge.providers.structured_via_tools import ToolCallingStructuredModel

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame(
    "Cut emergency wait times",
    "emergency department",
    "shorter waits",
    ("without more staff",),
)


class LatencyModel:
    """A LanguageModel that answers BISO requests after a seeded, jittered delay."""

    def __init__(
        self,
        latency: float,
        jitter: float,
        requests: dict[str, StructuredRequest[BisoOutput]],
        seed: int = 7,
    ) -> None:
        self.latency, self.jitter, self.requests = latency, jitter, requests
        self.rng = random.Random(seed)
        self.calls = 0

    @property
    def label(self) -> str:
        return "latency model"

    @property
    def context_window(self) -> int:
        return 200_000

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.calls += 1
        await asyncio.sleep(
            max(0.0, self.latency + self.rng.uniform(-self.jitter, self.jitter))
        )
        text = request.messages[0].text
        original = next(
            r for name, r in self.requests.items() if f"Source domain: {name} " in text
        )
        output = offline_biso(original)
        call = ToolCall(
            ToolCallId(f"call-{self.calls}"),
            request.required_tool or "",
            output.model_dump(mode="json"),
        )
        usage = Usage(
            len(text) // 4 + len(request.system) // 4,
            len(str(output.model_dump())) // 4,
        )
        return ModelResponse(
            Message(Role.ASSISTANT, (call,)), StopReason.TOOL_USE, usage, "latency"
        )


async def main(
    latency: float, jitter: float, concurrency: int, domains_n: int, per_domain: int
) -> None:
    domains = load_shipped_knowledge().domains[:domains_n]
    requests = {d.name: biso_request(PROBLEM, FRAME, d, per_domain) for d in domains}
    model = LatencyModel(latency, jitter, requests)
    started = time.perf_counter()
    run = await run_biso(
        ToolCallingStructuredModel(model),
        PROBLEM,
        FRAME,
        domains,
        per_domain=per_domain,
        concurrency=concurrency,
    )
    wall = time.perf_counter() - started
    ideal = run.calls / concurrency * latency
    passed = sum(1 for h in run.hypotheses if h.gate.status.value == "passed")
    print(
        f"domains {len(domains)} x {per_domain} hypotheses, concurrency {concurrency}, latency {latency} s +- {jitter}"
    )
    print(
        f"calls {run.calls} (model calls {model.calls}), hypotheses {run.generated} generated, {len(run.hypotheses)} kept, {passed} passed the gate"
    )
    print(f"tokens in {run.usage.input_tokens}, out {run.usage.output_tokens}")
    print(
        f"wall {wall:.2f} s, ideal {ideal:.2f} s (calls / concurrency x latency), ratio {wall / ideal:.3f}; sequential ~{run.calls * latency:.1f} s"
    )
    print(
        f"RESULT wall_s={wall:.3f} ideal_s={ideal:.3f} ratio={wall / ideal:.3f} sequential_s={run.calls * latency:.1f} calls={run.calls}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--latency", type=float, default=1.5)
    parser.add_argument("--jitter", type=float, default=0.3)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--domains", type=int, default=24)
    parser.add_argument("--per-domain", type=int, default=3)
    a = parser.parse_args()
    asyncio.run(main(a.latency, a.jitter, a.concurrency, a.domains, a.per_domain))

"""SEARCH round benchmark: one round per runtime profile over an offline BISO pool (8 domains x 2),
through a scripted structured model that answers with the offline operators after a fixed latency.

The scripted model sleeps `--latency` seconds per call, then returns the offline generator's child,
validated as any model's output. Prints, per profile: seeds, calls, children per operator, degraded
and skipped applications, wall time, the ideal ceil(calls / concurrency) x latency and the
sequential estimate calls x latency. No assertions. Ends with:
    RESULT interactive_wall_s=<float> interactive_calls=<int> research_wall_s=<float> research_calls=<int>

Run: make bench-search   (or backend/.venv/bin/python bench/bench_search_round.py [--latency 1.5] [--concurrency 8])
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))

from forge.core.problem_frame import ProblemFrame
from forge.core.search_plan import RuntimeProfile
from forge.engine.run_biso import BisoOutput, run_biso
from forge.engine.run_search_round import run_search_round
from forge.engine.search_operators import OperatorOutput
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.providers.offline.biso_offline import offline_biso
from forge.providers.offline.offline_structured_model import OfflineStructuredModel
from forge.providers.offline.search_offline import offline_search

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
OFFLINE = OfflineStructuredModel({BisoOutput: offline_biso, OperatorOutput: offline_search})


class SlowScripted:
    """A StructuredModel that answers after `latency` seconds with the offline operators' output."""

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.calls = 0

    @property
    def label(self) -> str:
        return "scripted with latency"

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        self.calls += 1
        await asyncio.sleep(self.latency)
        return await OFFLINE.generate(request)


async def main(latency: float, concurrency: int) -> None:
    pool = (await run_biso(OFFLINE, PROBLEM, FRAME, load_shipped_knowledge().domains[:8], per_domain=2)).hypotheses
    print(f"pool: {len(pool)} hypotheses; latency {latency} s per call; concurrency {concurrency}")
    result: dict[str, tuple[float, int]] = {}
    for profile in RuntimeProfile:
        model = SlowScripted(latency)
        start = time.perf_counter()
        run = await run_search_round(model, pool, FRAME, profile, problem=PROBLEM, concurrency=concurrency)
        wall = time.perf_counter() - start
        ideal = math.ceil(run.calls / concurrency) * latency
        print(
            f"{profile.value:>11}: seeds={len(run.selection.seeds)} calls={run.calls} children={len(run.children)} "
            f"{dict(run.operators)} degraded={run.degraded} skipped={run.skipped} coverage={run.selection.coverage_ratio:.2f} "
            f"wall={wall:.2f}s ideal={ideal:.2f}s sequential={run.calls * latency:.1f}s"
        )
        result[profile.value] = (wall, run.calls)
    (iw, ic), (rw, rc) = result["interactive"], result["research"]
    print(f"RESULT interactive_wall_s={iw:.3f} interactive_calls={ic} research_wall_s={rw:.3f} research_calls={rc}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=1.5)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(main(args.latency, args.concurrency))

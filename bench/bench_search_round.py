"""SEARCH round benchmark: each runtime profile's `search_depth` rounds (interactive 1, research 2) over an
offline BISO pool (8 domains x 2), each later round selecting from the pool with the earlier rounds'
children in it (and never re-expanding an earlier seed), as the SYNTHESIZE stage does;
through a scripted structured model that answers with the offline generators after a fixed latency,
with the HKG operators grounded on the demo hypergraph and transform_space on the shipped concept
space of the problem's target domain.

The scripted model sleeps `--latency` seconds per call, then returns the offline generator's value
(every operator, the Transform Gate's logic check included), validated as any model's output.
Prints, per profile and round: seeds (how many are children of earlier rounds), calls, children per operator, degraded and skipped applications, HKG
outcomes, Transform Gate decisions, wall time, the ideal (one batch of operator calls, then one of
logic checks: Σ ceil(batch / concurrency) x latency) and the sequential estimate calls x latency.
Then the HKG's own cost: opening the demo hypergraph and `--traces` groundings of the pool's
hypotheses (the traversal cache is cold for the first pass, warm for the second). No assertions.
Ends with:
    RESULT interactive_wall_s=<float> interactive_calls=<int> research_wall_s=<float> research_calls=<int>
           research_operators=<int> research_rounds=<int> hkg_open_s=<float> hkg_trace_ms_p50=<float>
(wall, calls and operators summed over the profile's rounds)

Run: make bench-search   (or backend/.venv/bin/python bench/bench_search_round.py [--latency 1.5] [--concurrency 8])
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_structured_model
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.search.concept_space import resolve_concept_space
from forge.core.search.plan import PROFILES, RuntimeProfile, SearchOperator
from forge.core.search.transform_gate import TransformStatus
from forge.engine.explore.biso import run_biso
from forge.engine.search.search_round import run_search_round
from forge.engine.search.structural_operators import grounding_request
from forge.knowledge.load_concept_spaces import load_concept_spaces
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.offline_model import OfflineModel
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.services.stages.search_grounding import LazyHkgGrounding

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame(
    "Cut emergency wait times",
    "emergency department",
    "shorter waits",
    ("without more staff",),
    success_criteria=("median wait under 30 minutes",),
)
OFFLINE = build_structured_model(
    ModelRoute(Provider.OFFLINE, "offline"), OfflineModel(KNOWLEDGE_DIR), load_shipped_knowledge(KNOWLEDGE_DIR).domains
)


class SlowScripted:
    """A StructuredModel that answers after `latency` seconds with the offline generators' output."""

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


def _grounding() -> LazyHkgGrounding:
    nothing_ingested = Path(tempfile.gettempdir()) / "forge-bench-no-hypergraph.jsonl"
    return LazyHkgGrounding(nothing_ingested, load_shipped_knowledge(), HashedTextEmbedder())


async def hkg_cost(pool: tuple[Any, ...]) -> tuple[float, float]:
    grounding = _grounding()
    start = time.perf_counter()
    await grounding.trace(grounding_request(SearchOperator.HYPERPATH_EXPAND, pool[:1], FRAME))
    opened = time.perf_counter() - start
    requests = [grounding_request(SearchOperator.HYPERPATH_EXPAND, (h,), FRAME) for h in pool]
    for label in ("cold", "warm"):
        times = []
        for request in requests:
            t = time.perf_counter()
            await grounding.trace(request)
            times.append((time.perf_counter() - t) * 1000)
        print(
            f"HKG ({grounding.origin}): open {opened:.2f} s; {len(times)} traces {label}: "
            f"p50 {statistics.median(times):.2f} ms, max {max(times):.2f} ms"
        )
        if label == "cold":
            cold_p50 = statistics.median(times)
    return opened, cold_p50


def report_round(profile: RuntimeProfile, depth: int, run: Any, wall: float, latency: float, concurrency: int) -> None:
    checks = sum(1 for t in run.transforms if t.logic is not None)
    ideal = (math.ceil((run.calls - checks) / concurrency) + math.ceil(checks / concurrency)) * latency
    accepted = sum(1 for t in run.transforms if t.status is TransformStatus.ACCEPTED)
    from_children = sum(1 for s in run.selection.seeds if not s.startswith("biso-"))
    print(
        f"{profile.value:>11} round {depth + 1}: seeds={len(run.selection.seeds)} (children of earlier rounds: "
        f"{from_children}) calls={run.calls} children={len(run.children)} "
        f"operators={len(run.operators)} {dict(run.operators)}\n"
        f"             degraded={run.degraded} skipped={run.skipped} failed={len(run.failures)} "
        f"hkg={dict(run.hkg_paths)} ungrounded={run.ungrounded} "
        f"transform_gate=accepted {accepted}/rejected {len(run.transforms) - accepted}\n"
        f"             wall={wall:.2f}s ideal={ideal:.2f}s sequential={run.calls * latency:.1f}s"
    )


async def main(latency: float, concurrency: int) -> None:
    pool = (await run_biso(OFFLINE, PROBLEM, FRAME, load_shipped_knowledge().domains[:8], per_domain=2)).hypotheses
    space = resolve_concept_space(FRAME, PROBLEM, load_concept_spaces())
    print(f"pool: {len(pool)} hypotheses; latency {latency} s per call; concurrency {concurrency}; space: {space.name}")
    opened, trace_p50 = await hkg_cost(tuple(pool))
    grounding = _grounding()
    await grounding.trace(grounding_request(SearchOperator.HYPERPATH_EXPAND, pool[:1], FRAME))  # opened before timing
    result: dict[str, tuple[float, int, int]] = {}
    for profile in RuntimeProfile:
        grown, seeds, wall, calls, operators = list(pool), [], 0.0, 0, set()
        for depth in range(PROFILES[profile].search_depth):
            model = SlowScripted(latency)
            start = time.perf_counter()
            run = await run_search_round(
                model,
                grown,
                FRAME,
                profile,
                problem=PROBLEM,
                depth=depth,
                expanded=seeds,
                concurrency=concurrency,
                grounding=grounding,
                space=space,
            )
            took = time.perf_counter() - start
            report_round(profile, depth, run, took, latency, concurrency)
            grown += run.children
            seeds += run.selection.seeds
            wall, calls, operators = wall + took, calls + run.calls, operators | set(run.operators)
        result[profile.value] = (wall, calls, len(operators))
    (iw, ic, _), (rw, rc, ro) = result["interactive"], result["research"]
    print(
        f"RESULT interactive_wall_s={iw:.3f} interactive_calls={ic} research_wall_s={rw:.3f} research_calls={rc} "
        f"research_operators={ro} research_rounds={PROFILES[RuntimeProfile.RESEARCH].search_depth} hkg_open_s={opened:.3f} hkg_trace_ms_p50={trace_p50:.2f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=1.5)
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(main(args.latency, args.concurrency))

"""Helper for bench_hkg.py, run by an interpreter that has HyperNetX (never the product's venv).

Reads a JSON file {"edges": [[node, ...], ...], "pairs": [[a, b], ...], "s": 1}, builds a HyperNetX
Hypergraph and times `distance(a, b, s)` for each pair; prints one JSON line with the timings.
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")


def main() -> None:
    import hypernetx as hnx

    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    started = time.perf_counter()
    graph = hnx.Hypergraph(
        {f"e{i}": members for i, members in enumerate(spec["edges"])}
    )
    build_s = time.perf_counter() - started
    timings, distances = [], []
    for a, b in spec["pairs"]:
        started = time.perf_counter()
        try:
            distance = graph.distance(a, b, s=spec["s"])
        except Exception as error:
            distance = f"error: {type(error).__name__}"
        timings.append(time.perf_counter() - started)
        distances.append(
            distance if isinstance(distance, (int, float, str)) else str(distance)
        )
    print(
        json.dumps(
            {
                "version": hnx.__version__,
                "build_s": build_s,
                "timings": timings,
                "distances": distances,
            }
        )
    )


if __name__ == "__main__":
    main()

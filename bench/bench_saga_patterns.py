"""Benchmark: SAGA's favourite-pattern grouping over a full pattern history (5,000 sightings, the
most a checkpoint reads), pigeonhole-indexed leaders vs the plain first-group loop it replaced. Prints numbers;
no assertions.

Ends with: RESULT group_ms_distinct=<float> plain_ms_distinct=<float> group_ms_300_patterns=<float>
Run: backend/.venv/bin/python bench/bench_saga_patterns.py [--sightings 5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend" / "tests"))

from support.plain_pattern_groups import plain_groups  # the rule written plainly, as the tests use it

from forge.core.saga.patterns import PatternSighting, group_patterns


def histories(n: int, rng: random.Random) -> dict[str, list[PatternSighting]]:
    distinct = [PatternSighting(rng.getrandbits(64), "p", f"s{rng.randrange(50)}", 7.0) for _ in range(n)]
    bases = [rng.getrandbits(64) for _ in range(300)]
    near = []
    for _ in range(n):
        flip = 1 << rng.randrange(64) if rng.random() < 0.5 else 0
        near.append(PatternSighting(rng.choice(bases) ^ flip, "p", f"s{rng.randrange(50)}", 7.0))
    return {"distinct": distinct, "300_patterns": near}


def best_ms(work, history: list[PatternSighting], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work(history)
        times.append(time.perf_counter() - started)
    return 1000 * min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sightings", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results = {}
    for name, history in histories(args.sightings, random.Random(7)).items():
        assert group_patterns(history) == plain_groups(history)
        grouped, plain = best_ms(group_patterns, history, args.repeat), best_ms(plain_groups, history, args.repeat)
        groups = len(group_patterns(history))
        print(f"{name:>13}: {len(history)} sightings, {groups} groups: indexed {grouped:.1f} ms, plain loop {plain:.1f} ms")
        results[name] = (grouped, plain)
    print(
        f"RESULT group_ms_distinct={results['distinct'][0]:.1f} plain_ms_distinct={results['distinct'][1]:.1f} "
        f"group_ms_300_patterns={results['300_patterns'][0]:.1f}"
    )


if __name__ == "__main__":
    main()

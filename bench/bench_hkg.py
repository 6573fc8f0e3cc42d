"""Benchmark: HKG k shortest hyperpaths on a synthetic hypergraph at the paper's scale.

The hypergraph (fixed seed): 161,172 nodes and 320,201 hyperedges; hyperedge sizes 2 + a geometric
draw (mean 2.35); every node in at least one hyperedge, the other incidences spread by a
Zipf–Mandelbrot rank law d(r) ∝ (r + r0)^-1.23 with r0 solved so that the largest degree is about
11,000. 1,000 random start/end node pairs; k = 3, max_len = 6, IS = 1 and IS = 2.

Prints build time, memory, p50/p95/p99 latency; node matching (`NodeMatcher`: build, and `match` of
--match-terms two-word terms, no vectors) over the same number of nodes labelled with 1-3 words of a
Zipf-distributed 8,000-word vocabulary (the paths' labels are all "term N"); the same IS = 1 queries answered by networkx on the
bipartite incidence graph (bidirectional shortest path, and `shortest_simple_paths` for k = 3, on the
first --networkx-pairs pairs, all 1,000 by default, with a per-query timeout); HyperNetX `distance` on growing subgraphs when an
interpreter with HyperNetX is given (`--hypernetx-python`, a throwaway venv: HyperNetX is not a
product dependency). Ends with one line:
    RESULT build_s=<float> p50_ms=<float> p95_ms=<float> ratio_vs_networkx=<float>
Run: backend/.venv/bin/python bench/bench_hkg.py [--nodes N --edges M --pairs P] (see --help)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np

from forge.core.hkg.hypergraph_records import (
    Hyperedge,
    HyperedgeId,
    HypergraphContents,
    HypergraphNode,
    NodeId,
)
from forge.core.hkg.hypergraph_store import HypergraphStore, build_hypergraph_store
from forge.core.hkg.node_matching import NodeMatcher
from forge.core.hkg.k_shortest_hyperpaths import (
    HyperpathQuery,
    HyperpathResult,
    find_k_shortest_hyperpaths,
)

PAPER_NODES, PAPER_EDGES, PAPER_MAX_DEGREE, EXPONENT, MEAN_SIZE = (
    161_172,
    320_201,
    11_000,
    1.23,
    2.35,
)


class QueryTimeout(Exception):
    pass


@dataclass(frozen=True)
class Synthetic:
    sizes: np.ndarray
    members: np.ndarray  # node positions, hyperedge after hyperedge
    r0: float


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def zipf_mandelbrot_counts(
    n: int, total: int, top: int, exponent: float
) -> tuple[np.ndarray, float]:
    """n integer counts summing to `total`, largest ≈ `top`, following (r + r0)^-exponent."""
    low, high = 0.0, 1e6
    ranks = np.arange(1, n + 1, dtype=np.float64)
    for _ in range(80):
        r0 = (low + high) / 2
        weights = (ranks + r0) ** -exponent
        expected = weights * (top / weights[0])
        low, high = (r0, high) if expected.sum() < total else (low, r0)
    counts = np.floor(expected).astype(np.int64)
    counts[
        np.argsort(counts - expected, kind="stable")[: total - int(counts.sum())]
    ] += 1
    return counts, r0


def synthesize(nodes: int, edges: int, seed: int) -> Synthetic:
    rng = np.random.default_rng(seed)
    sizes = 1 + rng.geometric(1 / (MEAN_SIZE - 1), edges)
    top = max(2, round(PAPER_MAX_DEGREE * nodes / PAPER_NODES))
    extra, r0 = zipf_mandelbrot_counts(
        nodes, int(sizes.sum()) - nodes, top - 1, EXPONENT
    )
    slots = np.repeat(np.arange(nodes), 1 + extra)
    rng.shuffle(slots)
    return Synthetic(
        sizes, rng.permutation(nodes)[slots], r0
    )  # hubs land on random ids


def contents_of(synthetic: Synthetic, nodes: int) -> HypergraphContents:
    ids = [NodeId(f"n{i:06d}") for i in range(nodes)]
    bounds = np.concatenate([[0], np.cumsum(synthetic.sizes)]).tolist()
    members = synthetic.members.tolist()
    return HypergraphContents(
        tuple(HypergraphNode(node_id, f"term {i}") for i, node_id in enumerate(ids)),
        tuple(
            Hyperedge(
                HyperedgeId(f"e{j:06d}"),
                "related_to",
                tuple(ids[m] for m in members[bounds[j] : bounds[j + 1]]),
            )
            for j in range(len(synthetic.sizes))
        ),
    )


def percentiles(values_ms: list[float]) -> str:
    p50, p95, p99 = np.percentile(values_ms, [50, 95, 99])
    return f"p50 {p50:7.2f} ms   p95 {p95:7.2f} ms   p99 {p99:7.2f} ms   max {max(values_ms):8.2f} ms"


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    value = call()
    return (time.perf_counter() - started) * 1000, value


def run_ours(
    store: HypergraphStore, pairs: list[tuple[int, int]], s: int, k: int, max_len: int
) -> list[float]:
    latencies, outcomes = [], Counter()
    for a, b in pairs:
        query = HyperpathQuery(
            frozenset({store.node_at(a).id}),
            frozenset({store.node_at(b).id}),
            k,
            s,
            max_len,
        )
        ms, result = timed(lambda q=query: find_k_shortest_hyperpaths(store, q))
        latencies.append(ms)
        outcomes[describe(result)] += 1
    print(f"  IS={s}: {percentiles(latencies)}   mean {np.mean(latencies):.2f} ms")
    print(
        "         outcomes: "
        + "; ".join(f"{name} ×{count}" for name, count in sorted(outcomes.items()))
    )
    return latencies


def describe(result: HyperpathResult) -> str:
    if not result.paths:
        return result.status.value
    return f"{len(result.paths)} paths, shortest {result.paths[0].length}"


def incidence_graph(synthetic: Synthetic) -> nx.Graph:
    graph = nx.Graph()
    owners = np.repeat(np.arange(len(synthetic.sizes)), synthetic.sizes)
    graph.add_edges_from(
        zip(
            (("e", int(o)) for o in owners),
            (("n", int(m)) for m in synthetic.members),
            strict=True,
        )
    )
    return graph


def with_timeout(seconds: float, call: Callable[[], Any]) -> tuple[float, bool]:
    """(milliseconds, finished); a call still running after `seconds` is stopped and counted at the cap."""

    def expire(_signum: int, _frame: Any) -> None:
        raise QueryTimeout

    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.perf_counter()
    try:
        call()
        finished = True
    except QueryTimeout:
        finished = False
    except nx.NetworkXNoPath:
        finished = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return (time.perf_counter() - started) * 1000, finished


def first_k_simple_paths(
    graph: nx.Graph, source: Any, target: Any, k: int
) -> list[list[Any]]:
    return list(islice(nx.shortest_simple_paths(graph, source, target), k))


def networkx_queries(
    graph: nx.Graph, pairs: list[tuple[int, int]], k: int, timeout_s: float
) -> dict[str, Any]:
    shortest, k_paths, finished = [], [], 0
    for a, b in pairs:
        source, target = ("n", a), ("n", b)
        shortest.append(
            with_timeout(
                timeout_s,
                partial(nx.bidirectional_shortest_path, graph, source, target),
            )[0]
        )
        ms, done = with_timeout(
            timeout_s, partial(first_k_simple_paths, graph, source, target, k)
        )
        k_paths.append(ms)
        finished += done
    return {"shortest": shortest, "k_paths": k_paths, "finished": finished}


HYPERNETX_SIZES = (
    1_000,
    2_000,
    5_000,
    10_000,
    20_000,
    40_000,
    80_000,
    160_000,
    PAPER_EDGES,
)
HYPERNETX_MEMORY_BYTES = 6 * 2**30


def subgraph_edges(synthetic: Synthetic, edges: int) -> list[list[int]]:
    bounds = np.concatenate([[0], np.cumsum(synthetic.sizes[:edges])]).tolist()
    members = synthetic.members[: bounds[-1]].tolist()
    return [members[bounds[j] : bounds[j + 1]] for j in range(edges)]


def limit_memory() -> None:
    resource.setrlimit(
        resource.RLIMIT_AS, (HYPERNETX_MEMORY_BYTES, HYPERNETX_MEMORY_BYTES)
    )


def hypernetx_probe(
    python: str, spec: dict[str, Any], timeout_s: float
) -> dict[str, Any] | str:
    probe = Path(__file__).with_name("hypernetx_distance_probe.py")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(spec, handle)
    try:
        done = subprocess.run(
            [python, str(probe), handle.name],
            capture_output=True,
            check=False,
            text=True,
            timeout=timeout_s,
            preexec_fn=limit_memory,
        )
    except subprocess.TimeoutExpired:
        return f"did not finish within {timeout_s:.0f} s"
    finally:
        os.unlink(handle.name)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"failed (exit {done.returncode}, memory cap {HYPERNETX_MEMORY_BYTES / 2**30:.0f} GiB): {last[:160]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def hypernetx_section(
    python: str | None, synthetic: Synthetic, sizes: Iterator[int], timeout_s: float
) -> None:
    if python is None:
        print(
            "  skipped: no --hypernetx-python given and hypernetx is not importable here (kept out of the product)"
        )
        return
    rng = np.random.default_rng(11)
    for edges in sizes:
        members = subgraph_edges(synthetic, edges)
        present = sorted({m for group in members for m in group})
        pairs = [[int(a), int(b)] for a, b in rng.choice(present, size=(3, 2))]
        outcome = hypernetx_probe(
            python, {"edges": members, "pairs": pairs, "s": 1}, timeout_s
        )
        if isinstance(outcome, str):
            print(f"  {edges:>7,} hyperedges ({len(present):,} nodes): {outcome}")
            return
        mean_s = float(np.mean(outcome["timings"]))
        print(
            f"  {edges:>7,} hyperedges ({len(present):,} nodes): hypernetx {outcome['version']} build "
            f"{outcome['build_s']:.2f} s, distance {mean_s * 1000:,.0f} ms per pair (IS=1, 3 pairs), "
            f"distances {outcome['distances']}"
        )


def hypernetx_python(given: str | None) -> str | None:
    if given:
        return given
    try:
        import hypernetx  # noqa: F401
    except ImportError:
        return None
    return sys.executable


SYLLABLES = ("ka", "lo", "mi", "tu", "ne", "ri", "po", "da", "ve", "zu", "fo", "gi", "ha", "ju", "be", "ro", "ta", "ni", "wa", "ke")


def vocabulary_labels(nodes: int, seed: int) -> tuple[list[str], list[str]]:
    """Node labels of 1-3 words and two-word query terms, words drawn by a Zipf law (rank^-1)."""
    rng = np.random.default_rng(seed)
    words = [a + b + c for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES]
    weights = 1.0 / np.arange(1, len(words) + 1)
    weights /= weights.sum()
    def phrase(size: int) -> str:
        return " ".join(words[i] for i in rng.choice(len(words), size=size, p=weights))
    labels = [phrase(int(size)) for size in rng.integers(1, 4, size=nodes)]
    return labels, [phrase(2) for _ in range(nodes)]


def matching_section(args: argparse.Namespace) -> None:
    labels, terms = vocabulary_labels(args.nodes, args.seed)
    nodes = tuple(HypergraphNode(NodeId(f"n{i:06d}"), label) for i, label in enumerate(labels))
    store = build_hypergraph_store(HypergraphContents(nodes, ()))
    assert isinstance(store, HypergraphStore), store
    rss_before = rss_mb()
    build_ms, matcher = timed(lambda: NodeMatcher(store))
    matcher_mb = rss_mb() - rss_before
    latencies, found = [], 0
    for term in terms[: args.match_terms]:
        ms, match = timed(lambda t=term: matcher.match(t))
        latencies.append(ms)
        found += match.best is not None
    print(f"node matching over {len(nodes):,} vocabulary-labelled nodes: NodeMatcher built in {build_ms / 1000:.2f} s, +{matcher_mb:,.0f} MiB RSS")
    print(f"  {len(latencies)} two-word terms, no vectors: {percentiles(latencies)}   matched {found}")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--nodes", type=int, default=PAPER_NODES)
    parser.add_argument("--edges", type=int, default=PAPER_EDGES)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1230)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--max-len", type=int, default=6)
    parser.add_argument(
        "--networkx-pairs",
        type=int,
        default=1000,
        help="how many of the pairs (the first N) networkx also answers; 0 = skip",
    )
    parser.add_argument(
        "--networkx-timeout",
        type=float,
        default=10.0,
        help="seconds per networkx query",
    )
    parser.add_argument("--match-terms", type=int, default=300, help="terms NodeMatcher matches; 0 = skip")
    parser.add_argument(
        "--hypernetx-python", default=os.environ.get("HYPERNETX_PYTHON")
    )
    parser.add_argument(
        "--hypernetx-timeout",
        type=float,
        default=300.0,
        help="seconds per HyperNetX subgraph",
    )
    return parser.parse_args()


def build_section(args: argparse.Namespace) -> tuple[Synthetic, HypergraphStore, float]:
    rss_before = rss_mb()
    generate_ms, synthetic = timed(
        lambda: synthesize(args.nodes, args.edges, args.seed)
    )
    records_ms, contents = timed(lambda: contents_of(synthetic, args.nodes))
    build_ms, store = timed(lambda: build_hypergraph_store(contents))
    assert isinstance(store, HypergraphStore), store
    subset_ms, subset_index = timed(lambda: store.shared_subset_index(2))
    stats = store.stats()
    print(
        f"synthetic hypergraph (seed {args.seed}): generated in {generate_ms / 1000:.2f} s, records in {records_ms / 1000:.2f} s"
    )
    print(
        f"  nodes {stats.node_count:,}  hyperedges {stats.hyperedge_count:,}  incidences {stats.incidence_count:,}"
    )
    print(
        f"  mean hyperedge size {stats.mean_hyperedge_size:.3f}  max size {stats.max_hyperedge_size}  max node degree {stats.max_node_degree:,}"
    )
    print(
        f"  degrees: 1 + Zipf–Mandelbrot (r + {synthetic.r0:.2f})^-{EXPONENT}; isolated nodes {stats.isolated_node_count}"
    )
    print(
        f"build: store + CSR index {build_ms / 1000:.3f} s; IS=2 shared-subset index {subset_ms / 1000:.3f} s"
    )
    print(
        f"memory: CSR arrays {store.index.array_bytes / 2**20:.1f} MiB, IS=2 index {subset_index.array_bytes / 2**20:.1f} MiB, "
        f"process RSS {rss_mb():,.0f} MiB (+{rss_mb() - rss_before:,.0f} MiB for records, store and indexes)"
    )
    return synthetic, store, build_ms / 1000


def networkx_section(
    args: argparse.Namespace,
    synthetic: Synthetic,
    store: HypergraphStore,
    pairs: list[tuple[int, int]],
) -> float:
    sample = pairs[: args.networkx_pairs]
    rss_before = rss_mb()
    graph_ms, graph = timed(lambda: incidence_graph(synthetic))
    print(
        f"networkx {nx.__version__}: bipartite incidence graph {graph.number_of_nodes():,} vertices, {graph.number_of_edges():,} links,"
        f" built in {graph_ms / 1000:.2f} s, +{rss_mb() - rss_before:,.0f} MiB RSS"
    )
    ours = run_quiet(store, sample, args.k, args.max_len)
    theirs = networkx_queries(graph, sample, args.k, args.networkx_timeout)
    print(
        f"  same {len(sample)} pairs (the first of the {len(pairs):,}), per-query timeout {args.networkx_timeout:.0f} s:"
    )
    print(f"  ours      k={args.k}: {percentiles(ours)}")
    print(
        f"  networkx  bidirectional_shortest_path (k=1): {percentiles(theirs['shortest'])}"
    )
    print(
        f"  networkx  shortest_simple_paths k={args.k}:  {percentiles(theirs['k_paths'])}"
    )
    print(
        f"            finished {theirs['finished']}/{len(sample)}; timed-out queries count at the cap, so ratios are lower bounds"
    )
    ratio = float(np.sum(theirs["k_paths"]) / np.sum(ours))
    print(
        f"  ratio networkx k={args.k} / ours k={args.k}: {ratio:.1f}x on total time, "
        f"{np.median(theirs['k_paths']) / np.median(ours):.1f}x on medians; "
        f"networkx k=1 / ours k={args.k}: {np.sum(theirs['shortest']) / np.sum(ours):.1f}x"
    )
    return ratio


def run_quiet(
    store: HypergraphStore, pairs: list[tuple[int, int]], k: int, max_len: int
) -> list[float]:
    def one(a: int, b: int) -> float:
        query = HyperpathQuery(
            frozenset({store.node_at(a).id}),
            frozenset({store.node_at(b).id}),
            k,
            1,
            max_len,
        )
        return timed(lambda: find_k_shortest_hyperpaths(store, query))[0]

    return [one(a, b) for a, b in pairs]


def main() -> None:
    args = parse_args()
    synthetic, store, build_s = build_section(args)
    rng = np.random.default_rng(args.seed + 1)
    pairs = [
        (int(a), int(b)) for a, b in rng.integers(0, args.nodes, size=(args.pairs, 2))
    ]
    print(
        f"queries: {args.pairs:,} random start/end node pairs, k={args.k}, max_len={args.max_len}, no cache"
    )
    latencies = {s: run_ours(store, pairs, s, args.k, args.max_len) for s in (1, 2)}
    if args.match_terms:
        matching_section(args)
    ratio = (
        networkx_section(args, synthetic, store, pairs)
        if args.networkx_pairs
        else float("nan")
    )
    print("HyperNetX distance (IS=1) on the first N hyperedges of the same graph:")
    sizes = (n for n in HYPERNETX_SIZES if n <= args.edges)
    hypernetx_section(
        hypernetx_python(args.hypernetx_python),
        synthetic,
        sizes,
        args.hypernetx_timeout,
    )
    p50, p95 = np.percentile(latencies[1], [50, 95])
    print(
        f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB"
    )
    print(
        f"RESULT build_s={build_s:.3f} p50_ms={p50:.3f} p95_ms={p95:.3f} ratio_vs_networkx={ratio:.1f}"
    )


if __name__ == "__main__":
    main()

"""Benchmark: how many texts a second the sentence embedder (all-MiniLM-L6-v2 on onnxruntime) embeds here.

Texts: claim-sized sentences (12–30 words, built from a fixed vocabulary with a fixed seed, all distinct
so the cache never answers) and abstract-sized paragraphs (~150 words), run cold (each text once, the
model already loaded), then once more from the cache. Load time (graph build + session) is reported apart.

Prints a table, then:
    RESULT load_s=<f> claims_per_s=<f> abstracts_per_s=<f> cached_per_s=<f>
Run: backend/.venv/bin/python bench/bench_embedding_throughput.py [--claims N] [--abstracts N]
"""

from __future__ import annotations

import argparse
import random
import time

from forge.providers.sentence_embedder import SentenceEmbedder

WORDS = (
    "heat storage battery catalyst reaction queue hospital waiting energy grid solar panel policy market price "
    "network signal protein membrane enzyme traffic city water cooling pressure material strength sensor model "
    "learning feedback loop demand supply risk cost patient triage emission carbon soil crop yield"
).split()


def _texts(count: int, words: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [f"{i}: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(words // 2, words))) for i in range(count)]


def _rate(embedder: SentenceEmbedder, texts: list[str]) -> float:
    started = time.perf_counter()
    embedder.vectors(texts)
    return len(texts) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--claims", type=int, default=256)
    parser.add_argument("--abstracts", type=int, default=64)
    args = parser.parse_args()
    embedder = SentenceEmbedder()
    started = time.perf_counter()
    embedder.load()
    load_s = time.perf_counter() - started
    claims = _texts(args.claims, 30, 1)
    claims_rate = _rate(embedder, claims)
    abstracts_rate = _rate(embedder, _texts(args.abstracts, 300, 2))
    cached_rate = _rate(embedder, claims)
    print(f"{'what':<22} {'texts/s':>10}")
    for name, rate in (
        ("claims (12-30 words)", claims_rate),
        ("abstracts (~150-300)", abstracts_rate),
        ("cached", cached_rate),
    ):
        print(f"{name:<22} {rate:>10.1f}")
    print(
        f"RESULT load_s={load_s:.2f} claims_per_s={claims_rate:.1f} abstracts_per_s={abstracts_rate:.1f} "
        f"cached_per_s={cached_rate:.0f}"
    )


if __name__ == "__main__":
    main()

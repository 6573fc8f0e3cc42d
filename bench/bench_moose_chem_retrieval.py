"""Benchmark: retrieval by meaning on MOOSE-Chem — inspirations for a research question, and the
remembered hypothesis a related question should recall (hypothesis memory, seed 004).

Data (bench only, never shipped: the abstracts belong to their publishers): `../shared/data/moose-chem/`
(MIT, ZonglinY/MOOSE-Chem; see its SOURCE.md). `--benchmark`: papers with `background_question`,
`inspirations` [{title}] and `ground_truth_hypothesis`; `--corpus`: [{title, abstract}].

A. Inspiration retrieval: for each paper's background question, rank the whole corpus (title +
   abstract) and report recall@20 and recall@50 of its ground-truth inspirations (matched by
   normalised title; inspirations not in the corpus are left out of the denominator) for
     - bm25:     forge.core.research.bm25_index (title counted twice),
     - hashed:   forge.offline.HashedTextEmbedder (spelling: hashed word/trigram features),
     - embedder: forge.providers.sentence_embedder.SentenceEmbedder (meaning: all-MiniLM-L6-v2 on onnxruntime),
     - passages: the embedder over title-prefixed passages of ≤ 120 words (core.research.hybrid_ranking.passages),
                 a document's cosine its best passage's (max-sim) instead of the first 256 tokens,
     - hybrid:   core.research.hybrid_ranking.fuse of bm25 and passages — the retrieval research and memory
                 ship. Its BM25 weight (COSINE_PLUS_SCALED_BM25: the fusion relevance × C can use) is
                 CHOSEN ON A DEV HALF (even rows) and MEASURED ON THE OTHER HALF; then the halves swap, and
                 the pooled held-out numbers are what the goals are judged on. For comparison, the same
                 protocol over every (variant, fusion) pair (RRF k ∈ {10, 30, 60} × BM25 weight, min–max
                 score fusion) is printed as "any fusion (not shippable)".
   `--vectors PATH` keeps the model's vectors in an .npz between runs (the throughput printed is the run
   that computed them).
B. Hypothesis memory recall: every paper's ground-truth hypothesis is a remembered episode (equal C);
   each background question is a new session's problem, ranked with `rank_episodes` (fused relevance
   × C, shipped), by cosine × C (before), and offered by `recall_for_problem` (cosine ≥
   RECALL_MIN_SIMILARITY, at most RECALL_LIMIT). Reported: recall@1 and recall@3 (RECALL_LIMIT) of the
   paper's own hypothesis (all 36 are chemistry: "related" is loose).

Prints a table, then:
    RESULT recall{20,50}_{embedder,bm25,hashed,hybrid}=<f> (all 36; embedder = passages, hybrid = shipped)
           heldout_recall{20,50}_{embedder,bm25,hybrid}=<f> testA_recall{20,50}_{bm25,shipped}=<f>
           memory_recall{1,3}_{embedder,hashed}=<f> heldout_hybrid_over_bm25_at20=<f> embed_ms_per_text=<f>
Run: make bench-moose-chem (backend/.venv/bin/python bench/bench_moose_chem_retrieval.py [--vectors PATH])
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

import numpy as np

from forge.core.domain_types import SessionId
from forge.core.hypotheses.memory import (
    HypothesisEpisode,
    HypothesisEpisodeId,
    MemoryQuery,
    rank_episodes,
    recall_for_problem,
    similarity,
)
from forge.core.hypotheses.remembered import RECALL_LIMIT
from forge.core.research.bm25_index import IndexedDocument, build_bm25_index
from forge.core.research.hybrid_ranking import DEFAULT_FUSION, Fusion, FusionMethod, fuse, passages
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.providers.sentence_embedder import SentenceEmbedder

DATA = next(
    (
        p / "shared" / "data" / "moose-chem"
        for p in Path(__file__).resolve().parents
        if (p / "shared" / "data").is_dir()
    ),
    Path(__file__).resolve().parents[2] / "shared" / "data" / "moose-chem",
)  # found from the main checkout and from a worktree beside it
# What the product can ship: memory multiplies the relevance by C, so it must keep the cosine's scale.
SHIPPABLE = [Fusion(FusionMethod.COSINE_PLUS_SCALED_BM25, lexical_weight=w / 10) for w in range(1, 10)]
# For comparison only (RRF is nearly flat near the top, min–max zeroes the least related of few).
OTHER_FUSIONS = [
    Fusion(FusionMethod.RECIPROCAL_RANK, rrf_k=k, lexical_weight=w) for k in (10, 30, 60) for w in (0.3, 0.5, 0.7)
] + [Fusion(FusionMethod.SCORES, lexical_weight=w / 10) for w in range(1, 10)]
SEMANTICS = ("truncated", "passages", "whole+passages")
SHIPPED_SEMANTIC = "passages"  # what research.local_corpus computes


def _norm(title: str) -> str:
    return " ".join(title.lower().split())


def _embed(embedder: HashedTextEmbedder | SentenceEmbedder, texts: Sequence[str]) -> np.ndarray:
    vectors = np.array(asyncio.run(embedder.embed(list(texts))), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def _recall(ranking: Sequence[int], wanted: set[int], k: int) -> float:
    return len(wanted & set(ranking[:k])) / len(wanted)


def _ranking(scores: dict[str, float], n: int) -> list[int]:
    """Keys best first, then every other document in corpus order (recall needs a full ranking)."""
    found = [int(k) for k in sorted(scores, key=lambda k: -scores[k])]
    seen = set(found)
    return found + [i for i in range(n) if i not in seen]


def _cosines(docs: np.ndarray, q: np.ndarray) -> dict[str, float]:
    return {str(i): float(v) for i, v in enumerate(docs @ q)}


def _passage_cosines(passage_vectors: np.ndarray, owner: np.ndarray, q: np.ndarray, n: int) -> dict[str, float]:
    best = np.full(n, -1.0, dtype=np.float32)
    np.maximum.at(best, owner, passage_vectors @ q)
    return {str(i): float(v) for i, v in enumerate(best)}


def _vectors(texts: list[str], cache: Path | None) -> tuple[np.ndarray, float]:
    """The model's vectors of `texts` and ms per text; `cache` (an .npz) keeps both between runs."""
    if cache is not None and cache.exists():
        saved = np.load(cache, allow_pickle=False)
        if list(saved["texts"]) == texts:
            return saved["vectors"], float(saved["ms"])
    model = SentenceEmbedder()
    model.load()  # the load (graph build, session) is not throughput
    started = time.perf_counter()
    vectors = _embed(model, texts)
    ms = 1000 * (time.perf_counter() - started) / len(set(texts))
    if cache is not None:
        np.savez(cache, texts=np.array(texts), vectors=vectors, ms=np.array(ms))
    return vectors, ms


def inspiration_scores(
    papers: list[dict], corpus: list[dict], cache: Path | None
) -> tuple[dict[str, list[dict[str, float]]], float, int]:
    """Per method, per question: the score of each document (bm25, the semantic variants, hashed)."""
    questions = [p["background_question"] for p in papers]
    index = build_bm25_index(IndexedDocument(str(i), c["title"], c["abstract"]) for i, c in enumerate(corpus))
    scores: dict[str, list[dict[str, float]]] = {"bm25": [index.scores(q) for q in questions]}
    docs = [f"{c['title']}. {c['abstract']}" for c in corpus]
    cut = [passages(c["title"], c["abstract"]) for c in corpus]
    owner = np.array([i for i, parts in enumerate(cut) for _ in parts])
    texts = docs + questions + [p for parts in cut for p in parts]
    vectors, ms_per_text = _vectors(texts, cache)
    doc_v, q_v, passage_v = vectors[: len(docs)], vectors[len(docs) : len(texts) - len(owner)], vectors[-len(owner) :]
    n = len(corpus)
    scores["truncated"] = [_cosines(doc_v, q) for q in q_v]
    scores["passages"] = [_passage_cosines(passage_v, owner, q, n) for q in q_v]
    scores["whole+passages"] = [
        {k: (a[k] + b[k]) / 2 for k in a} for a, b in zip(scores["truncated"], scores["passages"], strict=True)
    ]
    hashed = HashedTextEmbedder()
    hashed_docs, hashed_q = _embed(hashed, docs), _embed(hashed, questions)
    scores["hashed"] = [_cosines(hashed_docs, q) for q in hashed_q]
    return scores, ms_per_text, len(owner)


def _hybrid(scores: dict[str, list[dict[str, float]]], semantic: str, fusion: Fusion, n: int) -> list[list[int]]:
    return [
        _ranking({f.key: f.score for f in fuse(lex, sem, fusion)}, n)
        for lex, sem in zip(scores["bm25"], scores[semantic], strict=True)
    ]


def _mean_recall(rankings: list[list[int]], wanted: list[set[int]], rows: Sequence[int], k: int) -> float:
    return float(np.mean([_recall(rankings[r], wanted[r], k) for r in rows]))


def choose_on_dev(
    scores: dict[str, list[dict[str, float]]], wanted: list[set[int]], dev: Sequence[int], n: int
) -> tuple[str, Fusion, tuple[str, Fusion]]:
    """Chosen on DEV rows only (recall@20, then @50): the embedding variant, the shippable fusion of BM25
    with passages (what the product runs), and — for comparison — the best (variant, fusion) of every grid."""

    def key(rankings: list[list[int]]) -> tuple[float, float]:
        return (_mean_recall(rankings, wanted, dev, 20), _mean_recall(rankings, wanted, dev, 50))

    variant = max(SEMANTICS, key=lambda s: key([_ranking(x, n) for x in scores[s]]))
    fusion = max(SHIPPABLE, key=lambda f: key(_hybrid(scores, SHIPPED_SEMANTIC, f, n)))
    pairs = [(s, f) for s in SEMANTICS for f in SHIPPABLE + OTHER_FUSIONS]
    anything = max(pairs, key=lambda sf: key(_hybrid(scores, sf[0], sf[1], n)))
    return variant, fusion, anything


def memory_recall(
    papers: list[dict], embedder: HashedTextEmbedder | SentenceEmbedder
) -> dict[str, tuple[float, float]]:
    """Recall@1 and @RECALL_LIMIT of each question's own hypothesis: shipped (`rank_episodes`, fused
    relevance × C), cosine × C (before) and the offer (`recall_for_problem`, cosine ≥ RECALL_MIN_SIMILARITY)."""
    hypotheses = [p["ground_truth_hypothesis"] for p in papers]
    vectors = _embed(embedder, hypotheses)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    episodes = [
        HypothesisEpisode(
            HypothesisEpisodeId(UUID(int=i + 1)), h, tuple(map(float, v)), 0.5, "", SessionId(UUID(int=0)), at
        )
        for i, (h, v) in enumerate(zip(hypotheses, vectors, strict=True))
    ]
    found: dict[str, list[list[str]]] = {"fused": [], "cosine": [], "offered": []}
    for p, q in zip(papers, _embed(embedder, [p["background_question"] for p in papers]), strict=True):
        query = MemoryQuery(p["background_question"], tuple(map(float, q)))
        found["fused"].append([str(r.episode.id) for r in rank_episodes(query, episodes, min_c=0.0)])
        by_cosine = sorted(episodes, key=lambda e: -similarity(query.vector, e.vector) * e.c)
        found["cosine"].append([str(e.id) for e in by_cosine])
        found["offered"].append([h.episode_id for h in recall_for_problem(query, episodes)])
    own = [str(UUID(int=i + 1)) for i in range(len(papers))]
    return {
        name: (
            float(np.mean([ids[:1] == [o] for ids, o in zip(lists, own, strict=True)])),
            float(np.mean([o in ids[:RECALL_LIMIT] for ids, o in zip(lists, own, strict=True)])),
        )
        for name, lists in found.items()
    }


def _table(
    title: str, rows: dict[str, list[list[int]]], wanted: list[set[int]], which: Sequence[int]
) -> dict[str, float]:
    print(f"\n{title}\n{'method':<34} {'recall@20':>10} {'recall@50':>10}")
    out = {}
    for method, ranks in rows.items():
        r20, r50 = _mean_recall(ranks, wanted, which, 20), _mean_recall(ranks, wanted, which, 50)
        out[f"recall20_{method}"], out[f"recall50_{method}"] = r20, r50
        print(f"{method:<34} {r20:>10.3f} {r50:>10.3f}")
    return out


def held_out(scores: dict[str, list[dict[str, float]]], wanted: list[set[int]], n: int) -> dict[str, float]:
    """Two folds (even rows, odd rows): choose on one, measure on the other; then the swap."""
    rows = range(len(wanted))
    folds = ([r for r in rows if r % 2 == 0], [r for r in rows if r % 2 == 1])
    names = ("bm25", "embedder", "hybrid", "any fusion (not shippable)")
    held: dict[str, list[list[int]]] = {name: [[] for _ in rows] for name in names}
    out: dict[str, float] = {}
    for name, (dev, test) in (("A", folds), ("B", folds[::-1])):
        variant, fusion, (other_semantic, other) = choose_on_dev(scores, wanted, dev, n)
        print(f"\nDEV {name} ({len(dev)} papers) chose: embedder={variant}, hybrid=passages + {fusion.label}")
        print(f"  (over every grid: {other_semantic} + {other.label})")
        ranks = dict(
            zip(
                names,
                (
                    [_ranking(x, n) for x in scores["bm25"]],
                    [_ranking(x, n) for x in scores[variant]],
                    _hybrid(scores, SHIPPED_SEMANTIC, fusion, n),
                    _hybrid(scores, other_semantic, other, n),
                ),
                strict=True,
            )
        )
        result = _table(f"TEST {name} ({len(test)} held-out papers)", ranks, wanted, test)
        out |= {f"test{name}_{k}": v for k, v in result.items()}
        for method, ranking in ranks.items():
            for r in test:
                held[method][r] = ranking[r]
        if name == "A":
            if fusion != DEFAULT_FUSION:
                print(f"NOTE: DEFAULT_FUSION ({DEFAULT_FUSION.label}) is not DEV A's choice")
            shipped = _hybrid(scores, SHIPPED_SEMANTIC, DEFAULT_FUSION, n)
            r20, r50 = _mean_recall(shipped, wanted, test, 20), _mean_recall(shipped, wanted, test, 50)
            out["testA_recall20_shipped"], out["testA_recall50_shipped"] = r20, r50
            print(f"{'shipped: passages + ' + DEFAULT_FUSION.label:<34} {r20:>10.3f} {r50:>10.3f}")
    out |= {
        f"heldout_{k}": v
        for k, v in _table(
            "HELD-OUT, both folds pooled (each paper ranked by the other fold's choice)", held, wanted, list(rows)
        ).items()
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmark", type=Path, default=DATA / "benchmark_dev_36.json")
    parser.add_argument("--corpus", type=Path, default=DATA / "inspiration_corpus_300.json")
    parser.add_argument("--vectors", type=Path, help="an .npz keeping the model's vectors between runs")
    args = parser.parse_args()
    papers = json.loads(args.benchmark.read_text(encoding="utf-8"))
    corpus = json.loads(args.corpus.read_text(encoding="utf-8"))
    by_title = {_norm(c["title"]): i for i, c in enumerate(corpus)}
    wanted = [{by_title[_norm(i["title"])] for i in p["inspirations"] if _norm(i["title"]) in by_title} for p in papers]
    scored = [(p, w) for p, w in zip(papers, wanted, strict=True) if w]
    found = [w for _, w in scored]
    scores, ms, passage_count = inspiration_scores([p for p, _ in scored], corpus, args.vectors)
    n = len(corpus)
    print(f"{len(scored)} of {len(papers)} papers have inspirations in the {n}-paper corpus ({passage_count} passages)")
    rankings = {m: [_ranking(x, n) for x in scores[m]] for m in ("bm25", "truncated", "passages", "hashed")}
    rankings["hybrid rrf(k=60) passages (before)"] = _hybrid(
        scores, "passages", Fusion(FusionMethod.RECIPROCAL_RANK), n
    )
    rankings[f"hybrid {DEFAULT_FUSION.label} passages (shipped)"] = _hybrid(scores, "passages", DEFAULT_FUSION, n)
    rows = list(range(len(found)))
    every = _table("ALL 36 (includes the DEV papers: not a held-out number)", rankings, found, rows)
    result = {k.split(" ")[0]: v for k, v in every.items() if "(before)" not in k}
    result |= {"recall20_embedder": every["recall20_passages"], "recall50_embedder": every["recall50_passages"]}
    result |= {"recall20_hybrid": every[f"recall20_hybrid {DEFAULT_FUSION.label} passages (shipped)"]}
    result |= {"recall50_hybrid": every[f"recall50_hybrid {DEFAULT_FUSION.label} passages (shipped)"]}
    result |= held_out(scores, found, n)
    print(f"\n{'memory':<34} {'recall@1':>10} {'recall@3':>10}")
    for name, embedder in (("embedder", SentenceEmbedder()), ("hashed", HashedTextEmbedder())):
        recalled = memory_recall(papers, embedder)
        result[f"memory_recall1_{name}"], result[f"memory_recall3_{name}"] = recalled["fused"]
        for way, label in (("fused", "fused × C (shipped)"), ("cosine", "cosine × C (before)"), ("offered", "offered")):
            r1, r3 = recalled[way]
            print(f"{name + ': ' + label:<34} {r1:>10.3f} {r3:>10.3f}")
    order = [f"recall{k}_{m}" for k in (20, 50) for m in ("embedder", "bm25", "hashed", "hybrid")]
    order += [f"heldout_recall{k}_{m}" for k in (20, 50) for m in ("embedder", "bm25", "hybrid")]
    order += [f"testA_recall{k}_{m}" for k in (20, 50) for m in ("bm25", "shipped")]
    order += [f"memory_recall{k}_{m}" for k in (1, 3) for m in ("embedder", "hashed")]
    ratio = result["heldout_recall20_hybrid"] / result["heldout_recall20_bm25"]
    print(
        "RESULT "
        + " ".join(f"{key}={result[key]:.4f}" for key in order)
        + f" heldout_hybrid_over_bm25_at20={ratio:.4f} embed_ms_per_text={ms:.3f}"
    )


if __name__ == "__main__":
    main()

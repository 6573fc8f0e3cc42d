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
     - hybrid:   reciprocal-rank fusion of bm25 and embedder (k = 60).
B. Hypothesis memory recall: every paper's ground-truth hypothesis is a remembered episode (equal C);
   each background question is a new session's problem, ranked with `rank_episodes` (similarity × C).
   Reported: recall@1 and recall@3 (RECALL_LIMIT: what a session is offered) of the paper's own
   hypothesis, the share of questions whose own hypothesis passes RECALL_MIN_SIMILARITY, and how
   many other papers' hypotheses pass it on average (all 36 are chemistry: "related" is loose).

Prints a table, then:
    RESULT recall20_embedder=<f> recall20_bm25=<f> recall20_hashed=<f> recall20_hybrid=<f>
           recall50_embedder=<f> recall50_bm25=<f> recall50_hashed=<f> recall50_hybrid=<f>
           memory_recall1_embedder=<f> memory_recall1_hashed=<f> memory_recall3_embedder=<f>
           memory_recall3_hashed=<f> embed_ms_per_text=<f>
Run: backend/.venv/bin/python bench/bench_moose_chem_retrieval.py [--benchmark PATH] [--corpus PATH]
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
from forge.core.hypotheses.memory import HypothesisEpisode, HypothesisEpisodeId, rank_episodes
from forge.core.hypotheses.remembered import RECALL_LIMIT, RECALL_MIN_SIMILARITY
from forge.core.research.bm25_index import IndexedDocument, build_bm25_index
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.providers.sentence_embedder import SentenceEmbedder

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "moose-chem"
RRF_K = 60


def _norm(title: str) -> str:
    return " ".join(title.lower().split())


def _embed(embedder: HashedTextEmbedder | SentenceEmbedder, texts: Sequence[str]) -> np.ndarray:
    vectors = np.array(asyncio.run(embedder.embed(list(texts))), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def _recall(ranking: Sequence[int], wanted: set[int], k: int) -> float:
    return len(wanted & set(ranking[:k])) / len(wanted)


def _rrf(*rankings: Sequence[int]) -> list[int]:
    score: dict[int, float] = {}
    for ranking in rankings:
        for position, doc in enumerate(ranking):
            score[doc] = score.get(doc, 0.0) + 1.0 / (RRF_K + position + 1)
    return sorted(score, key=lambda d: -score[d])


def inspiration_rankings(papers: list[dict], corpus: list[dict]) -> tuple[dict[str, list[list[int]]], float]:
    docs = [f"{c['title']}. {c['abstract']}" for c in corpus]
    questions = [p["background_question"] for p in papers]
    index = build_bm25_index(IndexedDocument(str(i), c["title"], c["abstract"]) for i, c in enumerate(corpus))
    bm25 = []
    for q in questions:
        found = [int(d.source) for d in index.search(q, limit=len(corpus))]
        bm25.append(found + [i for i in range(len(corpus)) if i not in set(found)])
    rankings: dict[str, list[list[int]]] = {"bm25": bm25}
    model = SentenceEmbedder()
    model.load()  # the load (graph build, session) is not throughput
    started = time.perf_counter()
    model_docs, model_q = _embed(model, docs), _embed(model, questions)
    ms_per_text = 1000 * (time.perf_counter() - started) / (len(docs) + len(questions))
    rankings["embedder"] = [list(np.argsort(-(model_docs @ q), kind="stable")) for q in model_q]
    hashed = HashedTextEmbedder()
    hashed_docs, hashed_q = _embed(hashed, docs), _embed(hashed, questions)
    rankings["hashed"] = [list(np.argsort(-(hashed_docs @ q), kind="stable")) for q in hashed_q]
    rankings["hybrid"] = [_rrf(a, b) for a, b in zip(bm25, rankings["embedder"], strict=True)]
    return rankings, ms_per_text


def memory_recall(
    papers: list[dict], embedder: HashedTextEmbedder | SentenceEmbedder
) -> tuple[float, float, float, float]:
    hypotheses = [p["ground_truth_hypothesis"] for p in papers]
    vectors = _embed(embedder, hypotheses)
    at = datetime(2026, 1, 1, tzinfo=UTC)
    episodes = [
        HypothesisEpisode(
            HypothesisEpisodeId(UUID(int=i + 1)), h, tuple(map(float, v)), 0.5, "", SessionId(UUID(int=0)), at
        )
        for i, (h, v) in enumerate(zip(hypotheses, vectors, strict=True))
    ]
    top1 = top3 = passes = others = 0
    for i, q in enumerate(_embed(embedder, [p["background_question"] for p in papers])):
        ranked = rank_episodes(tuple(map(float, q)), episodes, min_c=0.0)
        ids = [r.episode.id for r in ranked]
        own = HypothesisEpisodeId(UUID(int=i + 1))
        top1 += ids[0] == own
        top3 += own in ids[:RECALL_LIMIT]
        passes += next(r.similarity for r in ranked if r.episode.id == own) >= RECALL_MIN_SIMILARITY
        others += sum(1 for r in ranked if r.episode.id != own and r.similarity >= RECALL_MIN_SIMILARITY)
    n = len(papers)
    return top1 / n, top3 / n, passes / n, others / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchmark", type=Path, default=DATA / "benchmark_dev_36.json")
    parser.add_argument("--corpus", type=Path, default=DATA / "inspiration_corpus_300.json")
    args = parser.parse_args()
    papers = json.loads(args.benchmark.read_text(encoding="utf-8"))
    corpus = json.loads(args.corpus.read_text(encoding="utf-8"))
    by_title = {_norm(c["title"]): i for i, c in enumerate(corpus)}
    wanted = [{by_title[_norm(i["title"])] for i in p["inspirations"] if _norm(i["title"]) in by_title} for p in papers]
    scored = [(p, w) for p, w in zip(papers, wanted, strict=True) if w]
    rankings, ms = inspiration_rankings([p for p, _ in scored], corpus)
    result: dict[str, float] = {}
    print(f"{len(scored)} of {len(papers)} papers have inspirations in the {len(corpus)}-paper corpus")
    print(f"{'method':<10} {'recall@20':>10} {'recall@50':>10}")
    for method, ranks in rankings.items():
        r20 = float(np.mean([_recall(r, w, 20) for r, (_, w) in zip(ranks, scored, strict=True)]))
        r50 = float(np.mean([_recall(r, w, 50) for r, (_, w) in zip(ranks, scored, strict=True)]))
        result[f"recall20_{method}"], result[f"recall50_{method}"] = r20, r50
        print(f"{method:<10} {r20:>10.3f} {r50:>10.3f}")
    print(f"{'memory':<10} {'recall@1':>10} {'recall@3':>10} {'own ≥ min':>10} {'others ≥ min':>13}")
    for name, embedder in (("embedder", SentenceEmbedder()), ("hashed", HashedTextEmbedder())):
        r1, r3, passing, others = memory_recall(papers, embedder)
        result[f"memory_recall1_{name}"], result[f"memory_recall3_{name}"] = r1, r3
        print(f"{name:<10} {r1:>10.3f} {r3:>10.3f} {passing:>10.3f} {others:>13.2f}")
    order = [f"recall{k}_{m}" for k in (20, 50) for m in ("embedder", "bm25", "hashed", "hybrid")]
    order += [f"memory_recall{k}_{m}" for k in (1, 3) for m in ("embedder", "hashed")]
    print("RESULT " + " ".join(f"{key}={result[key]:.4f}" for key in order) + f" embed_ms_per_text={ms:.3f}")


if __name__ == "__main__":
    main()

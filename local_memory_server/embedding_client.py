"""The local MiniLM embedder behind the framework's embedding-client protocol.

``VectorStoreHistoryProvider`` embeds every message and every ``search_history`` query through an
object with ``async get_embeddings(values, *, options=None) -> GeneratedEmbeddings`` (the framework's
``SupportsGetEmbeddings``; ``BaseEmbeddingClient`` is its base class). The series already has a local,
offline embedder — the memory server's all-MiniLM-L6-v2 (:mod:`local_memory_server.embeddings`,
part of the ``server`` extra) — so this adapter is all it takes to search a transcript by meaning with
no service and no download. The embedder is loaded on first use: importing this module needs no extra.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from agent_framework import BaseEmbeddingClient, Embedding, GeneratedEmbeddings

__all__ = ["MINILM_DIMENSIONS", "MiniLMEmbeddingClient"]

#: all-MiniLM-L6-v2 gives 384 numbers per text; the history collection is declared with this size.
MINILM_DIMENSIONS = 384


class MiniLMEmbeddingClient(BaseEmbeddingClient[str, list[float], Any]):
    """``get_embeddings`` on the local MiniLM model (or any ``Embedder`` passed in, e.g. for tests)."""

    def __init__(self, embedder: Any | None = None) -> None:
        super().__init__()
        self._embedder = embedder

    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            from .embeddings import default_embedder  # the server extra, loaded on first use

            self._embedder = default_embedder()
        return self._embedder

    @property
    def dimensions(self) -> int:
        return int(self.embedder.dim)

    async def get_embeddings(
        self, values: Sequence[str], *, options: Any | None = None
    ) -> GeneratedEmbeddings[list[float], Any]:
        """One unit-length vector per value, computed off the event loop."""
        wanted = (options or {}).get("dimensions") if isinstance(options, dict) else None
        if wanted is not None and wanted != self.dimensions:
            raise ValueError(
                f"this embedder gives {self.dimensions} dimensions, but {wanted} were asked for: "
                f"pass embedding_options={{'dimensions': {self.dimensions}}}"
            )
        texts = [str(value) for value in values]
        vectors = await asyncio.to_thread(self.embedder.embed, texts) if texts else []
        model = str(getattr(self.embedder, "model", "embedder"))
        return GeneratedEmbeddings(
            [Embedding(vector=[float(x) for x in row], model=model, dimensions=len(row)) for row in vectors],
            options=options,
        )

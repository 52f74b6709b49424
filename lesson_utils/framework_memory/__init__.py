"""Lesson 15: the framework's own memory, and the small pieces the lesson adds around it.

- :mod:`.embedding_client` — the local MiniLM embedder behind the framework's embedding-client protocol,
  for ``VectorStoreHistoryProvider`` and its ``search_history`` tool.
- :mod:`.learned_instructions` — procedural memory: instructions learned only from the user's own request.
- :mod:`.reading` — what a turn called and what a store wrote, for one-line checks.
- :mod:`.designs` — running memory designs through the same conversations and questions (import it by path:
  it reads the evaluation dataset).
"""

from __future__ import annotations

from .embedding_client import MINILM_DIMENSIONS, MiniLMEmbeddingClient
from .learned_instructions import LearnedInstructionsProvider, is_users_own_request
from .reading import loaded_topics, memory_files, record_every_call, tool_calls

__all__ = ["MINILM_DIMENSIONS", "LearnedInstructionsProvider", "MiniLMEmbeddingClient", "is_users_own_request", "loaded_topics",
           "memory_files", "record_every_call", "tool_calls"]

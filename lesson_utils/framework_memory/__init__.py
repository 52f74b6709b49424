"""Lesson 15: the framework's own memory, and the small piece the lesson adds around it.

- :mod:`.learned_instructions` — procedural memory: instructions learned only from the user's own request.

The lesson's other helpers live where their job is: the local MiniLM embedder behind the framework's
embedding-client protocol in ``local_memory_server.embedding_client``, reading what a turn called and wrote
in ``chat_models.request_reading``, and running designs side by side in ``memory_evaluation.designs``.
"""

from __future__ import annotations

from .learned_instructions import LearnedInstructionsProvider, is_users_own_request

__all__ = ["LearnedInstructionsProvider", "is_users_own_request"]

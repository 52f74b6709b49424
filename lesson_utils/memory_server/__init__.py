"""A local, Cortadel-compatible memory server: the embedded default for lessons 06–08.

It speaks Cortadel's REST contract (the seven operations of ``cortadel-openapi.json``), so the
official ``cortadel`` SDK, the lesson's context provider and ``curl`` work against it unchanged;
point ``CORTADEL_BASE_URL`` at a real Cortadel server instead when you have one.

    from lesson_utils.memory_server import start_memory_server
    with start_memory_server() as server:        # throwaway in-memory store
        ...  # CortadelClient(server.url, "alex")

From a shell: ``python -m lesson_utils.memory_server --db memories.sqlite3``.

What differs from a real Cortadel server, honestly:

* Facts are distilled from conversations by rules (``distill.py``), not by a model: plain
  first-person statements become third-person facts; anything subtler is missed.
* ``rerank="cross_encoder"`` is accepted, but there is no cross-encoder: the fused candidates are
  re-sorted by embedding cosine similarity and each hit says ``attributes["rerank"] == "cosine"``.
* ``expand_query``, ``include_faded``, ``include_session_arm`` and ``include_superseded`` are
  accepted and have nothing to act on (no synonyms, fading, session summaries or versions).
* Above 20,000 memories per user the vector arm is approximate (an IVF index), and a BM25 query
  whose every term is very common ranks only that term's newest matches — see ``store.py``.
"""

from .server import MemoryServer, default_db_path, start_memory_server

__all__ = ["MemoryServer", "start_memory_server", "default_db_path"]

"""A local, Cortadel-compatible memory server: the embedded default for lessons 06–08.

It speaks Cortadel's REST contract (the seven operations of ``cortadel-openapi.json``), so the
official ``cortadel`` SDK, the lesson's context provider and ``curl`` work against it unchanged;
point ``CORTADEL_BASE_URL`` at a real Cortadel server instead when you have one.

    from lesson_utils.memory_server import start_memory_server
    with start_memory_server() as server:        # throwaway in-memory store
        ...  # CortadelClient(server.url, "alex")

From a shell: ``python -m lesson_utils.memory_server --db memories.sqlite3``.
"""

from .server import MemoryServer, default_db_path, start_memory_server

__all__ = ["MemoryServer", "start_memory_server", "default_db_path"]

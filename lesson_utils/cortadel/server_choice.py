"""Which Cortadel server a lesson talks to: a real one when configured, else the local one.

Lessons 06–08 call :func:`open_memory_server` once. When ``CORTADEL_BASE_URL`` is set (in the
environment or in a ``.env`` file) they talk to that server, with ``CORTADEL_API_KEY`` as the
bearer token if given; otherwise they start the series' local Cortadel-compatible server — a
throwaway in-memory store unless told otherwise — and stop it when done.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MemoryServerChoice", "open_memory_server", "configured_server"]


def _setting(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None:
        try:
            from dotenv import dotenv_values, find_dotenv

            path = find_dotenv(usecwd=True)
            value = dotenv_values(path).get(name) if path else None
        except ImportError:  # pragma: no cover - python-dotenv is a declared dependency
            value = None
    value = (value or "").strip()
    return value or None


def configured_server() -> tuple[str, str | None] | None:
    """``(base_url, api_key)`` from ``CORTADEL_BASE_URL`` / ``CORTADEL_API_KEY``, or ``None``."""
    url = _setting("CORTADEL_BASE_URL")
    return (url, _setting("CORTADEL_API_KEY")) if url else None


@dataclass
class MemoryServerChoice:
    """The server a lesson uses. ``local`` tells whether this process started it."""

    url: str
    api_key: str | None = None
    local: bool = True
    server: Any = field(default=None, repr=False)
    _run: str = field(default_factory=lambda: uuid.uuid4().hex[:8], repr=False)

    def user_id(self, name: str) -> str:
        """A user id for a lesson's learner. On a real server it gets a per-run suffix, so a
        lesson never reads memories an earlier run (or another learner) left behind."""
        return name if self.local else f"{name}-{self._run}"

    def stop(self) -> None:
        """Stop the local server (a real server is left alone). Safe to call twice."""
        if self.local and self.server is not None:
            server, self.server = self.server, None
            server.stop()

    def __enter__(self) -> MemoryServerChoice:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    async def __aenter__(self) -> MemoryServerChoice:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.stop()


def open_memory_server(**local_options: Any) -> MemoryServerChoice:
    """The real server from ``CORTADEL_BASE_URL`` if set, else a freshly started local one.

    ``local_options`` go to ``start_memory_server`` (e.g. ``db_path=...``, ``api_keys={...}``)
    and are ignored for a real server.
    """
    configured = configured_server()
    if configured is not None:
        url, api_key = configured
        return MemoryServerChoice(url=url, api_key=api_key, local=False)
    from lesson_utils.memory_server import start_memory_server

    server = start_memory_server(**local_options)
    return MemoryServerChoice(url=server.url, local=True, server=server)

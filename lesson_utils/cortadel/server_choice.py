"""Which Cortadel server a lesson talks to: a real one when configured, else the local one.

The memory lessons call ``course_kit.open_memory_server`` once. When ``CORTADEL_BASE_URL`` is set (in the
environment or in a ``.env`` file) they talk to that server, with ``CORTADEL_API_KEY`` as the
bearer token if given; otherwise they start the series' local Cortadel-compatible server — a
throwaway in-memory store unless told otherwise — and stop it when done. This module is the choice
and the check of a configured server; starting the local one is the course kit's job.

A configured server is asked for ``/api/health`` first. A dead or wrong URL then stops the lesson
at its first cell with one line that names ``CORTADEL_BASE_URL`` and the fix, instead of a long
SDK traceback several cells later and a cascade of ``NameError`` failures after it.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field
from typing import Any

from ..errors import LessonError

__all__ = [
    "MemoryServerChoice",
    "MemoryServerUnreachable",
    "configured_server",
    "probe_configured_server",
]

PROBE_TIMEOUT = 5.0
_FIX = "start that server, correct the URL, or remove CORTADEL_BASE_URL (in .env or your shell) to use the local memory server"


class MemoryServerUnreachable(LessonError, RuntimeError):
    """``CORTADEL_BASE_URL`` names a server that does not answer like Cortadel; the message says the fix."""


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


def probe_configured_server(url: str, api_key: str | None = None, *, timeout: float = PROBE_TIMEOUT) -> str:
    """Ask ``url`` for ``/api/health``; its status (``"ok"``, ``"degraded"``) or :class:`MemoryServerUnreachable`."""
    import httpx

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    where = f"CORTADEL_BASE_URL={url}"
    try:
        response = httpx.get(f"{url.rstrip('/')}/api/health", headers=headers, timeout=timeout)
    except httpx.TimeoutException:
        raise MemoryServerUnreachable(f"{where} did not answer within {timeout:g} s: {_FIX}.") from None
    except (httpx.HTTPError, ValueError) as exc:
        reason = str(exc) or type(exc).__name__
        raise MemoryServerUnreachable(f"{where} cannot be reached ({reason}): {_FIX}.") from None
    if response.status_code in (401, 403):
        raise MemoryServerUnreachable(
            f"{where} refused the key in CORTADEL_API_KEY (HTTP {response.status_code}): set the key of this server's user."
        )
    try:
        status = response.json().get("status")
    except (ValueError, AttributeError):
        status = None
    if response.status_code not in (200, 503) or not isinstance(status, str):
        raise MemoryServerUnreachable(
            f"{where} answered /api/health with HTTP {response.status_code}, not a Cortadel health report: "
            f"it should be the server's root URL (like http://localhost:3001); {_FIX}."
        )
    return status

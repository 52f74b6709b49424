"""``WriteDrain``: keep the turns whose write failed, and send them when the memory server is back.

Failing open answers the turn, but the turn's write is lost: the provider reports the failure and moves on.
A ``WriteDrain`` is a :class:`~lesson_utils.cortadel.client.MemoryClient` wrapped around another one, so
it fits the provider's ``client=`` seam without touching the provider. A write (``add_conversation``) that
fails is kept and still raises, so ``on_error`` sees the outage; the next write that gets through first
sends what was kept, oldest first, each once. Lesson 12 has the learner write the core of it in a cell;
this module adds what production needs around that core:

- only a failure that can pass is kept — the server down, hung or overloaded (a transport error, a 5xx, a
  429). A write the server refused for what it holds (any other 4xx) would fail the same way for ever, so
  it is raised and not kept;
- the kept writes are bounded (``max_kept``): past it the oldest is dropped and the drop is reported to
  ``on_drop`` (or the log) — an outage must not grow memory without limit, and a loss must be visible;
- one lock around sending, so two concurrent turns never send the same kept write twice;
- :meth:`drain` sends the kept writes now (from a health check, or before shutdown) without waiting for
  the next turn.

Kept writes live in this process: a restart loses them. A durable outbox (a table or a Redis list, as in
lesson 14) is the next step when that matters.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Sequence

from cortadel import (
    AddOptions,
    ChatMessage,
    ConversationOptions,
    ConversationResult,
    CortadelError,
    MemoryCreated,
    SearchOptions,
    SearchResults,
)

from .client import MemoryClient
from .errors import DEFAULT_LOGGER_NAME

__all__ = ["WriteDrain", "can_pass"]

KeptWrite = tuple[list[ChatMessage], ConversationOptions | None]


def can_pass(error: Exception) -> bool:
    """Whether a failed write may succeed later: not a 4xx (other than 429) the server answered with."""
    if isinstance(error, CortadelError):
        return not (400 <= error.status < 500) or error.status == 429
    return True  # a timeout, a refused connection, an open circuit: the same write may succeed later


class WriteDrain:
    """A ``MemoryClient`` that keeps failed writes and sends them, oldest first and once, when writes succeed again.

    Args:
        client: the memory client to wrap (one user's; a drain, like a provider, serves one user).
        max_kept: most writes kept at once; past it the oldest is dropped and reported.
        on_drop: called with each dropped write's messages; default: a warning in the log.
    """

    def __init__(self, client: MemoryClient, *, max_kept: int = 1000,
                 on_drop: Callable[[list[ChatMessage]], object] | None = None) -> None:
        if isinstance(max_kept, bool) or not isinstance(max_kept, int) or max_kept < 1:
            raise ValueError(f"max_kept must be an integer >= 1 (how many failed writes to keep), got {max_kept!r}.")
        self.client = client
        self.max_kept = max_kept
        self.on_drop = on_drop
        self._kept: deque[KeptWrite] = deque()
        self._lock = asyncio.Lock()

    @property
    def kept(self) -> int:
        """Writes kept, waiting for the server."""
        return len(self._kept)

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResults:
        return await self.client.search(query, options)

    async def add(self, text: str, options: AddOptions | None = None) -> MemoryCreated:
        return await self.client.add(text, options)

    async def add_conversation(
        self, messages: Sequence[ChatMessage], options: ConversationOptions | None = None
    ) -> ConversationResult:
        """Send what was kept, then this write; a failure keeps this write (and the unsent ones) and raises."""
        async with self._lock:
            self._keep((list(messages), options))
            result = await self._send_kept()
        assert result is not None  # this write was the last one kept, and it was sent
        return result

    async def drain(self) -> int:
        """Send the kept writes now; returns how many are still kept (0 once the server took them all)."""
        async with self._lock:
            try:
                await self._send_kept()
            except Exception as error:  # still down: they stay kept for the next try
                logging.getLogger(DEFAULT_LOGGER_NAME).info("Kept memory writes not sent yet: %s", error)
            return len(self._kept)

    async def _send_kept(self) -> ConversationResult | None:
        result = None
        while self._kept:
            try:
                result = await self.client.add_conversation(*self._kept[0])
            except Exception as error:
                if not can_pass(error):
                    self._kept.popleft()  # it would fail this way for ever: report it now, keep the rest
                raise
            self._kept.popleft()
        return result

    def _keep(self, write: KeptWrite) -> None:
        self._kept.append(write)
        while len(self._kept) > self.max_kept:
            dropped, _ = self._kept.popleft()
            if self.on_drop is not None:
                self.on_drop(dropped)
            else:
                logging.getLogger(DEFAULT_LOGGER_NAME).warning(
                    "More than %d memory writes kept while the server is down; dropped the oldest (%d messages).",
                    self.max_kept, len(dropped))

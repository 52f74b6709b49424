"""The three Cortadel calls the provider and tools need, behind a small protocol.

``MemoryClient`` is the seam tests stub; ``CortadelMemoryClient`` is the production
implementation over the official SDK's async ``CortadelClient``, so the wire format stays the
vendor's. Both speak the SDK's own option and result types — no parallel DTOs to drift.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from cortadel import (
    AddOptions,
    ChatMessage,
    ConversationOptions,
    ConversationResult,
    CortadelClient,
    MemoryCreated,
    SearchOptions,
    SearchResults,
)

__all__ = ["APP_NAME", "DEFAULT_TIMEOUT", "MemoryClient", "CortadelMemoryClient"]

APP_NAME = "lesson_utils.cortadel"
"""App name Cortadel records for searches (and for memories the ``add_memories`` tool writes)."""
DEFAULT_TIMEOUT = 30.0
"""Seconds per request for clients built here. The SDK's own default is 100 s (generous for
reranked search); recall sits on every turn's request path, so a hung server should cost a turn
seconds, not minutes. Raise it for ``rerank="cross_encoder"`` on a slow server."""


@runtime_checkable
class MemoryClient(Protocol):
    """What the provider and the tools need from Cortadel, for one user.

    A client is bound to a single user when it is built: no call takes a user id, so nothing the
    model or a caller passes at run time can reach another user's memories.
    """

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResults:
        """Hybrid-search this user's memories."""
        ...

    async def add_conversation(
        self, messages: Sequence[ChatMessage], options: ConversationOptions | None = None
    ) -> ConversationResult:
        """Hand a finished turn to Cortadel, which distils durable facts out of it."""
        ...

    async def add(self, text: str, options: AddOptions | None = None) -> MemoryCreated:
        """Store one memory; the result's ``event`` says what the store pipeline decided."""
        ...


class CortadelMemoryClient:
    """``MemoryClient`` over the official SDK, bound to one user.

    Either give ``base_url`` and ``user_id`` (this object builds the SDK client and closes it in
    :meth:`aclose`), or pass ``sdk_client=`` — an SDK ``CortadelClient`` you built and own; it is
    never closed here. ``timeout`` is seconds per request (default :data:`DEFAULT_TIMEOUT`); a
    request that takes longer raises ``CortadelError`` (code ``transport_error``).

    An HTTP connection pool belongs to the event loop it was first used on. When this object
    built the SDK client and that loop has since closed — an app that calls ``asyncio.run`` per
    request and caches one client per user — the next call builds a fresh SDK client on the new
    loop instead of failing every turn with "Event loop is closed". A caller-supplied
    ``sdk_client`` is never replaced: keep it on one loop.
    """

    def __init__(
        self,
        base_url: str | None = None,
        user_id: str | None = None,
        *,
        api_key: str | None = None,
        app_name: str = APP_NAME,
        timeout: float | None = None,
        sdk_client: CortadelClient | None = None,
    ) -> None:
        if sdk_client is not None:
            if base_url is not None or user_id is not None or api_key is not None or timeout is not None:
                raise ValueError("Pass either sdk_client or base_url/user_id/api_key/timeout, not both.")
            self._sdk = sdk_client
            self._owns_sdk = False
        else:
            if not base_url or not base_url.strip():
                raise ValueError("base_url is required unless sdk_client is given.")
            if not user_id or not user_id.strip():
                raise ValueError("user_id is required: a memory client is bound to exactly one user.")
            timeout = DEFAULT_TIMEOUT if timeout is None else timeout
            if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
                raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}.")
            self._sdk_settings = {"api_key": api_key or None, "app_name": app_name, "timeout": float(timeout)}
            self._base_url = base_url
            self._sdk = CortadelClient(base_url, user_id, **self._sdk_settings)  # type: ignore[arg-type]
            self._owns_sdk = True
        self._loop: asyncio.AbstractEventLoop | None = None
        self.user_id = user_id
        self._closed = False

    @property
    def sdk_client(self) -> CortadelClient:
        """The SDK client underneath, for calls outside the protocol (``list``, ``health``)."""
        if self._owns_sdk and not self._closed:
            self._follow_loop()
        return self._sdk

    def _follow_loop(self) -> None:
        """Rebuild an owned SDK client whose event loop has closed (see the class docstring)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not in a coroutine: nothing to follow yet
            return
        if self._loop is not None and self._loop is not loop and self._loop.is_closed():
            # The old pool's sockets died with their loop; there is nothing left to close.
            self._sdk = CortadelClient(self._base_url, self.user_id, **self._sdk_settings)  # type: ignore[arg-type]
        if self._loop is None or self._loop.is_closed():
            self._loop = loop

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResults:
        return await self.sdk_client.search(query, options)

    async def add_conversation(
        self, messages: Sequence[ChatMessage], options: ConversationOptions | None = None
    ) -> ConversationResult:
        return await self.sdk_client.add_conversation(messages, options)

    async def add(self, text: str, options: AddOptions | None = None) -> MemoryCreated:
        return await self.sdk_client.add(text, options)

    async def aclose(self) -> None:
        """Close the SDK client if this object built it; a caller-supplied one is left open."""
        if self._owns_sdk and not self._closed:
            self._closed = True
            if self._loop is not None and self._loop.is_closed():
                return  # its connections died with their loop; closing them would touch that loop
            await self._sdk.aclose()

    async def __aenter__(self) -> CortadelMemoryClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

"""What a memory server holds for one user, read straight from it — the evidence that a write arrived."""

from __future__ import annotations

from collections.abc import Iterable

from ..cortadel import CortadelMemoryClient


async def stored_facts(url: str, user: str, api_key: str | None = None) -> list[str]:
    """What the memory server at ``url`` holds for ``user`` (with ``api_key`` on a server with authentication)."""
    async with CortadelMemoryClient(url, user, api_key=api_key) as memory:
        return [item.content for item in (await memory.sdk_client.list()).items]


def mentions(facts: Iterable[str], word: str) -> bool:
    """Whether any stored fact mentions ``word``."""
    return any(word in fact for fact in facts)

"""What a user's memory store holds, read back through the official SDK client.

Lessons 09 to 13 prove claims about the store itself — a fact was kept, a duplicate did not grow it, a
fact was superseded or withdrawn — so they read it back the way any client of the contract would:
``list`` (current memories, or the history too with ``include_superseded``) and ``get``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cortadel import ListOptions

__all__ = ["has_current", "has_outdated", "memories_mentioning", "mentions", "stored_facts", "stored_facts_at", "was_superseded",
           "was_withdrawn"]


async def _listed(client: Any, include_superseded: bool) -> list[Any]:
    sdk = getattr(client, "sdk_client", client)  # a CortadelMemoryClient, or the SDK's CortadelClient itself
    return list((await sdk.list(ListOptions(include_superseded=include_superseded, size=100))).items)


async def stored_facts(client: Any, *, include_superseded: bool = False) -> list[str]:
    """The text of every memory ``client``'s user has (current ones, unless ``include_superseded``)."""
    return [item.content for item in await _listed(client, include_superseded)]


async def stored_facts_at(url: str, user: str, api_key: str | None = None) -> list[str]:
    """What the memory server at ``url`` holds for ``user`` now (``api_key`` on a server with authentication),
    read with a client of its own: the evidence that a write arrived, whoever made it."""
    from lesson_utils.cortadel import CortadelMemoryClient

    async with CortadelMemoryClient(url, user, api_key=api_key) as memory:
        return await stored_facts(memory)


async def memories_mentioning(client: Any, word: str, *, include_superseded: bool = False) -> list[Any]:
    """The memory items whose text mentions ``word`` (current ones, unless ``include_superseded``)."""
    return [item for item in await _listed(client, include_superseded) if word in (item.content or "")]


def mentions(texts: Iterable[str], word: str) -> bool:
    """Whether any of ``texts`` mentions ``word``."""
    return any(word in text for text in texts)


def has_current(items: Iterable[Any], word: str) -> bool:
    """Whether one of ``items`` mentions ``word`` and is current."""
    return any(word in (item.content or "") and item.is_current is True for item in items)


def has_outdated(items: Iterable[Any], word: str) -> bool:
    """Whether one of ``items`` mentions ``word`` and is kept as history (not current)."""
    return any(word in (item.content or "") and item.is_current is False for item in items)


async def was_superseded(client: Any, old_id: str, *, by: str) -> bool:
    """The memory ``old_id`` is kept, not current, with an ``invalid_at``, and its ``superseded_by`` is a
    current memory mentioning ``by``."""
    sdk = getattr(client, "sdk_client", client)
    old = await sdk.get(old_id)
    if old is None or old.is_current is not False or not old.invalid_at or not old.superseded_by:
        return False
    new = await sdk.get(old.superseded_by)
    return new is not None and new.is_current is True and by in (new.text or "")


async def was_withdrawn(client: Any, word: str) -> bool:
    """Exactly one memory mentions ``word``, kept as history: not current, and replaced by nothing."""
    sdk = getattr(client, "sdk_client", client)
    found = await memories_mentioning(sdk, word, include_superseded=True)
    if len(found) != 1 or found[0].is_current is not False:
        return False
    item = await sdk.get(found[0].id)
    return item is not None and item.superseded_by is None

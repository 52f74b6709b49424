"""Lesson 14: one string names where a worker keeps sessions, and which history provider it uses.

``redis://…`` (or ``rediss://``, ``unix://``): sessions in :class:`RedisSessionStore` and the
transcript in the framework's ``RedisHistoryProvider`` — a Redis list per session, so the
stored session holds only ids and provider state. ``sqlite:PATH``: the embedded store of lesson
05; the framework's default in-memory history keeps the transcript inside the session itself.
"""

from __future__ import annotations

from typing import Any

from agent_framework import AgentSession, ContextProvider, Message

from ..persistence import SqliteSessionStore, VersionedSessionStore
from .redis_server import check_redis_url

__all__ = ["APPLICATION_ID", "history_providers", "is_redis", "open_store", "stored_history"]

APPLICATION_ID = "lesson14"  # RedisHistoryProvider keys are scoped by application


def is_redis(spec: str) -> bool:
    return spec.split(":", 1)[0] in ("redis", "rediss", "unix")


def open_store(spec: str) -> VersionedSessionStore:
    """``redis://HOST:PORT/DB`` or ``sqlite:PATH`` → the versioned session store it names."""
    if is_redis(spec):
        from .redis_store import RedisSessionStore

        return RedisSessionStore(check_redis_url(spec))
    if spec.startswith("sqlite:") and len(spec) > len("sqlite:"):
        return SqliteSessionStore(spec[len("sqlite:") :])
    raise ValueError(f"unknown session store {spec!r}: use redis://HOST:PORT/DB or sqlite:PATH")


def history_providers(spec: str) -> list[ContextProvider]:
    """The history provider for ``spec``: Redis lists for Redis, none (the framework's default) for SQLite."""
    if not is_redis(spec):
        return []
    from agent_framework.redis import RedisHistoryProvider

    provider: Any = RedisHistoryProvider(source_id="history", redis_url=spec, application_id=APPLICATION_ID)
    return [provider]


async def stored_history(spec: str, session: AgentSession) -> list[Message]:
    """The transcript of ``session`` as the history provider stores it (Redis list, or the session itself)."""
    if not is_redis(spec):
        slot = session.state.get("in_memory", {})
        return list(slot.get("messages", [])) if isinstance(slot, dict) else []
    provider: Any = history_providers(spec)[0]
    try:
        return list(await provider.get_messages(session.session_id))
    finally:
        await provider.aclose()

"""Lesson 14: the session store several workers share, in Redis.

Each conversation is one Redis hash, ``{prefix}:{conversation_id}``, holding the session JSON
(the same text ``session_to_json`` writes, so a row, a file and a hash are interchangeable) and
its version. ``save(..., expected_version=n)`` runs as one Lua script inside Redis: compare the
version, write, bump it. No other client can slip in between the compare and the write.

With ``RedisHistoryProvider`` the transcript is not in the session at all: it lives in a Redis
list the provider appends to. What this store holds is small — ids and provider state.

The per-conversation lock is redis-py's ``Lock`` (``SET NX PX`` with a random token, released
only by its owner), with an expiry so a killed worker cannot hold a conversation for ever.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

import redis
from agent_framework import AgentSession

from ..persistence import (
    ConversationBusyError,
    SessionNotFoundError,
    StaleSessionError,
    VersionedSession,
    session_from_json,
    session_to_json,
)
from .redis_server import RedisUnavailableError, redact_url, connect_redis

__all__ = ["RedisSessionStore"]

# KEYS[1] = the hash; ARGV[1] = session JSON; ARGV[2] = expected version or "" for unconditional.
_SAVE = """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if ARGV[2] ~= '' and tonumber(ARGV[2]) ~= current then
  return {0, current}
end
redis.call('HSET', KEYS[1], 'json', ARGV[1], 'version', current + 1)
return {1, current + 1}
"""


class RedisSessionStore:
    """Sessions keyed by conversation id in Redis, each with a version (a ``VersionedSessionStore``)."""

    def __init__(self, url: str, *, prefix: str = "agent_session") -> None:
        self.url = url
        self.prefix = prefix
        self._client = connect_redis(url)
        self._save_script = self._client.register_script(_SAVE)

    def __repr__(self) -> str:
        return f"RedisSessionStore({redact_url(self.url)!r})"

    def close(self) -> None:
        self._client.close()

    def _key(self, conversation_id: str) -> str:
        if not isinstance(conversation_id, str) or not conversation_id:
            raise ValueError(f"conversation_id must be a non-empty string, got {conversation_id!r}")
        return f"{self.prefix}:{conversation_id}"

    @contextmanager
    def _reachable(self) -> Iterator[None]:
        try:
            yield
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            raise RedisUnavailableError(
                f"lost the Redis server at {redact_url(self.url)} ({exc}); nothing was written — "
                "restart it (or fix REDIS_URL) and retry the turn"
            ) from None

    def save(self, conversation_id: str, session: AgentSession, *, expected_version: int | None = None) -> int:
        """Store the session and return its new version; refuse a stale write (:class:`StaleSessionError`)."""
        key = self._key(conversation_id)
        text = session_to_json(session)  # fails before touching Redis
        expected = "" if expected_version is None else str(int(expected_version))
        with self._reachable():
            written, version = self._save_script(keys=[key], args=[text, expected])
        if not written:
            raise StaleSessionError(conversation_id, int(expected_version or 0), int(version), repr(self))
        return int(version)

    def load_versioned(self, conversation_id: str, *, create: bool = False) -> VersionedSession:
        """The stored session and its version; with ``create=True`` a new session at version 0 if none."""
        key = self._key(conversation_id)
        with self._reachable():
            # The sync client's stubs type every reply as "Awaitable[T] | T"; this one is synchronous.
            text, version = cast("list[str | None]", self._client.hmget(key, ["json", "version"]))
        if text is None:
            if create:
                return VersionedSession(conversation_id, AgentSession(), 0)
            raise SessionNotFoundError(f"no session stored for conversation {conversation_id!r} in {self!r}")
        source = f"Redis key {key!r} at {redact_url(self.url)}"
        return VersionedSession(conversation_id, session_from_json(text, source=source), int(version or 0))

    def load(self, conversation_id: str) -> AgentSession:
        """Just the session (as ``SqliteSessionStore.load``)."""
        return self.load_versioned(conversation_id).session

    def load_json(self, conversation_id: str) -> str:
        """The stored JSON text, as is (to inspect what a worker receives)."""
        key = self._key(conversation_id)
        with self._reachable():
            text = cast("str | None", self._client.hget(key, "json"))
        if text is None:
            raise SessionNotFoundError(f"no session stored for conversation {conversation_id!r} in {self!r}")
        return text

    def version(self, conversation_id: str) -> int:
        with self._reachable():
            return int(cast("str | None", self._client.hget(self._key(conversation_id), "version")) or 0)

    def delete(self, conversation_id: str) -> bool:
        with self._reachable():
            return bool(self._client.delete(self._key(conversation_id)))

    @contextmanager
    def lock(self, conversation_id: str, *, ttl: float = 30.0, wait: float = 60.0) -> Iterator[None]:
        """Hold the conversation's lock for one turn; it expires after ``ttl`` seconds."""
        lock = self._client.lock(
            f"{self._key(conversation_id)}:lock", timeout=ttl, blocking_timeout=wait, thread_local=False
        )
        with self._reachable():
            acquired = lock.acquire()
        if not acquired:
            raise ConversationBusyError(
                f"conversation {conversation_id!r} in {self!r} is busy: another worker held its lock "
                f"for more than {wait:g} s; try the turn again later"
            )
        try:
            yield
        finally:
            try:
                with self._reachable():
                    lock.release()
            except redis.exceptions.LockNotOwnedError:
                pass  # it expired and maybe another worker holds it now; the versioned save guards that

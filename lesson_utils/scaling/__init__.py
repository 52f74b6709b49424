"""Lesson 14, scaling out: several worker processes serve one conversation.

- :mod:`.redis_server` — find (``REDIS_URL``) or start a private ``redis-server``, or explain how to get one.
- :mod:`.redis_store` — ``RedisSessionStore``: versioned sessions and a per-conversation lock in Redis.
- :mod:`.stores` — a store string (``redis://…`` / ``sqlite:PATH``) → store and history provider.
- :mod:`.turn_counter` — ``TurnCounter``: provider state every turn changes (to see lost updates).
- :mod:`.worker` — one worker process: ``serve_turn`` (safe) and ``naive_turn`` (loses updates).
- :mod:`.workers` — start workers from a notebook and send them turns.

The versioned-store protocol itself (``VersionedSessionStore``, ``StaleSessionError``) and the
embedded store (``SqliteSessionStore``) live in :mod:`lesson_utils.persistence`.
"""

from __future__ import annotations

from .redis_server import (
    HOW_TO_GET_REDIS,
    LessonRedis,
    RedisUnavailableError,
    check_redis_url,
    connect_redis,
    redis_for_lesson,
    start_redis_server,
)
from .redis_store import RedisSessionStore
from .stores import history_providers, is_redis, open_store, stored_history
from .turn_counter import TurnCounter
from .workers import Turn, WorkerError, WorkerProcess, start_workers

__all__ = [
    "HOW_TO_GET_REDIS",
    "LessonRedis",
    "RedisSessionStore",
    "RedisUnavailableError",
    "Turn",
    "TurnCounter",
    "WorkerError",
    "WorkerProcess",
    "check_redis_url",
    "connect_redis",
    "history_providers",
    "is_redis",
    "open_store",
    "redis_for_lesson",
    "start_redis_server",
    "start_workers",
    "stored_history",
]

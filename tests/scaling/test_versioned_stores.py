"""Both session stores keep one promise: a stale write is refused, turns of one conversation serialise."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from agent_framework import AgentSession

from lesson_utils.persistence import (
    ConversationBusyError,
    SessionNotFoundError,
    SqliteSessionStore,
    StaleSessionError,
    VersionedSessionStore,
)


def counted(session: AgentSession) -> int:
    return session.state.get("turns", {}).get("count", 0)


def bump(session: AgentSession) -> None:
    session.state["turns"] = {"count": counted(session) + 1}


def test_both_stores_are_versioned_session_stores(store) -> None:
    assert isinstance(store, VersionedSessionStore)


def test_every_save_bumps_the_version_and_load_returns_it(store, conversation_id: str) -> None:
    with pytest.raises(SessionNotFoundError, match=conversation_id):
        store.load_versioned(conversation_id)
    fresh = store.load_versioned(conversation_id, create=True)
    assert fresh.version == 0 and fresh.session.state == {}
    assert store.save(conversation_id, fresh.session, expected_version=0) == 1
    assert store.save(conversation_id, fresh.session) == 2  # unconditional still counts
    loaded = store.load_versioned(conversation_id)
    assert loaded.version == 2 and loaded.session.session_id == fresh.session.session_id
    assert store.version(conversation_id) == 2


def test_a_stale_write_is_refused_and_writes_nothing(store, conversation_id: str) -> None:
    store.save(conversation_id, AgentSession(session_id="s"))
    mine, theirs = store.load_versioned(conversation_id), store.load_versioned(conversation_id)
    bump(theirs.session)
    store.save(conversation_id, theirs.session, expected_version=theirs.version)
    bump(mine.session)
    bump(mine.session)
    with pytest.raises(StaleSessionError, match=r"loaded at version 1, but version 2 is stored now") as info:
        store.save(conversation_id, mine.session, expected_version=mine.version)
    assert (info.value.expected, info.value.found) == (1, 2)
    assert "load it again and redo the turn" in str(info.value)
    assert counted(store.load(conversation_id)) == 1  # theirs survived, nothing of mine was written


def test_creating_a_conversation_twice_is_refused(store, conversation_id: str) -> None:
    first, second = (store.load_versioned(conversation_id, create=True) for _ in range(2))
    store.save(conversation_id, first.session, expected_version=0)
    with pytest.raises(StaleSessionError, match="created meanwhile"):
        store.save(conversation_id, second.session, expected_version=0)
    assert store.load(conversation_id).session_id == first.session.session_id


def _turns_in_threads(store, conversation_id: str, n: int, *, safe: bool) -> None:
    barrier = threading.Barrier(n)
    errors: list[BaseException] = []

    def turn() -> None:
        try:
            barrier.wait()
            if safe:
                with store.lock(conversation_id, ttl=10, wait=30):
                    loaded = store.load_versioned(conversation_id)
                    time.sleep(0.02)  # the model call
                    bump(loaded.session)
                    store.save(conversation_id, loaded.session, expected_version=loaded.version)
            else:
                session = store.load(conversation_id)
                time.sleep(0.2)  # every thread loads before any saves
                bump(session)
                store.save(conversation_id, session)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=turn) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def test_naive_concurrent_turns_lose_updates(store, conversation_id: str) -> None:
    store.save(conversation_id, AgentSession())
    _turns_in_threads(store, conversation_id, 4, safe=False)
    assert counted(store.load(conversation_id)) < 4  # the lost update the lesson shows


def test_locked_versioned_turns_lose_nothing(store, conversation_id: str) -> None:
    store.save(conversation_id, AgentSession())
    _turns_in_threads(store, conversation_id, 8, safe=True)
    assert counted(store.load(conversation_id)) == 8
    assert store.version(conversation_id) == 9


def test_a_held_lock_makes_others_wait_then_gives_up_with_one_clear_error(store, conversation_id: str) -> None:
    with store.lock(conversation_id, ttl=10):
        started = time.monotonic()
        with pytest.raises(ConversationBusyError, match=rf"conversation '{conversation_id}' .* is busy"):
            with store.lock(conversation_id, wait=0.3):
                pass
        assert time.monotonic() - started >= 0.15  # it waited (redis-py polls every 0.1 s), not failed at once
    with store.lock(conversation_id, wait=0.3):  # released: free again at once
        pass


def test_a_lock_whose_owner_vanished_expires_after_its_ttl(store, conversation_id: str) -> None:
    holder = store.lock(conversation_id, ttl=0.5)
    holder.__enter__()  # acquired and never released: a worker killed mid-turn
    started = time.monotonic()
    with store.lock(conversation_id, ttl=5, wait=5):
        waited = time.monotonic() - started
    assert 0.2 <= waited < 3


def test_an_old_sqlite_database_gains_versions_and_keeps_its_rows(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as connection:  # the lesson-05 schema, before versions existed
        connection.execute(
            "CREATE TABLE agent_sessions (conversation_id TEXT PRIMARY KEY, session_json TEXT NOT NULL,"
            " updated_at TEXT NOT NULL)"
        )
        connection.execute(
            "INSERT INTO agent_sessions VALUES (?, ?, ?)",
            ("c", '{"type": "session", "session_id": "old", "state": {}}', "2026-01-01"),
        )
    connection.close()
    store = SqliteSessionStore(db)
    loaded = store.load_versioned("c")
    assert (loaded.session.session_id, loaded.version) == ("old", 1)
    assert store.save("c", loaded.session, expected_version=1) == 2

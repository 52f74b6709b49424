"""Lesson 14's check helpers: each fails where its claim is false.

``updates_lost`` races real processes (a few seconds each): a lock that works across processes
loses nothing; no lock, a lock that locks nothing, and a lock of one process's memory do not pass.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from contextlib import closing, contextmanager, nullcontext
from pathlib import Path

import pytest
from agent_framework import AgentSession, Message

from course_kit.lessons.l14_scaling_out.checks import (
    all_answered,
    carried_every_earlier_turn,
    messages_in_session,
    stored_versions,
    turns_in_history,
    updates_lost,
)
from lesson_utils.errors import LessonError
from lesson_utils.persistence import SqliteSessionStore, session_to_json
from lesson_utils.scaling import Turn


@contextmanager
def row_lock(db_path, conversation_id):
    """A lock that holds across processes: a row only one of them can insert."""
    token = uuid.uuid4().hex
    with closing(sqlite3.connect(db_path, timeout=10)) as db:
        with db:
            db.execute("CREATE TABLE IF NOT EXISTS test_locks (conversation_id TEXT PRIMARY KEY, token TEXT)")
        while True:
            with db:
                if db.execute("INSERT OR IGNORE INTO test_locks VALUES (?, ?)", (conversation_id, token)).rowcount:
                    break
            time.sleep(0.02)
        try:
            yield
        finally:
            with db:
                db.execute("DELETE FROM test_locks WHERE conversation_id = ? AND token = ?", (conversation_id, token))


def locks_nothing(db_path, conversation_id):
    return nullcontext()


_IN_MEMORY = threading.Lock()


@contextmanager
def thread_lock(db_path, conversation_id):
    with _IN_MEMORY:
        yield


@contextmanager
def breaks(db_path, conversation_id):
    raise RuntimeError("no lock table")
    yield


@pytest.mark.full  # slow: starts worker processes
def test_a_lock_across_processes_loses_no_update() -> None:
    assert updates_lost(row_lock, processes=3) == 0


@pytest.mark.full  # slow: starts worker processes
def test_without_a_working_lock_updates_are_lost() -> None:
    assert updates_lost(None, processes=3) > 0
    assert updates_lost(locks_nothing, processes=3) > 0


def test_a_lock_of_one_process_or_a_broken_one_is_refused_with_its_reason() -> None:
    with pytest.raises(LessonError, match="cannot keep other processes apart"):
        updates_lost(thread_lock)
    with pytest.raises(LessonError, match="RuntimeError: no lock table"):
        updates_lost(breaks, processes=2)
    with pytest.raises(ValueError, match="at least 2"):
        updates_lost(row_lock, processes=1)


def _turn(worker: str, message: str, reply: str, earlier: list[Turn]) -> Turn:
    sent = [(role, text) for turn in earlier for role, text in (*turn.sent[-1:], ("assistant", turn.reply))]
    return Turn(worker=worker, pid=1, reply=reply, sent=[("system", "be brief"), *sent, ("user", message)])


def test_carried_every_earlier_turn_fails_when_a_worker_started_over() -> None:
    first = _turn("a", "My name is Ada.", "Hi Ada!", [])
    second = _turn("b", "A joke?", "Arr!", [first])
    third = _turn("a", "My name?", "Ada.", [first, second])
    assert carried_every_earlier_turn([first, second, third])
    forgot = _turn("a", "My name?", "No idea.", [second])  # turn 1 was not sent
    assert not carried_every_earlier_turn([first, second, forgot])


def test_all_answered_fails_on_an_error_or_an_empty_reply() -> None:
    ok = Turn(worker="a", pid=1, reply="Hi")
    assert all_answered([ok, ok])
    assert not all_answered([ok, Turn(worker="b", pid=2, error="StaleSessionError: …")])
    assert not all_answered([ok, Turn(worker="b", pid=2, reply="")])


def test_messages_in_session_counts_the_transcript_a_session_carries() -> None:
    session = AgentSession()
    session.state["turns"] = {"count": 2}
    assert messages_in_session(session_to_json(session)) == 0
    session.state["in_memory"] = {"messages": [Message(role="user", contents=["hi"]), Message(role="assistant", contents=["yo"])]}
    assert messages_in_session(session_to_json(session)) == 2


def test_stored_versions_read_each_file(tmp_path: Path) -> None:
    one, two = tmp_path / "a.db", tmp_path / "b.db"
    SqliteSessionStore(one).save("c", AgentSession())
    SqliteSessionStore(one).save("c", AgentSession())
    assert stored_versions([one, two], "c") == [2, 0]


def test_turns_in_history_counts_each_message_found() -> None:
    history = [Message(role="user", contents=["Note 1."]), Message(role="assistant", contents=["Noted."])]
    assert turns_in_history(history, ["Note 1.", "Note 2."]) == 1
    assert turns_in_history(history, ["Note 2."]) == 0

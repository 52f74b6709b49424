"""Worker processes against a real redis-server: shared history, lost updates, the fix, kill -9.

These start real processes (``python -m lesson_utils.scaling.worker``) on the offline model,
exactly as lesson 14 does.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
import redis

from lesson_utils.scaling import RedisSessionStore, start_workers, stored_history

from .conftest import needs_redis

pytestmark = pytest.mark.slow


def count(store: RedisSessionStore, conversation_id: str) -> int:
    return store.load(conversation_id).state["turns"]["count"]


@needs_redis
def test_alternating_workers_share_history_through_redis_and_the_session_holds_no_transcript(
    redis_url: str, conversation_id: str
) -> None:
    a, b = start_workers(["a", "b"], redis_url)
    try:
        first = a.ask(conversation_id, "Hi, my name is Ada.")
        second = b.ask(conversation_id, "I live in Lisbon.")
        third = a.ask(conversation_id, "What is my name?")
    finally:
        a.close()
        b.close()
    assert (first.worker, second.worker, third.worker) == ("a", "b", "a") and first.pid != second.pid
    assert "Hi, my name is Ada." in second.sent_text  # b saw a's turn
    assert "I live in Lisbon." in third.sent_text and first.reply in third.sent_text
    stored = RedisSessionStore(redis_url).load_json(conversation_id)
    assert "Ada" not in stored and "Lisbon" not in stored and "messages" not in stored
    assert json.loads(stored)["state"]["turns"] == {"count": 3, "served_by": ["a", "b", "a"]}


@needs_redis
def test_naive_workers_lose_an_update_and_locked_workers_lose_none(redis_url: str, conversation_id: str) -> None:
    store = RedisSessionStore(redis_url)
    naive = start_workers(["n1", "n2"], redis_url, naive=True, think=1.0)
    try:
        naive[0].ask(conversation_id, "Hello.")
        for i, worker in enumerate(naive):
            worker.send(conversation_id, f"Concurrent note {i}.")
        for worker in naive:
            worker.receive()
    finally:
        for worker in naive:
            worker.close()
    assert count(store, conversation_id) == 2  # three turns answered, one lost from the provider state
    safe = start_workers(["s1", "s2", "s3"], redis_url, think=0.2)
    try:
        for i in range(6):
            safe[i % 3].send(conversation_id, f"Locked note {i}.")
        replies = [worker.receive() for worker in safe for _ in range(2)]
    finally:
        for worker in safe:
            worker.close()
    assert len(replies) == 6 and all(reply.error is None for reply in replies)
    assert count(store, conversation_id) == 2 + 6
    # History is a Redis list the provider appends to: no turn's messages were lost, even the naive ones.
    history = asyncio.run(stored_history(redis_url, store.load(conversation_id)))
    texts = "\n".join(message.text for message in history)
    assert len(history) == 2 * (3 + 6)
    assert all(f"Locked note {i}." in texts for i in range(6)) and "Concurrent note 1." in texts


@needs_redis
def test_kill_9_mid_turn_loses_nothing_acknowledged_and_another_worker_continues(
    redis_url: str, conversation_id: str, tmp_path: Path
) -> None:
    store = RedisSessionStore(redis_url)
    victim, survivor = start_workers(["victim", "survivor"], redis_url, think=5.0, lock_ttl=2.0)
    try:
        acknowledged = [survivor.ask(conversation_id, "Hi, my name is Ada.")]
        acknowledged.append(victim.ask(conversation_id, "I live in Lisbon."))
        lock_key = f"agent_session:{conversation_id}:lock"
        victim.send(conversation_id, "This turn never finishes.")
        raw = redis.Redis.from_url(redis_url)
        deadline = time.monotonic() + 30
        while not raw.exists(lock_key) and time.monotonic() < deadline:  # the victim is inside its turn
            time.sleep(0.05)
        assert raw.exists(lock_key)
        victim.kill()
        after = survivor.ask(conversation_id, "What is my name?")  # waits out the dead worker's lock
    finally:
        victim.close()
        survivor.close()
    for turn in acknowledged:
        assert turn.reply in after.sent_text
    assert "Hi, my name is Ada." in after.sent_text and "I live in Lisbon." in after.sent_text
    assert "This turn never finishes." not in after.sent_text  # the unacknowledged turn left no trace
    assert store.load(conversation_id).state["turns"] == {"count": 3, "served_by": ["survivor", "victim", "survivor"]}


def test_two_machines_with_their_own_sqlite_files_do_not_share_the_conversation(
    tmp_path: Path, conversation_id: str
) -> None:
    (tmp_path / "machine-a").mkdir()
    (tmp_path / "machine-b").mkdir()
    a = start_workers(["a"], f"sqlite:{tmp_path / 'machine-a' / 'sessions.db'}")[0]
    b = start_workers(["b"], f"sqlite:{tmp_path / 'machine-b' / 'sessions.db'}")[0]
    try:
        a.ask(conversation_id, "Hi, my name is Ada.")
        second = b.ask(conversation_id, "What is my name?")
    finally:
        a.close()
        b.close()
    assert "Ada" not in second.sent_text  # b never saw a's turn: it started the conversation over

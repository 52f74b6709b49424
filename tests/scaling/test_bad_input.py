"""Bad input gets one clear error that names the fix: a malformed stored session, a wrong URL, a dead server."""

from __future__ import annotations

import subprocess
import sys

import pytest
import redis
from agent_framework import AgentSession

from lesson_utils.persistence import SessionFormatError
from lesson_utils.resume import child_env
from lesson_utils.scaling import (
    HOW_TO_GET_REDIS,
    RedisSessionStore,
    RedisUnavailableError,
    check_redis_url,
    connect_redis,
    open_store,
    redis_for_lesson,
    start_redis_server,
)

from .conftest import needs_redis


@needs_redis
def test_a_malformed_stored_session_names_its_key_and_stays_there(redis_url: str, conversation_id: str) -> None:
    store = RedisSessionStore(redis_url)
    store.save(conversation_id, AgentSession())
    raw = redis.Redis.from_url(redis_url, decode_responses=True)
    raw.hset(f"agent_session:{conversation_id}", "json", '{"type": "session", "state": []')
    with pytest.raises(SessionFormatError, match=rf"Redis key 'agent_session:{conversation_id}' .* not valid JSON"):
        store.load_versioned(conversation_id)
    assert store.load_json(conversation_id).startswith('{"type"')  # left in place to inspect or repair
    raw.hset(f"agent_session:{conversation_id}", "json", '{"type": "session", "state": {}}')
    with pytest.raises(SessionFormatError, match='"session_id" must be a non-empty string'):
        store.load(conversation_id)
    raw.close()
    store.close()


@pytest.mark.parametrize("url", ["http://localhost:6379", "localhost:6379", "", "redis://"])
def test_a_url_that_is_not_a_redis_url_says_what_one_looks_like(url: str) -> None:
    with pytest.raises(ValueError, match=r"redis://(HOST:PORT/DB|localhost:6379/0)"):
        check_redis_url(url)
    with pytest.raises(ValueError):
        RedisSessionStore(url)


def test_an_unknown_store_string_names_both_kinds() -> None:
    with pytest.raises(ValueError, match=r"use redis://HOST:PORT/DB or sqlite:PATH"):
        open_store("postgres://db/sessions")


def _dead_url() -> str:
    import socket

    with socket.socket() as probe:  # a port nothing listens on (closed again at once)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_no_server_at_the_url_is_one_line_naming_the_fix() -> None:
    with pytest.raises(RedisUnavailableError, match=r"no Redis server answers at redis://127\.0\.0\.1:\d+/0") as info:
        connect_redis(_dead_url())
    assert "start redis-server or fix REDIS_URL" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_password_never_appears_in_the_error() -> None:
    url = _dead_url().replace("redis://", "redis://user:s3cret@")
    with pytest.raises(RedisUnavailableError) as info:
        connect_redis(url)
    assert "s3cret" not in str(info.value) and "***" in str(info.value)


@needs_redis
def test_a_server_that_dies_mid_use_is_one_clear_error_and_nothing_half_written() -> None:
    with start_redis_server() as url:
        store = RedisSessionStore(url)
        store.save("c", AgentSession())
    # the server is stopped now
    with pytest.raises(RedisUnavailableError, match=r"lost the Redis server at .*nothing was written"):
        store.save("c", AgentSession())
    with pytest.raises(RedisUnavailableError, match="lost the Redis server"):
        store.load_versioned("c")


def test_a_set_but_dead_redis_url_is_an_error_not_a_silent_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", _dead_url())
    with pytest.raises(RedisUnavailableError, match="fix REDIS_URL"):
        with redis_for_lesson():
            pass


def test_without_a_server_the_lesson_gets_the_one_line_how_to(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no redis-server on it
    with redis_for_lesson() as found:
        assert not found.available and found.url is None
        assert found.note == HOW_TO_GET_REDIS
    for way in ("REDIS_URL", "apt install redis-server", "brew install redis", "conda-forge redis"):
        assert way in HOW_TO_GET_REDIS
    assert "\n" not in HOW_TO_GET_REDIS


@pytest.mark.full  # slow: a worker process waits for a dead server
def test_a_worker_pointed_at_a_dead_server_exits_with_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "lesson_utils.scaling.worker", "--name", "a", "--store", _dead_url()],
        capture_output=True, text=True, encoding="utf-8", env=child_env(), timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error: no Redis server answers at")
    assert len(result.stderr.strip().splitlines()) == 1

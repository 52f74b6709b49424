"""Fixtures for the lesson-14 tests: a real Redis server, or a skip that says why there is none.

``REDIS_URL`` wins when set (CI with a service container, or a learner's own server). Otherwise a
private ``redis-server`` is started on a free port for this test module and stopped after it.
No fakes: what lesson 14 claims about Redis is tested against Redis.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from lesson_utils.persistence import SqliteSessionStore
from lesson_utils.scaling import RedisSessionStore, start_redis_server

NO_REDIS = "no redis-server binary on PATH and REDIS_URL unset (apt install redis-server, or .ci/run installs it)"


def redis_available() -> bool:
    return bool(os.environ.get("REDIS_URL")) or shutil.which("redis-server") is not None


needs_redis = pytest.mark.skipif(not redis_available(), reason=NO_REDIS)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    if shutil.which("redis-server") is None:
        pytest.skip(NO_REDIS)
    with start_redis_server() as url:
        yield url


@pytest.fixture
def conversation_id() -> str:
    """A fresh id per test, so tests sharing one server (or a REDIS_URL) never see each other."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=needs_redis)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqliteSessionStore | RedisSessionStore]:
    """Each versioned store, so both keep the same promise."""
    if request.param == "sqlite":
        yield SqliteSessionStore(tmp_path / "sessions.db")
        return
    redis_store = RedisSessionStore(request.getfixturevalue("redis_url"), prefix=f"t{uuid.uuid4().hex[:8]}")
    yield redis_store
    redis_store.close()

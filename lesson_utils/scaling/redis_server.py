"""Lesson 14: a Redis server for the lesson, found or started the way a learner would.

Order of preference, so nothing is ever started behind a learner's back when they have one:

1. ``REDIS_URL`` is set: use that server (checked with one ``PING``).
2. A ``redis-server`` binary is installed: start a private one on a free port with its data in a
   temporary folder, and stop it (and delete the folder) at the end.
3. Neither: say in one line how to get one, and let the lesson fall back to the embedded
   SQLite store. The lesson must still run.

Every connection problem becomes :class:`RedisUnavailableError` with one line that names the
fix; a URL that is not a Redis URL is a ``ValueError`` saying what one looks like.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import redis

from ..errors import LessonError

__all__ = [
    "HOW_TO_GET_REDIS",
    "LessonRedis",
    "RedisUnavailableError",
    "check_redis_url",
    "connect_redis",
    "redact_url",
    "redis_for_lesson",
    "start_redis_server",
]

HOW_TO_GET_REDIS = (
    "no Redis: set REDIS_URL, or install redis-server "
    "(apt install redis-server · brew install redis · conda install -c conda-forge redis); "
    "showing the lesson on the embedded SQLite store instead"
)
_SCHEMES = ("redis", "rediss", "unix")


class RedisUnavailableError(LessonError, ConnectionError):
    """No Redis server answers at the URL (or none could be started)."""


def check_redis_url(url: str) -> str:
    """Return ``url`` if it looks like a Redis URL, else a ``ValueError`` saying what one looks like."""
    if not isinstance(url, str) or not url.strip():
        raise ValueError(f"expected a Redis URL such as redis://localhost:6379/0, got {url!r}")
    parts = urlsplit(url.strip())
    if parts.scheme not in _SCHEMES or (parts.scheme != "unix" and not parts.hostname):
        raise ValueError(
            f"{url!r} is not a Redis URL: use redis://HOST:PORT/DB (rediss:// for TLS), e.g. redis://localhost:6379/0"
        )
    return url.strip()


def redact_url(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return parts._replace(netloc=netloc).geturl()
    return url


def connect_redis(url: str, *, timeout: float = 3.0) -> redis.Redis:
    """A client for ``url`` that has answered one ``PING``; one clear error when it cannot."""
    check_redis_url(url)
    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout, decode_responses=True)
    try:
        client.ping()
    except redis.exceptions.RedisError as exc:
        client.close()
        raise RedisUnavailableError(
            f"no Redis server answers at {redact_url(url)} ({exc}); start redis-server or fix REDIS_URL"
        ) from None
    return client


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def start_redis_server(*, binary: str | None = None, timeout: float = 15.0) -> Iterator[str]:
    """Start a private ``redis-server`` on a free local port; yield its URL; stop it and clean up.

    It keeps its files in a temporary folder and saves nothing to disk (``--save ""``), so it
    leaves no trace. Raises :class:`RedisUnavailableError` when no binary exists or it will not start.
    """
    binary = binary or shutil.which("redis-server")
    if binary is None:
        raise RedisUnavailableError(HOW_TO_GET_REDIS.split(";")[0])
    folder = Path(tempfile.mkdtemp(prefix="lesson-redis-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        for _attempt in range(3):  # a free port can be taken between probing and binding
            port = _free_port()
            url = f"redis://127.0.0.1:{port}/0"
            log = folder / "redis.log"
            process = subprocess.Popen(
                [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
                 "--save", "", "--appendonly", "no", "--logfile", str(log)],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            deadline = time.monotonic() + timeout
            while process.poll() is None and time.monotonic() < deadline:
                try:
                    connect_redis(url, timeout=0.5).close()
                except RedisUnavailableError:
                    time.sleep(0.05)
                    continue
                yield url
                return
            _stop(process)
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:] if log.exists() else []
        raise RedisUnavailableError(f"{binary} did not start: {' '.join(tail) or 'no log'}")
    finally:
        if process is not None:
            _stop(process)
        shutil.rmtree(folder, ignore_errors=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass(frozen=True)
class LessonRedis:
    """Which Redis the lesson uses: ``url`` is ``None`` when there is none (see ``note``)."""

    url: str | None
    source: str  # "REDIS_URL", "started", or "none"
    note: str

    @property
    def available(self) -> bool:
        return self.url is not None


@contextmanager
def redis_for_lesson() -> Iterator[LessonRedis]:
    """``REDIS_URL`` if set, else a private ``redis-server`` if installed, else the reason why not.

    A set but unreachable ``REDIS_URL`` is an error (the learner asked for that server); a missing
    binary is not (the lesson falls back to the embedded store).
    """
    url = os.environ.get("REDIS_URL", "").strip()
    if url:
        connect_redis(url).close()
        yield LessonRedis(url, "REDIS_URL", f"using the Redis server at REDIS_URL ({redact_url(url)})")
        return
    if shutil.which("redis-server") is None:
        yield LessonRedis(None, "none", HOW_TO_GET_REDIS)
        return
    with start_redis_server() as started:
        yield LessonRedis(started, "started", f"started a private redis-server at {started} (stopped at the end)")

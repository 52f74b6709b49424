"""Lesson 12's checks: what failed, what the server holds, and a server that hangs."""

from __future__ import annotations

import socket
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from cortadel import CortadelError

from ..cortadel import CortadelMemoryClient


def failed_with(errors: Iterable[Exception], code: str, count: int) -> bool:
    """Whether exactly ``count`` Cortadel calls failed, each with the error ``code`` (e.g. ``"transport_error"``)."""
    errors = list(errors)
    return len(errors) == count and all(isinstance(e, CortadelError) and e.code == code for e in errors)


def mentions(facts: Iterable[str], word: str) -> bool:
    """Whether any stored fact mentions ``word``."""
    return any(word in fact for fact in facts)


async def stored_facts(url: str, user: str, api_key: str | None = None) -> list[str]:
    """What the memory server at ``url`` holds for ``user``, read straight from the server."""
    async with CortadelMemoryClient(url, user, api_key=api_key) as memory:
        return [item.content for item in (await memory.sdk_client.list()).items]


def port_of(url: str) -> int:
    """The port of a ``http://host:port`` URL: where a stopped server comes back."""
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


@contextmanager
def server_that_hangs() -> Iterator[str]:
    """A loopback URL whose connections are accepted and never answered: a server that hangs."""
    listener: Any = socket.socket()
    try:
        listener.bind(("127.0.0.1", 0))
        listener.listen()  # the operating system accepts connections; nobody ever answers them
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()

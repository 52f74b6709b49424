"""Lesson 12's checks: what failed, where a stopped server comes back, and a server that hangs."""

from __future__ import annotations

import socket
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from cortadel import CortadelError



def failed_with(errors: Iterable[Exception], code: str, count: int) -> bool:
    """Whether exactly ``count`` Cortadel calls failed, each with the error ``code`` (e.g. ``"transport_error"``)."""
    errors = list(errors)
    return len(errors) == count and all(isinstance(e, CortadelError) and e.code == code for e in errors)


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

"""Lesson 09's exercise: make the memory server fail and read what the model is told.

The memory tools fail open: when the server is down, ``search_memory`` does not raise into the
agent's run, it hands the model a sentence instead. The learner proves it by building the tools
against a server that is down and returning the tool result the model actually received. The
checker gives them a "server" on loopback that drops every connection (so it can count that the
learner's tools really tried it), runs their code on the offline model, and looks at what that
model was sent.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ._cases import drawn_cases
from ._registry import Hint, call_learner, exercise


class _DroppingServer:
    """A loopback port that accepts each connection and closes it at once: a memory server that is down."""

    def __init__(self) -> None:
        self._socket = socket.socket()
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(16)
        self._socket.settimeout(0.2)
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="dropping-server", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._socket.accept()
            except OSError:  # the accept timed out, or the socket was closed: look at the stop flag again
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._socket.close()


@contextmanager
def memory_server_that_is_down() -> Iterator[_DroppingServer]:
    server = _DroppingServer()
    try:
        yield server
    finally:
        server.close()


def _tool_results_sent(client: Any) -> list[str]:
    """The text of every tool result the offline model received on its latest call (the tool loop's last)."""
    request = client.last_request
    if request is None:
        return []
    return [
        str(content.result)
        for message in request.messages
        for content in message.contents
        if content.type == "function_result"
    ]


@exercise("09.server_down_message", title="what the model is told when memory is down")
async def check_server_down_message(answer: Any) -> None:
    from ..cortadel.tools import NO_MEMORIES, SEARCH_UNAVAILABLE
    from ..models import OfflineChatClient

    if not callable(answer):
        raise Hint(f"pass your function `what_the_model_is_told` itself, not {type(answer).__name__}")
    with drawn_cases():
        await _ask(answer, OfflineChatClient(), NO_MEMORIES, SEARCH_UNAVAILABLE)


async def _ask(answer: Any, client: Any, no_memories: str, search_unavailable: str) -> None:
    with memory_server_that_is_down() as down:
        told = await call_learner(answer, client, down.url, what="`what_the_model_is_told`")
        tried = down.connections
    sent = _tool_results_sent(client)
    if tried == 0:
        if told == no_memories or no_memories in sent:
            raise Hint(
                "that is what a *working* memory server says: build the CortadelMemoryClient on the "
                "dead_url you were given, not on a live server"
            )
        raise Hint("your memory tools never contacted dead_url: build the CortadelMemoryClient on it")
    if not sent:
        raise Hint(
            "the model never received a tool result: run an Agent with the tools and ask something it "
            "must look up (for example 'When do I usually ship?'), instead of calling the tool or the "
            "memory client yourself"
        )
    if not isinstance(told, str):
        raise Hint(
            f"return the text of the search_memory result the model received (a str), not "
            f"{type(told).__name__}"
        )
    if told != search_unavailable:
        raise Hint(
            f"you returned {told[:80]!r}; return what the tool told the model (the function_result in "
            f"the response's messages), not the error the memory client raised"
        )
    if search_unavailable not in sent:
        raise Hint("the model was never sent that sentence: return the result from *this* run's messages")

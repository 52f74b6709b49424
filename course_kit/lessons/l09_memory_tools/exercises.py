"""Lesson 09's exercise: make the memory server fail and read what the model is told.

The memory tools fail open: when the server is down, ``search_memory`` does not raise into the
agent's run, it hands the model a sentence instead. The learner proves it by building the tools
against a server that is down and returning the tool result the model actually received. The
checker gives them a "server" on loopback that drops every connection (so it can count that the
learner's tools really tried it), runs their code on the offline model, and looks at what that
model was sent. It does so twice per run, each time on a new dead port, in an order drawn per run:
once with the offline model as it is (it quotes the tool result word for word) and once with the
same model made to *paraphrase* its final answer in a sentence drawn per run — so an answer read
from what the model said, rather than from what it received, shows.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from agent_framework import ChatResponse, Content, chat_middleware

from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise


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
    from lesson_utils.cortadel.tools import NO_MEMORIES, SEARCH_UNAVAILABLE, SEARCH_UNAVAILABLE_NOW
    from chat_models import OfflineChatClient

    if not callable(answer):
        raise Hint(f"pass your function `what_the_model_is_told` itself, not {type(answer).__name__}")
    with drawn_cases() as rng:
        said = f"{rng.choice(_OPENINGS)} {rng.choice(_MIDDLES)}, {rng.choice(_ENDINGS)}"
        # each run configures its own fail-open wording (never the package's SEARCH_UNAVAILABLE): a sentence
        # typed in from the lesson or the package cannot pass for what the tool returned
        wordings = rng.sample(_CONFIGURED, 2)
        for own_words, wording in zip(rng.sample([None, said], 2), wordings, strict=True):
            answers: list[str] = []
            client = OfflineChatClient(middleware=[_final_answers(answers, own_words)])
            token = SEARCH_UNAVAILABLE_NOW.set(wording)
            try:
                await _ask(answer, client, NO_MEMORIES, wording, answers, package_default=SEARCH_UNAVAILABLE)
            finally:
                SEARCH_UNAVAILABLE_NOW.reset(token)


#: What a deployment might configure its memory tools to say when memory is down (drawn per run).
_CONFIGURED = ["Memory is offline right now; answer without it.",
               "The memory store did not respond; answer from this conversation only.",
               "Long-term memory unavailable (server down); carry on without it.",
               "No access to saved memories at the moment; do not guess what they said.",
               "Memory lookup failed; answer without it and say you could not check."]


#: A model's own words for "memory is down", drawn per run: no answer can type them in.
_OPENINGS = ["Sorry,", "Apologies:", "Hmm,", "Unfortunately", "I'm afraid", "Right now"]
_MIDDLES = ["I can't reach my notes", "my memory store isn't responding", "the memory service is offline",
            "I have no access to what you told me before", "my long-term memory is out of reach"]
_ENDINGS = ["so I can't say.", "so I don't know yet.", "please ask me again later.", "so I won't guess.",
            "try me again in a minute."]


def _final_answers(answers: list[str], own_words: str | None) -> Any:
    """A chat middleware that keeps the model's final text answers in ``answers`` — replaced by ``own_words``
    when given: a model that paraphrases instead of quoting what its tool said."""

    @chat_middleware
    async def final_answers(context: Any, call_next: Any) -> None:
        await call_next()
        response = context.result
        if isinstance(response, ChatResponse) and response.messages and all(
            content.type == "text" for content in response.messages[-1].contents
        ):
            if own_words is not None:
                response.messages[-1].contents = [Content.from_text(own_words)]
            answers.append(response.messages[-1].text)

    return final_answers


async def _ask(answer: Any, client: Any, no_memories: str, search_unavailable: str, answers: list[str],
               package_default: str = "") -> None:
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
    if told != search_unavailable and told == package_default:
        raise Hint(
            f"you returned the package's SEARCH_UNAVAILABLE, but this run's tool was configured to say "
            f"{search_unavailable!r}: return the function_result the model received in this run's messages, "
            "not a sentence typed in"
        )
    if told != search_unavailable and any(told and told in said for said in answers):
        raise Hint(
            f"you returned {told[:80]!r}, which is not what the tool sent: that is what the model *said*, and a "
            "model may say it in its own words; return the function_result the model received"
        )
    if told != search_unavailable:
        raise Hint(
            f"you returned {told[:80]!r}; return what the tool told the model (the function_result in "
            f"the response's messages), not the error the memory client raised"
        )
    if search_unavailable not in sent:
        raise Hint("the model was never sent that sentence: return the result from *this* run's messages")

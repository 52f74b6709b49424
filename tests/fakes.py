"""The one stand-in chat client of the suite: it records what the framework sent and answers by a rule.

Tests of providers, sessions, memory tools and widgets are about what reaches the model, not
about what a model would say, so they all use this fake (the offline lesson model has its own
tests in tests/models). Import it with a relative import, ``from ..fakes import FakeChatClient``
(the suite runs with ``--import-mode=importlib``).

What differs between tests is a parameter, not a copy of the class:

* ``reply`` — a fixed text, or a function of the :class:`SentRequest` (default :func:`echo`:
  ``"echo: <last user text>"``).
* ``tool_call`` — ``(name, arguments)``: when that tool is offered, the first answer is a call to
  it; once the tool's result comes back the answer is ``"tool said: <result>"``. The framework's
  function-invocation layer runs the tool in between, as it would for a real model.
* ``fail`` — an exception every call raises, after the request was recorded.
* ``stream_by_word`` — a streamed answer arrives word by word (the chat widget renders chunks).

All four are plain attributes, so a test can change them between turns.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agent_framework import (
    BaseChatClient,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    FunctionInvocationLayer,
    Message,
)

__all__ = ["FakeChatClient", "SentRequest", "echo"]


@dataclass(frozen=True)
class SentRequest:
    """One model call as the framework made it."""

    messages: list[Message]
    instructions: str = ""
    tools: list[str | None] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def user_text(self) -> str:
        """The text of the last user message sent ("" when there is none)."""
        return next((m.text for m in reversed(self.messages) if m.role == "user"), "")


def echo(request: SentRequest) -> str:
    return f"echo: {request.user_text}"


Reply = str | Callable[[SentRequest], str]


class FakeChatClient(FunctionInvocationLayer, BaseChatClient):
    """A chat client for tests: records every request in ``requests``; see the module docstring."""

    def __init__(
        self,
        reply: Reply = echo,
        *,
        tool_call: tuple[str, dict[str, Any]] | None = None,
        fail: BaseException | None = None,
        stream_by_word: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.reply = reply
        self.tool_call = tool_call
        self.fail = fail
        self.stream_by_word = stream_by_word
        self.requests: list[SentRequest] = []
        self._ids = itertools.count(1)

    @property
    def last(self) -> SentRequest:
        """The most recent request (an IndexError before the first call)."""
        return self.requests[-1]

    def _answer(self, messages: Sequence[Message], options: Any) -> Message:
        options = dict(options or {})
        request = SentRequest(
            messages=list(messages),
            instructions=str(options.get("instructions") or ""),
            tools=[getattr(t, "name", None) for t in (options.get("tools") or [])],
            options=options,
        )
        self.requests.append(request)
        if self.fail is not None:
            raise self.fail
        message_id = f"a{next(self._ids)}"
        last = messages[-1] if messages else None
        if last is not None and last.role == "tool":
            results = [c.result for c in last.contents if c.type == "function_result"]
            return Message(role="assistant", contents=[f"tool said: {results[0]}"], message_id=message_id)
        if self.tool_call is not None and self.tool_call[0] in request.tools:
            name, arguments = self.tool_call
            call = Content.from_function_call(call_id=f"call{next(self._ids)}", name=name, arguments=arguments)
            return Message(role="assistant", contents=[call], message_id=message_id)
        text = self.reply(request) if callable(self.reply) else self.reply
        return Message(role="assistant", contents=[text], message_id=message_id)

    def _chunks(self, message: Message) -> list[Content]:
        if not (self.stream_by_word and message.text):
            return list(message.contents)
        words = message.text.split(" ")
        return [Content.from_text(text=word if i == 0 else " " + word) for i, word in enumerate(words)]

    # BaseChatClient's one abstract method: how every custom chat client answers.
    def _inner_get_response(self, *, messages: Sequence[Message], stream: bool, options: Any, **kwargs: Any) -> Any:
        if stream:

            async def _updates() -> AsyncIterator[ChatResponseUpdate]:
                message = self._answer(messages, options)
                for chunk in self._chunks(message):
                    yield ChatResponseUpdate(role="assistant", contents=[chunk], message_id=message.message_id)

            return self._build_response_stream(_updates())

        async def _get() -> ChatResponse:
            return ChatResponse(messages=[self._answer(messages, options)])

        return _get()

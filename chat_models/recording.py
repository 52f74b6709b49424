"""See what any model was sent: a chat middleware that records each request the agent makes.

The offline model keeps ``client.last_request`` itself; a real model does not. Adding a
``RequestRecorder`` to an agent gives the same view (messages, instructions, tools) for every
model, so a lesson's structural checks hold whichever model a learner configured.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from agent_framework import ChatContext, ChatMiddleware

from .offline import ModelRequest, instructions_from, tool_specs_from


class RequestRecorder(ChatMiddleware):
    """Records every model call an agent makes, as :class:`ModelRequest` objects."""

    def __init__(self) -> None:
        self.requests: list[ModelRequest] = []

    @property
    def last_request(self) -> ModelRequest | None:
        return self.requests[-1] if self.requests else None

    def clear(self) -> None:
        self.requests.clear()

    async def process(self, context: ChatContext, call_next: Callable[[], Awaitable[None]]) -> Any:
        options = dict(context.options or {})
        messages = list(context.messages)
        self.requests.append(
            ModelRequest(
                messages=messages,
                instructions=instructions_from(options, messages),
                tool_names=[spec.name for spec in tool_specs_from(options)],
            )
        )
        await call_next()

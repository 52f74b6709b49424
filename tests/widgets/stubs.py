"""Small stand-ins so the widget tests do not depend on the lesson model or the memory server.

The chat client is the suite's :class:`tests.fakes.FakeChatClient`, with the widget tests' reply.
"""

from __future__ import annotations

import re
from typing import Any

from agent_framework import ContextProvider, Message

from ..fakes import FakeChatClient, SentRequest


def named_echo(request: SentRequest) -> str:
    """``"Echo: <last user text>"``, plus ``(hello X)`` when the instructions say ``The user's name is X``.

    So a test sees that a provider's instructions reached the model, and how many messages did.
    """
    name = re.search(r"The user's name is (\w+)", request.instructions)
    reply = f"Echo: {request.user_text}"
    if name:
        reply += f" (hello {name.group(1)})"
    return reply + f" [saw {len(request.messages)} messages]"


def scripted_client() -> FakeChatClient:
    """The suite's chat client answering :func:`named_echo`, streamed word by word like a model."""
    return FakeChatClient(reply=named_echo, stream_by_word=True)


class NameMemory(ContextProvider):
    """A tiny lesson-3-style provider: learns "I'm <Name>" and adds it as instructions and context."""

    def __init__(self, source_id: str = "user_memory") -> None:
        super().__init__(source_id)

    async def before_run(self, *, agent: Any, session: Any, context: Any, state: dict[str, Any]) -> None:
        if state.get("name"):
            context.extend_instructions(self.source_id, f"The user's name is {state['name']}.")
            context.extend_messages(self, [Message(role="user", contents=[f"Memory: the user is {state['name']}"])])

    async def after_run(self, *, agent: Any, session: Any, context: Any, state: dict[str, Any]) -> None:
        for message in context.input_messages:
            found = re.search(r"\bI'm (\w+)", message.text or "")
            if found:
                state["name"] = found.group(1)


class ExplodingProvider(ContextProvider):
    def __init__(self) -> None:
        super().__init__("exploding")

    async def before_run(self, **kwargs: Any) -> None:
        raise ConnectionError("memory service unreachable")

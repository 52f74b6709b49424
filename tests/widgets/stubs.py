"""Small stand-ins so the widget tests do not depend on the lesson model or the memory server."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

from agent_framework import (
    BaseChatClient,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    ContextProvider,
    Message,
)


class ScriptedClient(BaseChatClient):
    """Streams ``"Echo: <last user text>"`` word by word and remembers what it was sent.

    When the instructions mention a name (``The user's name is X``) the reply says so, which
    lets a test see that a provider's instructions reached the model.
    """

    def __init__(self, fail_with: Exception | None = None) -> None:
        super().__init__()
        self.fail_with = fail_with
        self.calls: list[dict[str, Any]] = []

    def _reply(self, messages: Sequence[Message], options: Any) -> str:
        instructions = str(options.get("instructions") or "")
        self.calls.append({"messages": list(messages), "instructions": instructions})
        if self.fail_with is not None:
            raise self.fail_with
        user = [m.text for m in messages if m.role == "user"]
        name = re.search(r"The user's name is (\w+)", instructions)
        reply = f"Echo: {user[-1] if user else ''}"
        if name:
            reply += f" (hello {name.group(1)})"
        reply += f" [saw {len(messages)} messages]"
        return reply

    def _inner_get_response(self, *, messages: Sequence[Message], stream: bool, options: Any, **kwargs: Any) -> Any:
        if stream:

            async def _updates() -> AsyncIterator[ChatResponseUpdate]:
                words = self._reply(messages, options).split(" ")
                for i, word in enumerate(words):
                    yield ChatResponseUpdate(
                        role="assistant", contents=[Content.from_text(text=word if i == 0 else " " + word)]
                    )

            return self._build_response_stream(_updates())

        async def _response() -> ChatResponse:
            return ChatResponse(messages=[Message(role="assistant", contents=[self._reply(messages, options)])])

        return _response()


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

"""Fixtures for the lesson 3–5 tests: a recording chat client that needs no model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from agent_framework import BaseChatClient, ChatResponse, Message


class RecordingChatClient(BaseChatClient):
    """Answers every call with a fixed reply and records what it was sent.

    The provider tests are about what reaches the model, not about the answer, so a
    recorder is enough and keeps them independent of the offline lesson model.
    """

    def __init__(self, reply: str = "noted") -> None:
        super().__init__()
        self.reply = reply
        self.requests: list[tuple[list[Message], dict[str, Any]]] = []

    @property
    def last_instructions(self) -> str:
        return str(self.requests[-1][1].get("instructions") or "")

    @property
    def last_messages(self) -> Sequence[Message]:
        return self.requests[-1][0]

    async def _inner_get_response(self, *, messages, stream, options, **kwargs):  # type: ignore[override]
        self.requests.append((list(messages), dict(options)))
        return ChatResponse(messages=[Message(role="assistant", contents=[self.reply])])


@pytest.fixture
def recorder() -> RecordingChatClient:
    return RecordingChatClient()

"""Fakes for the Cortadel tests: a scriptable MemoryClient and a tiny recording chat client.

Both are handed to tests through fixtures (the suite runs with --import-mode=importlib, so test
modules cannot import each other).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from agent_framework import (
    BaseChatClient,
    ChatResponse,
    ChatResponseUpdate,
    Content,
    FunctionInvocationLayer,
    Message,
)
from cortadel import (
    AddOptions,
    ChatMessage,
    ConversationIngestItem,
    ConversationOptions,
    ConversationResult,
    CortadelError,
    MemoryCreated,
    SearchHit,
    SearchOptions,
    SearchResults,
)


@dataclass
class FakeMemoryClient:
    """A MemoryClient that records every call and answers from a script.

    ``hits`` are returned by every search; set ``fail`` to an exception to make every call raise
    it; ``add_event`` is the verdict ``add`` reports; ``gate`` (an asyncio.Event) holds
    ``add_conversation`` until set, to observe background writes.
    """

    hits: list[SearchHit] = field(default_factory=list)
    fail: BaseException | None = None
    add_event: str = "ADD"
    gate: asyncio.Event | None = None
    searches: list[tuple[str, SearchOptions | None]] = field(default_factory=list)
    conversations: list[tuple[list[ChatMessage], ConversationOptions | None]] = field(default_factory=list)
    adds: list[tuple[str, AddOptions | None]] = field(default_factory=list)

    async def search(self, query: str, options: SearchOptions | None = None) -> SearchResults:
        self.searches.append((query, options))
        if self.fail is not None:
            raise self.fail
        top_k = options.top_k if options else 10
        return SearchResults(query=query, results=list(self.hits[:top_k]), total=len(self.hits))

    async def add_conversation(
        self, messages: Sequence[ChatMessage], options: ConversationOptions | None = None
    ) -> ConversationResult:
        if self.gate is not None:
            await self.gate.wait()
        self.conversations.append((list(messages), options))
        if self.fail is not None:
            raise self.fail
        return ConversationResult(results=[ConversationIngestItem(id="c1", memory=messages[0].content, event="ADD")])

    async def add(self, text: str, options: AddOptions | None = None) -> MemoryCreated:
        self.adds.append((text, options))
        if self.fail is not None:
            raise self.fail
        return MemoryCreated(id="m1", content=text, event=self.add_event)


def hit(id: str, content: str, gist: str | None = None) -> SearchHit:
    return SearchHit(id=id, content=content, gist=gist)


class StubChatClient(FunctionInvocationLayer, BaseChatClient):
    """A model stand-in that records what it is sent and answers predictably.

    It answers ``"echo: <last user text>"``. When ``tool_call`` is set to ``(name, arguments)``
    and that tool is offered, its first reply is that function call; after the tool result
    arrives it answers ``"tool said: <result>"``. Set ``fail`` to make every call raise.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.requests: list[dict[str, Any]] = []
        self.tool_call: tuple[str, dict[str, Any]] | None = None
        self.fail: Exception | None = None
        self.reply: str | None = None
        self._ids = itertools.count(1)

    @property
    def last(self) -> dict[str, Any]:
        return self.requests[-1]

    def _answer(self, messages: Sequence[Message], options: Any) -> Message:
        tools = [getattr(t, "name", None) for t in (options.get("tools") or [])]
        self.requests.append(
            {"messages": list(messages), "instructions": options.get("instructions"), "tools": tools}
        )
        if self.fail is not None:
            raise self.fail
        last = messages[-1] if messages else None
        if last is not None and last.role == "tool":
            results = [c.result for c in last.contents if c.type == "function_result"]
            return Message(role="assistant", contents=[f"tool said: {results[0]}"], message_id=f"a{next(self._ids)}")
        if self.tool_call is not None and self.tool_call[0] in tools:
            name, arguments = self.tool_call
            call = Content.from_function_call(call_id=f"call{next(self._ids)}", name=name, arguments=arguments)
            return Message(role="assistant", contents=[call])
        user_text = next((m.text for m in reversed(messages) if m.role == "user"), "")
        text = self.reply if self.reply is not None else f"echo: {user_text}"
        return Message(role="assistant", contents=[text], message_id=f"a{next(self._ids)}")

    def _inner_get_response(self, *, messages: Sequence[Message], stream: bool, options: Any, **kwargs: Any) -> Any:
        if stream:

            async def _updates() -> AsyncIterator[ChatResponseUpdate]:
                message = self._answer(messages, options)
                for content in message.contents:
                    yield ChatResponseUpdate(role="assistant", contents=[content], message_id=message.message_id)

            return self._build_response_stream(_updates())

        async def _get() -> ChatResponse:
            return ChatResponse(messages=[self._answer(messages, options)])

        return _get()


@pytest.fixture
def memory() -> FakeMemoryClient:
    return FakeMemoryClient()


@pytest.fixture
def chat() -> StubChatClient:
    return StubChatClient()


@pytest.fixture
def make_hit():
    return hit


@pytest.fixture
def fakes():
    """The fake classes themselves, for tests that need more than one instance."""
    return type("Fakes", (), {"MemoryClient": FakeMemoryClient, "Chat": StubChatClient, "hit": staticmethod(hit), "CortadelError": CortadelError})

"""Fakes for the Cortadel tests: a scriptable MemoryClient, and the suite's chat client as ``chat``.

Both are handed to tests through fixtures; ``fakes`` gives the classes themselves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest
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

from ..fakes import FakeChatClient


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


@pytest.fixture
def memory() -> FakeMemoryClient:
    return FakeMemoryClient()


@pytest.fixture
def chat() -> FakeChatClient:
    """Answers "echo: <last user text>"; set ``reply``, ``tool_call`` or ``fail`` to script it."""
    return FakeChatClient()


@pytest.fixture
def make_hit():
    return hit


@pytest.fixture
def fakes():
    """The fake classes themselves, for tests that need more than one instance."""
    return type("Fakes", (), {"MemoryClient": FakeMemoryClient, "Chat": FakeChatClient, "hit": staticmethod(hit), "CortadelError": CortadelError})

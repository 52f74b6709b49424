"""End to end against the local memory server: turns over Cortadel's size limits are stored, not rejected."""

from __future__ import annotations

import uuid

import pytest
from agent_framework import Agent, Message

from lesson_utils import CortadelContextProvider, CortadelMemoryClient
from local_memory_server import start_memory_server


@pytest.fixture(scope="module")
def server():
    with start_memory_server() as running:
        yield running


async def stored(server, user_id: str) -> list[str]:
    async with CortadelMemoryClient(server.url, user_id) as client:
        listing = await client.sdk_client.list()
    return [item.content for item in listing.items]


async def test_a_120k_character_message_reaches_the_server_and_its_last_fact_is_kept(server, chat):
    user, seen = f"user-{uuid.uuid4().hex[:8]}", []
    chat.reply = "Thanks for sharing."
    paste = "Here is my whole diary. " * 5000 + "I ship on Fridays."
    async with CortadelContextProvider(server.url, user, on_error=seen.append) as memory:
        agent = Agent(client=chat, instructions="Be helpful.", context_providers=[memory])
        await agent.run(paste, session=agent.create_session())
    assert seen == []  # before splitting, this turn was a 400 and nothing was stored
    assert any("Friday" in fact for fact in await stored(server, user))


async def test_a_turn_of_more_than_500_messages_reaches_the_server(server, chat):
    user, seen = f"user-{uuid.uuid4().hex[:8]}", []
    chat.reply = "Noted."
    history = [Message(role="user", contents=[f"Note number {i} is filler."]) for i in range(599)]
    history.append(Message(role="user", contents=["I live in Oslo."]))
    async with CortadelContextProvider(server.url, user, on_error=seen.append) as memory:
        agent = Agent(client=chat, instructions="Be helpful.", context_providers=[memory])
        await agent.run(history, session=agent.create_session())
    assert seen == []
    assert any("Oslo" in fact for fact in await stored(server, user))

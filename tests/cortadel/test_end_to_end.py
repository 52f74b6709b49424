"""End to end: provider and tools through the official SDK over loopback HTTP to the local
memory server, with a real Agent on the offline lesson model."""

from __future__ import annotations

import asyncio
import socket
import uuid

import pytest
from agent_framework import Agent
from cortadel import CortadelError

from lesson_utils import CortadelContextProvider, CortadelMemoryClient, create_memory_tools
from chat_models import OfflineChatClient
from local_memory_server import start_memory_server

INSTRUCTIONS = "You are a helpful assistant. Use what you remember; never invent memories."


@pytest.fixture(scope="module")
def server():
    with start_memory_server() as running:
        yield running


@pytest.fixture(scope="module")
def auth_server():
    with start_memory_server(api_keys={"alice": "key-alice", "bob": "key-bob"}) as running:
        yield running


@pytest.fixture
def user() -> str:
    return f"user-{uuid.uuid4().hex[:8]}"


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


async def stored(server, user_id: str) -> list[str]:
    async with CortadelMemoryClient(server.url, user_id) as client:
        listing = await client.sdk_client.list()
    return [item.content for item in listing.items]


async def test_quickstart_a_new_session_recalls_through_the_server(server, user):
    model = OfflineChatClient()
    async with CortadelContextProvider(server.url, user) as memory:
        agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[memory])
        await agent.run("I'm Alex. I ship on Fridays.", session=agent.create_session())
        later = agent.create_session()
        answer = await agent.run("When do I usually ship?", session=later)

    assert "Friday" in answer.text
    assert any("Friday" in fact for fact in await stored(server, user))
    [injected] = [m for m in model.last_request.messages if m.additional_properties.get("_attribution")]
    assert "Friday" in injected.text
    assert len(later.state["cortadel"]["injected_memory_ids"]) >= 1


async def test_the_recalled_memory_is_not_written_back(server, user):
    model = OfflineChatClient()
    async with CortadelContextProvider(server.url, user) as memory:
        agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[memory])
        await agent.run("I ship on Fridays.", session=agent.create_session())
        before = await stored(server, user)
        for _ in range(3):
            await agent.run("When do I usually ship?", session=agent.create_session())
    after = await stored(server, user)
    assert sum("Friday" in f for f in after) == sum("Friday" in f for f in before)


async def test_streaming_end_to_end(server, user):
    model = OfflineChatClient()
    async with CortadelContextProvider(server.url, user) as memory:
        agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[memory])
        first = agent.run("I'm Alex. I live in Oslo.", session=agent.create_session(), stream=True)
        [u async for u in first]
        await first.get_final_response()
        second = agent.run("Where do I live?", session=agent.create_session(), stream=True)
        text = "".join([u.text async for u in second])
        await second.get_final_response()
    assert "Oslo" in text


async def test_session_scoped_recall_end_to_end(server, user):
    model = OfflineChatClient()
    async with CortadelContextProvider(server.url, user, scope_recall_to_session=True) as memory:
        agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[memory])
        first = agent.create_session()
        await agent.run("I ship on Fridays.", session=first)
        same = await agent.run("When do I usually ship?", session=first)
        other = await agent.run("When do I usually ship?", session=agent.create_session())
    assert "Friday" in same.text
    assert "don't know" in other.text


async def test_two_users_are_kept_apart(server):
    alice, bob = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    model = OfflineChatClient()
    async with CortadelContextProvider(server.url, alice) as alice_memory, CortadelContextProvider(server.url, bob) as bob_memory:
        alice_agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[alice_memory])
        bob_agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[bob_memory])
        await alice_agent.run("I ship on Fridays.", session=alice_agent.create_session())
        await bob_agent.run("I ship on Mondays.", session=bob_agent.create_session())
        alice_answer = await alice_agent.run("When do I usually ship?", session=alice_agent.create_session())
        bob_answer = await bob_agent.run("When do I usually ship?", session=bob_agent.create_session())
    assert "Friday" in alice_answer.text and "Monday" not in alice_answer.text
    assert "Monday" in bob_answer.text and "Friday" not in bob_answer.text


async def test_await_persist_false_then_aclose_flushes_the_write(server, user):
    memory = CortadelContextProvider(server.url, user, await_persist=False)
    agent = Agent(client=OfflineChatClient(), instructions=INSTRUCTIONS, context_providers=[memory])
    await agent.run("I ship on Fridays.", session=agent.create_session())
    await memory.aclose()
    assert memory.pending_writes == 0
    assert any("Friday" in f for f in await stored(server, user))


async def test_server_down_the_agent_still_answers_and_on_error_saw_it():
    seen: list[Exception] = []
    async with CortadelContextProvider(closed_port_url(), "alex", on_error=seen.append) as memory:
        agent = Agent(client=OfflineChatClient(), instructions=INSTRUCTIONS, context_providers=[memory])
        answer = await agent.run("I'm Alex. When do I usually ship?", session=agent.create_session())
    assert answer.text  # the model answered, just without long-term memory
    assert len(seen) == 2 and all(isinstance(e, CortadelError) and e.status == 0 for e in seen)


async def test_server_down_with_raise_on_error_propagates():
    async with CortadelContextProvider(closed_port_url(), "alex", raise_on_error=True) as memory:
        agent = Agent(client=OfflineChatClient(), instructions=INSTRUCTIONS, context_providers=[memory])
        with pytest.raises(CortadelError):
            await agent.run("hello", session=agent.create_session())


async def test_memory_tools_end_to_end_with_the_duplicate_verdict(server, user):
    async with CortadelMemoryClient(server.url, user) as client:
        model = OfflineChatClient()
        agent = Agent(client=model, instructions=INSTRUCTIONS, tools=create_memory_tools(client))
        saved = await agent.run("Remember that I ship on Fridays.")
        duplicate = await agent.run("Remember that I ship on Fridays.")
        recalled = await agent.run("When do I usually ship?")
    assert "Remembered" in saved.text
    assert "Already remembered; nothing new was stored." in duplicate.text
    assert "Friday" in recalled.text
    assert sum("Friday" in f for f in await stored(server, user)) == 1


async def test_api_keys_scope_users_and_a_wrong_key_fails_open(auth_server):
    model = OfflineChatClient()
    async with CortadelContextProvider(auth_server.url, "alice", api_key="key-alice") as memory:
        agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[memory])
        await agent.run("I ship on Fridays.", session=agent.create_session())
        answer = await agent.run("When do I usually ship?", session=agent.create_session())
    assert "Friday" in answer.text

    seen: list[Exception] = []
    async with CortadelContextProvider(auth_server.url, "alice", api_key="wrong", on_error=seen.append) as memory:
        agent = Agent(client=model, instructions=INSTRUCTIONS, context_providers=[memory])
        answer = await agent.run("When do I usually ship?", session=agent.create_session())
    assert "don't know" in answer.text
    assert seen and all(isinstance(e, CortadelError) and e.status == 401 for e in seen)


async def test_cancelling_a_turn_mid_recall_propagates(server, user):
    async with CortadelContextProvider(server.url, user) as memory:
        agent = Agent(client=OfflineChatClient(), instructions=INSTRUCTIONS, context_providers=[memory])
        run = asyncio.create_task(agent.run("hello " * 200, session=agent.create_session()))
        await asyncio.sleep(0)
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run

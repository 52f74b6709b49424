"""A provider cached across event loops (``asyncio.run`` per request) keeps working."""

from __future__ import annotations

import asyncio

import httpx
from agent_framework import Agent
from cortadel import CortadelClient

from lesson_utils import CortadelContextProvider, CortadelMemoryClient
from chat_models import OfflineChatClient
from local_memory_server import start_memory_server


def test_a_provider_reused_after_its_event_loop_closed_still_recalls():
    seen: list[Exception] = []
    with start_memory_server() as server:
        provider = CortadelContextProvider(server.url, "alex", on_error=seen.append)
        agent = Agent(client=OfflineChatClient(), instructions="Be helpful.", context_providers=[provider])

        async def turn(text: str) -> str:
            return (await agent.run(text, session=agent.create_session())).text

        asyncio.run(turn("I'm Alex. I ship on Fridays."))  # one "request" ...
        answer = asyncio.run(turn("When do I usually ship?"))  # ... and the next, on a new loop
        asyncio.run(provider.aclose())
    assert seen == []  # before the fix: CortadelError "Event loop is closed" on every later turn
    assert "Friday" in answer


def test_a_caller_supplied_sdk_client_is_never_replaced():
    async def use(client: CortadelMemoryClient) -> CortadelClient:
        return client.sdk_client

    sdk = CortadelClient("http://127.0.0.1:9", "alex", http_client=httpx.AsyncClient())
    client = CortadelMemoryClient(sdk_client=sdk)
    assert asyncio.run(use(client)) is sdk
    assert asyncio.run(use(client)) is sdk

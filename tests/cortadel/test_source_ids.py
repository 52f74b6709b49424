"""Two providers on one agent: distinct source_ids keep separate state; a clash fails loudly."""

from __future__ import annotations

import pytest
from agent_framework import Agent, InMemoryHistoryProvider

from lesson_utils import CortadelContextProvider
from lesson_utils.cortadel.provider import INJECTED_IDS_KEY


async def test_same_source_id_fails_on_the_first_run_with_a_clear_error(fakes, chat):
    a, b = fakes.MemoryClient(), fakes.MemoryClient()
    agent = Agent(client=chat, context_providers=[CortadelContextProvider(client=a), CortadelContextProvider(client=b)])
    with pytest.raises(ValueError, match=r"share source_id 'cortadel'.*own source_id"):
        await agent.run("hello", session=agent.create_session())
    assert a.searches == [] and chat.requests == []


async def test_the_same_instance_attached_twice_is_rejected(memory, chat):
    provider = CortadelContextProvider(client=memory)
    agent = Agent(client=chat, context_providers=[provider, provider])
    with pytest.raises(ValueError, match="share source_id"):
        await agent.run("hello")


async def test_clash_with_another_kind_of_provider_is_rejected(memory, chat):
    agent = Agent(client=chat, context_providers=[InMemoryHistoryProvider(), CortadelContextProvider(client=memory, source_id="in_memory")])
    with pytest.raises(ValueError, match="'in_memory'"):
        await agent.run("hello", session=agent.create_session())


async def test_distinct_source_ids_keep_separate_state_and_both_inject(fakes, chat):
    personal, team = fakes.MemoryClient(), fakes.MemoryClient()
    personal.hits = [fakes.hit("p1", "Alex ships on Fridays")]
    team.hits = [fakes.hit("t1", "The team deploys with blue-green")]
    agent = Agent(
        client=chat,
        context_providers=[
            CortadelContextProvider(client=personal, source_id="cortadel-personal"),
            CortadelContextProvider(client=team, source_id="cortadel-team", store_turns=False),
        ],
    )
    session = agent.create_session()
    await agent.run("how do we ship?", session=session)
    assert session.state["cortadel-personal"][INJECTED_IDS_KEY] == ["p1"]
    assert session.state["cortadel-team"][INJECTED_IDS_KEY] == ["t1"]
    sent = "\n".join(m.text for m in chat.last.messages)
    assert "Alex ships on Fridays" in sent and "blue-green" in sent
    assert len(personal.conversations) == 1 and team.conversations == []

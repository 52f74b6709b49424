"""after_run: the finished turn goes to add_conversation — and nothing else does."""

from __future__ import annotations

import asyncio

import pytest
from agent_framework import Agent, AgentSession, Message

from lesson_utils import CortadelContextProvider


def agent_with(chat, *providers, **kwargs) -> Agent:
    return Agent(client=chat, instructions="You are helpful.", context_providers=list(providers), **kwargs)


async def test_turn_input_and_response_are_stored_with_ids_and_options(memory, chat):
    provider = CortadelContextProvider(client=memory, tags=["work"], project="shipit", is_agent_memory=True)
    agent = agent_with(chat, provider)
    session = agent.create_session()
    await agent.run(Message(role="user", contents=["I'm Alex. I ship on Fridays."], message_id="u1"), session=session)

    [(messages, options)] = memory.conversations
    assert [(m.role, m.content, m.uuid) for m in messages] == [
        ("user", "I'm Alex. I ship on Fridays.", "u1"),
        ("assistant", "echo: I'm Alex. I ship on Fridays.", "a1"),
    ]
    assert options.tags == ["work"] and options.project == "shipit" and options.is_agent_memory is True
    assert options.session_id == session.session_id


async def test_defaults_forward_no_tags_or_project(memory, chat):
    agent = agent_with(chat, CortadelContextProvider(client=memory))
    await agent.run("hello", session=agent.create_session())
    options = memory.conversations[0][1]
    assert options.tags is None and options.project is None and options.is_agent_memory is False


async def test_session_id_is_the_service_conversation_id_when_the_service_keeps_history(memory, chat):
    agent = agent_with(chat, CortadelContextProvider(client=memory))
    session = AgentSession(service_session_id="conv_42")
    await agent.run("hello", session=session)
    assert memory.conversations[0][1].session_id == "conv_42"


async def test_injected_memories_and_replayed_history_are_never_stored(memory, chat, make_hit):
    """The feedback-loop guard: recalled text must not come back as if the user said it."""
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    provider = CortadelContextProvider(client=memory)
    agent = agent_with(chat, provider)
    session = agent.create_session()
    await agent.run("first turn", session=session)
    await agent.run("second turn", session=session)

    # The model did see the memory and the replayed history...
    assert any("Alex ships on Fridays" in m.text for m in chat.requests[0].messages)
    assert "first turn" in [m.text for m in chat.last.messages]
    # ...but each stored turn holds only that turn's own words.
    second = [m.content for m in memory.conversations[1][0]]
    assert second == ["second turn", "echo: second turn"]
    for stored, _ in memory.conversations:
        assert all("Alex ships on Fridays" not in m.content for m in stored)


async def test_messages_from_any_provider_are_skipped(memory, chat):
    provider = CortadelContextProvider(client=memory)
    agent = agent_with(chat, provider)
    foreign = Message(role="user", contents=["from another provider"], additional_properties={"_attribution": {"source_id": "rag"}})
    await agent.run([foreign, Message(role="user", contents=["mine"])], session=agent.create_session())
    assert [m.content for m in memory.conversations[0][0]] == ["mine", "echo: mine"]


async def test_only_user_assistant_system_messages_with_text_are_stored(memory, chat):
    chat.tool_call = ("search_memory", {"query": "ship"})
    provider = CortadelContextProvider(client=memory, include_memory_tools=True)
    agent = agent_with(chat, provider)
    await agent.run(
        [Message(role="system", contents=["Be brief."]), Message(role="user", contents=["  "]), Message(role="user", contents=["when do I ship?"])],
        session=agent.create_session(),
    )
    stored = memory.conversations[0][0]
    # The function call (no text) and the tool result (role "tool") are not conversation.
    assert [m.role for m in stored] == ["system", "user", "assistant"]
    assert stored[-1].content.startswith("tool said:")


async def test_store_turns_false_stores_nothing_but_still_recalls(memory, chat, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    agent = agent_with(chat, CortadelContextProvider(client=memory, store_turns=False))
    await agent.run("when do I ship?", session=agent.create_session())
    assert memory.conversations == []
    assert len(memory.searches) == 1


async def test_a_failed_run_stores_nothing(memory, chat):
    chat.fail = RuntimeError("model exploded")
    agent = agent_with(chat, CortadelContextProvider(client=memory))
    with pytest.raises(Exception, match="model exploded"):
        await agent.run("hello", session=agent.create_session())
    assert len(memory.searches) == 1
    assert memory.conversations == []


async def test_a_failed_streaming_run_stores_nothing(memory, chat):
    chat.fail = RuntimeError("model exploded")
    agent = agent_with(chat, CortadelContextProvider(client=memory))
    stream = agent.run("hello", session=agent.create_session(), stream=True)
    with pytest.raises(Exception, match="model exploded"):
        async for _ in stream:
            pass
        await stream.get_final_response()
    assert memory.conversations == []


async def test_after_run_with_no_response_stores_nothing(memory):
    from agent_framework import SessionContext

    provider = CortadelContextProvider(client=memory)
    session = AgentSession()
    context = SessionContext(input_messages=[Message(role="user", contents=["hi"])])
    await provider.after_run(agent=None, session=session, context=context, state={})
    assert memory.conversations == []


async def test_await_persist_true_finishes_the_write_inside_the_turn(memory, chat):
    memory.gate = asyncio.Event()
    agent = agent_with(chat, CortadelContextProvider(client=memory))
    run = asyncio.create_task(agent.run("hello", session=agent.create_session()))
    await asyncio.sleep(0.05)
    assert not run.done()  # the turn waits for the write
    memory.gate.set()
    await run
    assert len(memory.conversations) == 1


async def test_await_persist_false_returns_first_and_aclose_drains(memory, chat):
    memory.gate = asyncio.Event()
    provider = CortadelContextProvider(client=memory, await_persist=False)
    agent = agent_with(chat, provider)
    response = await agent.run("hello", session=agent.create_session())
    assert response.text == "echo: hello"
    assert provider.pending_writes == 1 and memory.conversations == []

    closing = asyncio.create_task(provider.aclose())
    await asyncio.sleep(0.01)
    assert not closing.done()  # aclose waits for the write
    memory.gate.set()
    await closing
    assert provider.pending_writes == 0 and len(memory.conversations) == 1


async def test_streaming_run_recalls_and_persists(memory, chat, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    agent = agent_with(chat, CortadelContextProvider(client=memory))
    stream = agent.run("when do I ship?", session=agent.create_session(), stream=True)
    chunks = [update.text async for update in stream]
    final = await stream.get_final_response()
    assert "".join(chunks) == final.text == "echo: when do I ship?"
    assert any("Alex ships on Fridays" in m.text for m in chat.last.messages)
    assert [m.content for m in memory.conversations[0][0]] == ["when do I ship?", "echo: when do I ship?"]

"""WriteDrain: a failed write is kept and sent once, oldest first, when writes succeed again."""

from __future__ import annotations

import asyncio

import pytest
from agent_framework import Agent
from cortadel import ChatMessage, ConversationOptions, CortadelError

from lesson_utils.cortadel import CortadelContextProvider
from lesson_utils.cortadel.write_drain import WriteDrain, can_pass

DOWN = CortadelError(0, "transport_error", "connection refused")


def said(text: str) -> list[ChatMessage]:
    return [ChatMessage(role="user", content=text)]


def sent(memory) -> list[str]:
    return [messages[0].content for messages, _ in memory.conversations]


async def test_a_failed_write_is_kept_and_sent_before_the_next_one(memory):
    drain = WriteDrain(memory)
    memory.fail = DOWN
    for text in ("one", "two"):
        with pytest.raises(CortadelError):  # still raised, so on_error sees the outage
            await drain.add_conversation(said(text), ConversationOptions(session_id=f"s-{text}"))
    assert drain.kept == 2
    memory.fail, memory.conversations[:] = None, []
    await drain.add_conversation(said("three"))
    assert sent(memory) == ["one", "two", "three"] and drain.kept == 0
    assert [options.session_id if options else None for _, options in memory.conversations] == ["s-one", "s-two", None]
    await drain.add_conversation(said("four"))
    assert sent(memory)[3:] == ["four"]  # nothing sent twice


async def test_a_write_the_server_refused_for_its_content_is_not_kept(memory):
    drain = WriteDrain(memory)
    memory.fail = CortadelError(422, "validation_error", "too long")
    with pytest.raises(CortadelError):
        await drain.add_conversation(said("bad"))
    assert drain.kept == 0
    assert can_pass(DOWN) and can_pass(CortadelError(503, "unavailable", "")) and can_pass(TimeoutError())
    assert can_pass(CortadelError(429, "rate_limited", "")) and not can_pass(CortadelError(403, "forbidden", ""))


async def test_past_max_kept_the_oldest_is_dropped_and_reported(memory):
    dropped = []
    drain = WriteDrain(memory, max_kept=2, on_drop=dropped.append)
    memory.fail = DOWN
    for text in ("a", "b", "c"):
        with pytest.raises(CortadelError):
            await drain.add_conversation(said(text))
    assert drain.kept == 2 and [m[0].content for m in dropped] == ["a"]
    with pytest.raises(ValueError, match="max_kept"):
        WriteDrain(memory, max_kept=0)


async def test_drain_sends_the_kept_writes_without_a_new_turn(memory):
    drain = WriteDrain(memory)
    memory.fail = DOWN
    with pytest.raises(CortadelError):
        await drain.add_conversation(said("kept"))
    assert await drain.drain() == 1  # still down: still kept
    memory.fail, memory.conversations[:] = None, []
    assert await drain.drain() == 0 and sent(memory) == ["kept"]


async def test_two_concurrent_turns_never_send_a_kept_write_twice(memory):
    drain = WriteDrain(memory)
    memory.fail = DOWN
    with pytest.raises(CortadelError):
        await drain.add_conversation(said("kept"))
    memory.fail, memory.conversations[:] = None, []
    await asyncio.gather(drain.add_conversation(said("x")), drain.add_conversation(said("y")))
    assert sorted(sent(memory)) == ["kept", "x", "y"] and sent(memory)[0] == "kept"


async def test_through_the_provider_the_turn_is_answered_and_its_write_arrives_later(memory, chat):
    seen = []
    agent = Agent(client=chat, context_providers=[CortadelContextProvider(client=WriteDrain(memory), on_error=seen.append)])
    memory.fail = DOWN
    await agent.run("I live in Tallinn.", session=agent.create_session())
    memory.fail, memory.conversations[:] = None, []
    reply = await agent.run("Any tips?", session=agent.create_session())
    assert reply.text and len(seen) == 2  # the search and the write of the first turn
    assert [m.content for m in memory.conversations[0][0] if m.role == "user"] == ["I live in Tallinn."]

"""The suite's shared chat client behaves as its parameters say (every other folder relies on it)."""

from __future__ import annotations

import pytest
from agent_framework import Agent, tool

from .fakes import FakeChatClient


async def test_it_echoes_by_default_and_records_what_was_sent() -> None:
    client = FakeChatClient()
    agent = Agent(client=client, instructions="Be brief.")
    reply = await agent.run("hello there")
    assert reply.text == "echo: hello there"
    assert client.last.instructions == "Be brief." and client.last.user_text == "hello there"


async def test_a_fixed_reply_a_reply_rule_and_a_failure() -> None:
    assert (await Agent(client=FakeChatClient(reply="noted")).run("x")).text == "noted"
    rule = FakeChatClient(reply=lambda request: f"{len(request.messages)} sent")
    assert (await Agent(client=rule).run("x")).text == "1 sent"
    failing = FakeChatClient(fail=RuntimeError("model down"))
    with pytest.raises(RuntimeError, match="model down"):
        await Agent(client=failing).run("x")
    assert len(failing.requests) == 1, "the request is recorded before the failure"


async def test_streaming_word_by_word() -> None:
    agent = Agent(client=FakeChatClient(reply="one two three", stream_by_word=True))
    chunks = [update.text async for update in agent.run("x", stream=True)]
    assert chunks == ["one", " two", " three"]


async def test_a_scripted_tool_call_runs_the_tool_and_answers_with_its_result() -> None:
    @tool
    def lookup(query: str) -> str:
        """Look something up."""
        return f"found {query}"

    client = FakeChatClient(tool_call=("lookup", {"query": "tea"}))
    reply = await Agent(client=client, tools=[lookup]).run("what do I drink?")
    assert reply.text == "tool said: found tea"
    assert [r.tools for r in client.requests] == [["lookup"], ["lookup"]]

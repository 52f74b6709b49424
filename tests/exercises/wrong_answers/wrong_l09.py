"""Wrong answers to 09.server_down_message, written from the exercise text only (issue 21, item 1).

Each returns the sentence the lesson's tools give when the server is down, and looks right on this
machine. Each breaks one rule: the tools built on a CortadelMemoryClient for `dead_url`, an Agent run on
`client`, and the text of the `search_memory` result *the model received* read from the run.

The answers in ``NEW_FROM_TEXT`` at the end (appended to ``WRONG``) were added later by another writer, again
from the exercise text and the lesson only, without reading the checks or their tests: a boundary the task
states, the lesson's own phrasing only, an input ignored for the lesson's example value, a literal typed in
from the lesson, state shared through a mutable default, a class attribute or a module variable.
"""

from __future__ import annotations

import socket

from agent_framework import Agent

from lesson_utils import CortadelMemoryClient, create_memory_tools
from chat_models import get_chat_client

SEEN_ONCE = "Memory is temporarily unavailable; answer without it."  # what one run printed, typed in


async def typed_in_sentence(client, dead_url: str) -> str:
    """Types in the sentence seen once instead of reading it from the run."""
    return SEEN_ONCE


async def ignores_dead_url(client, dead_url: str) -> str:
    """Builds the tools for a dead port of its own, ignoring `dead_url`."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    async with CortadelMemoryClient(url, "alex") as memory:
        agent = Agent(client=client, instructions="You have a long-term memory.", tools=create_memory_tools(memory))
        response = await agent.run("When do I usually ship?")
    return next(str(c.result) for m in response.messages for c in m.contents if c.type == "function_result")


async def returns_the_answer(client, dead_url: str) -> str:
    """Returns the model's final answer (which quotes the sentence), not the tool result it received."""
    async with CortadelMemoryClient(dead_url, "alex") as memory:
        agent = Agent(client=client, instructions="You have a long-term memory.", tools=create_memory_tools(memory))
        response = await agent.run("When do I usually ship?")
    return response.text


async def calls_the_tool_directly(client, dead_url: str) -> str:
    """Invokes search_memory itself: what the tool returns, not what the model received in a run."""
    async with CortadelMemoryClient(dead_url, "alex") as memory:
        search = next(t for t in create_memory_tools(memory) if t.name == "search_memory")
        result = await search.invoke(arguments={"query": "When do I usually ship?"})
    return result[0].text


async def ignores_client(client, dead_url: str) -> str:
    """Runs the agent on get_chat_client() instead of the `client` it is given."""
    async with CortadelMemoryClient(dead_url, "alex") as memory:
        agent = Agent(
            client=get_chat_client(), instructions="You have a long-term memory.", tools=create_memory_tools(memory)
        )
        response = await agent.run("When do I usually ship?")
    return next(str(c.result) for m in response.messages for c in m.contents if c.type == "function_result")


async def quoted_from_the_answer(client, dead_url: str) -> str:
    """Cuts the sentence out of the model's answer (the offline model quotes it): what the model said, not received."""
    async with CortadelMemoryClient(dead_url, "alex") as memory:
        agent = Agent(client=client, instructions="You have a long-term memory.", tools=create_memory_tools(memory))
        response = await agent.run("When do I usually ship?")
    return response.text.split('"')[1] if '"' in response.text else response.text


WRONG = [
    ("09.server_down_message", typed_in_sentence, "types in the published sentence"),
    ("09.server_down_message", ignores_dead_url, "ignores dead_url (its own dead port)"),
    ("09.server_down_message", returns_the_answer, "returns the model's answer, not the tool result"),
    ("09.server_down_message", calls_the_tool_directly, "invokes the tool directly, no model run"),
    ("09.server_down_message", ignores_client, "ignores the chat client given"),
    ("09.server_down_message", quoted_from_the_answer, "sentence cut out of the model's answer"),
]


# --------------------------------------------------------------------------------------------------
# Added from the exercise text only (no checks read).


def _first_result(response) -> str:
    return next(str(c.result) for m in response.messages for c in m.contents if c.type == "function_result")


async def returns_the_package_constant(client, dead_url: str) -> str:
    """Does the run, then returns the tools module's SEARCH_UNAVAILABLE constant instead of what the model received."""
    from lesson_utils.cortadel.tools import SEARCH_UNAVAILABLE

    async with CortadelMemoryClient(dead_url, "alex") as memory:
        agent = Agent(client=client, instructions="You have a long-term memory.", tools=create_memory_tools(memory))
        await agent.run("When do I usually ship?")
    return SEARCH_UNAVAILABLE


async def lesson_remember_request(client, dead_url: str) -> str:
    """Asks the lesson's first prompt ("Remember that I ship on Fridays.") and returns the first tool result it got."""
    async with CortadelMemoryClient(dead_url, "alex") as memory:
        agent = Agent(client=client, instructions="You have a long-term memory.", tools=create_memory_tools(memory))
        response = await agent.run("Remember that I ship on Fridays.")
    return _first_result(response)


_TOLD: dict = {}


async def cached_after_first_run(client, dead_url: str) -> str:
    """Finds the sentence once and keeps it in a module-level dict; later calls return it without a run."""
    if "sentence" not in _TOLD:
        async with CortadelMemoryClient(dead_url, "alex") as memory:
            agent = Agent(client=client, instructions="You have a long-term memory.", tools=create_memory_tools(memory))
            response = await agent.run("When do I usually ship?")
        _TOLD["sentence"] = next(
            str(c.result) for m in response.messages for c in m.contents if c.type == "function_result"
        )
    return _TOLD["sentence"]


NEW_FROM_TEXT = [
    (
        "09.server_down_message",
        returns_the_package_constant,
        "runs the agent, returns the package's constant (literal)",
    ),
    (
        "09.server_down_message",
        lesson_remember_request,
        "asks the lesson's 'Remember that…' prompt: add_memories' result",
    ),
    ("09.server_down_message", cached_after_first_run, "sentence cached in a module-level dict after the first call"),
]
WRONG += NEW_FROM_TEXT

"""search_memory / add_memories: framework FunctionTools bound to one client."""

from __future__ import annotations

import pytest
from agent_framework import Agent, FunctionTool
from cortadel import CortadelError

from lesson_utils import (
    CortadelContextProvider,
    create_add_memories_tool,
    create_memory_tools,
    create_search_memory_tool,
)
from lesson_utils.cortadel.client import APP_NAME


async def call(tool: FunctionTool, **arguments) -> str:
    result = await tool.invoke(arguments=arguments)
    return result[0].text


def test_create_memory_tools_returns_both_framework_tools_with_model_facing_parameters(memory):
    search, add = create_memory_tools(memory)
    assert isinstance(search, FunctionTool) and isinstance(add, FunctionTool)
    assert (search.name, add.name) == ("search_memory", "add_memories")
    assert set(search.parameters()["properties"]) == {"query", "top_k"}
    assert search.parameters()["required"] == ["query"]
    assert set(add.parameters()["properties"]) == {"text"}
    assert all(p.get("description") for p in search.parameters()["properties"].values())


def test_names_are_configurable_and_must_be_distinct_and_non_blank(memory):
    search, add = create_memory_tools(memory, search_tool_name="recall", add_tool_name="remember")
    assert (search.name, add.name) == ("recall", "remember")
    assert create_search_memory_tool(memory, name="find").name == "find"
    assert create_add_memories_tool(memory, name="keep").name == "keep"
    with pytest.raises(ValueError, match="differ"):
        create_memory_tools(memory, search_tool_name="x", add_tool_name="x")
    with pytest.raises(ValueError, match="tool name"):
        create_search_memory_tool(memory, name=" ")


def test_bad_client_and_default_top_k_are_rejected(memory):
    with pytest.raises(TypeError, match="MemoryClient"):
        create_memory_tools(object())
    with pytest.raises(TypeError, match="MemoryClient"):
        create_add_memories_tool(object())
    for bad in (0, 51, "10"):
        with pytest.raises(ValueError, match="top_k"):
            create_search_memory_tool(memory, top_k=bad)


async def test_search_renders_hits_one_per_line(memory, make_hit):
    memory.hits = [make_hit("m1", "raw", gist="Alex ships on Fridays"), make_hit("m2", "Alex likes\ntea")]
    search = create_search_memory_tool(memory)
    assert await call(search, query="  when do I ship? ") == "- Alex ships on Fridays\n- Alex likes tea"
    assert memory.searches[0][0] == "when do I ship?"


async def test_search_with_no_hits_says_so(memory):
    assert await call(create_search_memory_tool(memory), query="anything") == "No matching memories found."


@pytest.mark.parametrize(("requested", "sent"), [(None, 10), (0, 10), (-3, 10), (1, 1), (7, 7), (50, 50), (51, 50), (500, 50)])
async def test_model_top_k_is_clamped_into_1_to_50_with_the_default_when_absent_or_below_1(memory, requested, sent):
    search = create_search_memory_tool(memory)
    arguments = {"query": "q"} if requested is None else {"query": "q", "top_k": requested}
    await search.invoke(arguments=arguments)
    assert memory.searches[0][1].top_k == sent


async def test_search_default_top_k_and_rerank_are_forwarded(memory):
    search, _ = create_memory_tools(memory, top_k=3, rerank="cross_encoder")
    await call(search, query="q")
    options = memory.searches[0][1]
    assert (options.top_k, options.rerank, options.mode) == (3, "cross_encoder", "hybrid")


async def test_blank_query_and_blank_text_make_no_call(memory):
    search, add = create_memory_tools(memory)
    assert "empty" in await call(search, query="   ")
    assert "empty" in await call(add, text=" \n ")
    assert memory.searches == [] and memory.adds == []


async def test_add_stores_the_trimmed_text_with_the_tool_options(memory):
    _, add = create_memory_tools(memory, infer=False, memory_type="semantic")
    answer = await call(add, text="  Alex ships on Fridays. ")
    assert answer == "Remembered: Alex ships on Fridays."
    text, options = memory.adds[0]
    assert text == "Alex ships on Fridays."
    assert (options.infer, options.memory_type, options.app) == (False, "semantic", APP_NAME)


async def test_add_defaults_leave_infer_and_type_to_the_server(memory):
    add = create_add_memories_tool(memory)
    await call(add, text="x")
    assert memory.adds[0][1].infer is None and memory.adds[0][1].memory_type is None


async def test_add_reports_the_duplicate_verdict(memory):
    memory.add_event = "SKIP_DUPLICATE"
    assert await call(create_add_memories_tool(memory), text="Alex ships on Fridays") == (
        "Already remembered; nothing new was stored."
    )


async def test_add_reports_an_update_and_a_pipeline_error(memory):
    add = create_add_memories_tool(memory)
    memory.add_event = "UPDATE"
    assert (await call(add, text="Alex ships on Mondays")).startswith("Updated an existing memory")
    memory.add_event = "ERROR"
    assert await call(add, text="x") == "Memory is temporarily unavailable; the fact was not saved."


async def test_tool_failures_answer_the_model_and_reach_on_error(memory):
    memory.fail = CortadelError(503, "unavailable", "down")
    seen: list[Exception] = []
    search, add = create_memory_tools(memory, on_error=seen.append)
    assert await call(search, query="q") == "Memory is temporarily unavailable; answer without it."
    assert await call(add, text="t") == "Memory is temporarily unavailable; the fact was not saved."
    assert seen == [memory.fail, memory.fail]


@pytest.mark.parametrize("factory", ["search", "add"])
async def test_raise_on_error_propagates_to_the_caller_of_the_tool(memory, factory):
    memory.fail = CortadelError(503, "unavailable", "down")
    if factory == "search":
        tool, args = create_search_memory_tool(memory, raise_on_error=True), {"query": "q"}
    else:
        tool, args = create_add_memories_tool(memory, raise_on_error=True), {"text": "t"}
    with pytest.raises(CortadelError, match="down"):
        await tool.invoke(arguments=args)


async def test_raise_on_error_reaches_the_function_invocation_machinery(memory, chat):
    """With raise_on_error the model does not get the graceful note: the framework's own
    tool-error handling takes over (it reports an error result to the model)."""
    memory.fail = CortadelError(503, "unavailable", "down")
    chat.tool_call = ("search_memory", {"query": "ship"})
    agent = Agent(client=chat, tools=create_memory_tools(memory, raise_on_error=True))
    response = await agent.run("when do I ship?")
    assert "temporarily unavailable" not in response.text
    assert "rror" in response.text  # the framework's error result, relayed by the stub


async def test_the_model_uses_both_tools_through_an_agent(memory, chat, make_hit):
    memory.hits = [make_hit("m1", "Alex ships on Fridays")]
    agent = Agent(client=chat, tools=create_memory_tools(memory))
    chat.tool_call = ("search_memory", {"query": "when do I ship?"})
    assert (await agent.run("When do I ship?")).text == "tool said: - Alex ships on Fridays"
    chat.tool_call = ("add_memories", {"text": "Alex likes tea"})
    assert (await agent.run("Remember that I like tea")).text == "tool said: Remembered: Alex likes tea"
    assert memory.adds[0][0] == "Alex likes tea"


async def test_include_memory_tools_hands_both_tools_to_each_run(memory, chat):
    agent = Agent(client=chat, context_providers=[CortadelContextProvider(client=memory, include_memory_tools=True)])
    session = agent.create_session()
    await agent.run("hi", session=session)
    await agent.run("again", session=session)
    assert [r.tools for r in chat.requests] == [["search_memory", "add_memories"]] * 2


async def test_provider_tools_keep_their_own_defaults(memory, chat):
    """Only error handling is forwarded: the provider's top_k=3 does not become the tool's."""
    provider = CortadelContextProvider(client=memory, include_memory_tools=True, top_k=3)
    search, _ = provider.tools
    await search.invoke(arguments={"query": "q"})
    assert memory.searches[0][1].top_k == 10


@pytest.mark.parametrize("raise_on_error", [False, True])
async def test_cancellation_propagates_from_both_tools_untouched(memory, raise_on_error):
    import asyncio

    memory.fail = asyncio.CancelledError()
    seen: list[BaseException] = []
    search, add = create_memory_tools(memory, on_error=seen.append, raise_on_error=raise_on_error)
    with pytest.raises(asyncio.CancelledError):
        await search.invoke(arguments={"query": "q"})
    with pytest.raises(asyncio.CancelledError):
        await add.invoke(arguments={"text": "t"})
    assert seen == []

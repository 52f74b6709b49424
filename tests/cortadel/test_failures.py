"""Fail open through one reporter: on_error observes, raise_on_error propagates, else a warning.
Cancellation always propagates untouched."""

from __future__ import annotations

import asyncio
import logging

import pytest
from agent_framework import Agent
from cortadel import CortadelError

from lesson_utils import CortadelContextProvider, create_memory_tools
from lesson_utils.cortadel.errors import FailureReporter


def boom() -> CortadelError:
    return CortadelError(0, "transport_error", "connection refused")


def agent_with(chat, provider) -> Agent:
    return Agent(client=chat, instructions="You are helpful.", context_providers=[provider])


async def test_server_down_the_agent_still_answers_and_on_error_sees_both_calls(memory, chat):
    memory.fail = boom()
    seen: list[Exception] = []
    agent = agent_with(chat, CortadelContextProvider(client=memory, on_error=seen.append))
    response = await agent.run("hello", session=agent.create_session())
    assert response.text == "echo: hello"
    assert seen == [memory.fail, memory.fail]  # the search, then the write
    assert all(not m.additional_properties.get("_attribution") for m in chat.last.messages)


async def test_unobserved_failure_is_a_warning_on_the_given_logger(memory, chat, caplog):
    memory.fail = boom()
    log = logging.getLogger("test.cortadel.custom")
    agent = agent_with(chat, CortadelContextProvider(client=memory, logger=log))
    with caplog.at_level(logging.WARNING, logger="test.cortadel.custom"):
        await agent.run("hello", session=agent.create_session())
    warnings = [r for r in caplog.records if r.name == "test.cortadel.custom"]
    assert [r.levelno for r in warnings] == [logging.WARNING, logging.WARNING]
    assert "search failed" in warnings[0].getMessage() and "connection refused" in warnings[0].getMessage()


async def test_default_logger_is_the_packages(memory, chat, caplog):
    memory.fail = boom()
    agent = agent_with(chat, CortadelContextProvider(client=memory))
    with caplog.at_level(logging.WARNING):
        await agent.run("hello", session=agent.create_session())
    assert any(r.name == "lesson_utils.cortadel" and r.levelno == logging.WARNING for r in caplog.records)


async def test_on_error_replaces_the_warning(memory, chat, caplog):
    memory.fail = boom()
    agent = agent_with(chat, CortadelContextProvider(client=memory, on_error=lambda e: None))
    with caplog.at_level(logging.WARNING):
        await agent.run("hello", session=agent.create_session())
    assert not [r for r in caplog.records if r.name == "lesson_utils.cortadel"]


async def test_a_raising_on_error_is_logged_and_ignored(memory, chat, caplog):
    memory.fail = boom()

    def bad_observer(error: Exception) -> None:
        raise RuntimeError("observer broke")

    agent = agent_with(chat, CortadelContextProvider(client=memory, on_error=bad_observer))
    with caplog.at_level(logging.ERROR):
        response = await agent.run("hello", session=agent.create_session())
    assert response.text == "echo: hello"
    assert any("on_error callback raised" in r.getMessage() for r in caplog.records)


async def test_raise_on_error_propagates_the_same_exception_from_recall(memory, chat):
    memory.fail = boom()
    seen: list[Exception] = []
    agent = agent_with(chat, CortadelContextProvider(client=memory, raise_on_error=True, on_error=seen.append))
    with pytest.raises(CortadelError) as caught:
        await agent.run("hello", session=agent.create_session())
    assert caught.value is memory.fail
    assert seen == [memory.fail]  # observed, then propagated
    assert chat.requests == []  # the model was never called


async def test_raise_on_error_propagates_an_awaited_write_failure(memory, chat):
    class WriteFails(type(memory)):
        async def add_conversation(self, messages, options=None):
            raise boom()

    agent = agent_with(chat, CortadelContextProvider(client=WriteFails(), raise_on_error=True))
    with pytest.raises(CortadelError, match="connection refused"):
        await agent.run("hello", session=agent.create_session())


async def test_background_write_failure_is_reported_never_raised(memory, chat, caplog):
    memory.fail = None

    class WriteFails(type(memory)):
        async def add_conversation(self, messages, options=None):
            await asyncio.sleep(0)
            raise boom()

    seen: list[Exception] = []
    provider = CortadelContextProvider(client=WriteFails(), await_persist=False, raise_on_error=True, on_error=seen.append)
    agent = agent_with(chat, provider)
    response = await agent.run("hello", session=agent.create_session())
    assert response.text == "echo: hello"
    await provider.aclose()  # drains; must not raise although raise_on_error=True
    assert [str(e) for e in seen] == ["connection refused"]

    # Without an observer it becomes a warning.
    quiet = CortadelContextProvider(client=WriteFails(), await_persist=False, raise_on_error=True)
    agent = agent_with(chat, quiet)
    with caplog.at_level(logging.WARNING):
        await agent.run("hello", session=agent.create_session())
        await quiet.aclose()
    assert any("add_conversation failed" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("raise_on_error", [False, True])
async def test_cancellation_propagates_from_recall_untouched(memory, chat, raise_on_error):
    memory.fail = asyncio.CancelledError()
    seen: list[BaseException] = []
    agent = agent_with(chat, CortadelContextProvider(client=memory, on_error=seen.append, raise_on_error=raise_on_error))
    with pytest.raises(asyncio.CancelledError):
        await agent.run("hello", session=agent.create_session())
    assert seen == []


async def test_cancellation_propagates_from_an_awaited_write(memory, chat):
    class WriteCancelled(type(memory)):
        async def add_conversation(self, messages, options=None):
            raise asyncio.CancelledError()

    seen: list[BaseException] = []
    agent = agent_with(chat, CortadelContextProvider(client=WriteCancelled(), on_error=seen.append))
    with pytest.raises(asyncio.CancelledError):
        await agent.run("hello", session=agent.create_session())
    assert seen == []


async def test_cancelling_a_turn_during_recall_cancels_the_search(memory, chat):
    started = asyncio.Event()

    class SlowSearch(type(memory)):
        async def search(self, query, options=None):
            started.set()
            await asyncio.sleep(30)

    seen: list[BaseException] = []
    agent = agent_with(chat, CortadelContextProvider(client=SlowSearch(), on_error=seen.append))
    run = asyncio.create_task(agent.run("hello", session=agent.create_session()))
    await started.wait()
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert seen == []


async def test_provider_and_tools_share_one_reporter(memory):
    memory.fail = boom()
    seen: list[Exception] = []
    provider = CortadelContextProvider(client=memory, include_memory_tools=True, on_error=seen.append)
    search, add = provider.tools
    await search.invoke(arguments={"query": "ship"})
    await add.invoke(arguments={"text": "Alex ships on Fridays"})
    assert seen == [memory.fail, memory.fail]  # the provider's on_error saw the tools' failures


def test_reporter_without_raise_or_observer_warns_and_returns(caplog):
    reporter = FailureReporter()
    with caplog.at_level(logging.WARNING):
        reporter.report(ValueError("x"), "search")
    assert "search failed" in caplog.records[-1].getMessage()


def test_reporter_background_failures_never_raise():
    reporter = FailureReporter(raise_on_error=True)
    reporter.report(ValueError("x"), "add_conversation", can_raise=False)
    with pytest.raises(ValueError):
        reporter.report(ValueError("y"), "search")


async def test_tools_built_alone_fail_open_too(memory):
    memory.fail = boom()
    search, add = create_memory_tools(memory)
    assert (await search.invoke(arguments={"query": "q"}))[0].text == "Memory is temporarily unavailable; answer without it."
    assert (await add.invoke(arguments={"text": "t"}))[0].text == "Memory is temporarily unavailable; the fact was not saved."

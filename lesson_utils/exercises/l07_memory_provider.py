"""Lesson 07's exercise: the minimal long-term provider with its failure modes fixed, in one class.

The learner's class is built as ``Cls(client, max_remembered=N)`` on a Cortadel client and run
through the framework on the offline model: against a throwaway local memory server seeded with
three facts (stored verbatim, so what is recalled does not depend on distillation), against a
loopback port where nothing listens, and against a client whose search is cancelled. Each
failure mode of the lesson has its own hint.
"""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

from agent_framework import Agent, ContextProvider
from cortadel import AddOptions, ConversationResult, CortadelClient, SearchResults

from ._registry import Hint, call_learner, exercise

_FACTS = ("Sam ships on Fridays.", "Sam lives in Lisbon.", "Sam's favourite colour is teal.")
_USER = "exercise-sam"


class _Recording:
    """Passes calls through to a Cortadel client and keeps what ``add_conversation`` was sent."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.stored: list[list[Any]] = []

    async def search(self, query: str, options: Any = None) -> Any:
        return await self._inner.search(query, options)

    async def add_conversation(self, messages: Any, options: Any = None) -> Any:
        self.stored.append(list(messages))
        return await self._inner.add_conversation(messages, options)

    async def add(self, text: str, options: Any = None) -> Any:
        return await self._inner.add(text, options)


class _Cancelled:
    """A client whose ``search`` or ``add_conversation`` is cancelled, as when the caller cancels the turn."""

    def __init__(self, hook: str) -> None:
        self.hook = hook

    async def search(self, query: str, options: Any = None) -> Any:
        if self.hook == "before_run":
            raise asyncio.CancelledError()
        return SearchResults(query=query)

    async def add_conversation(self, messages: Any, options: Any = None) -> Any:
        if self.hook == "after_run":
            raise asyncio.CancelledError()
        return ConversationResult()

    async def add(self, text: str, options: Any = None) -> Any:
        raise asyncio.CancelledError()


def _injected(recorder: Any, source_id: str) -> list[str]:
    request = recorder.last_request
    return [
        m.text
        for m in request.messages
        if (m.additional_properties or {}).get("_attribution", {}).get("source_id") == source_id
    ]


def _down_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


async def _build(cls: type, client: Any, cap: int) -> ContextProvider:
    provider = await call_learner(cls, client, max_remembered=cap, what=f"{cls.__name__}(client, max_remembered={cap})")
    if not isinstance(provider, ContextProvider):
        raise Hint(f"{cls.__name__} must subclass agent_framework.ContextProvider")
    return provider


def _agent(provider: ContextProvider, recorder: Any = None) -> Agent:
    from lesson_utils.models import OfflineChatClient

    return Agent(
        client=OfflineChatClient(),
        instructions="You are a helpful assistant.",
        context_providers=[provider],
        middleware=[recorder] if recorder is not None else [],
    )


async def _run(agent: Agent, text: str, session: Any, what: str) -> Any:
    return await call_learner(agent.run, text, session=session, what=what)


@exercise("07.fix_failure_mode", title="one long-term provider with every fix")
async def check_fix_failure_mode(answer: Any) -> None:
    if not (isinstance(answer, type) and issubclass(answer, ContextProvider)):
        raise Hint("pass your provider class itself (e.g. `SafeMemory`), a subclass of ContextProvider")
    from lesson_utils.memory_server import start_memory_server
    from lesson_utils.models import RequestRecorder

    server = start_memory_server()
    try:
        async with CortadelClient(server.url, _USER) as sdk:
            ids = [(await sdk.add(fact, AddOptions(infer=False))).id for fact in _FACTS]
            await _recall_store_and_dedup(answer, _Recording(sdk), RequestRecorder(), ids)
    finally:
        server.stop()
    await _fails_open(answer)
    await _lets_cancellation_through(answer)


async def _recall_store_and_dedup(cls: type, client: _Recording, recorder: Any, ids: list[str]) -> None:
    provider = await _build(cls, client, cap=2)
    agent = _agent(provider, recorder)
    session = agent.create_session()
    what = f"{cls.__name__}'s before_run / after_run"

    await _run(agent, "When do I usually ship?", session, what)
    first = _injected(recorder, provider.source_id)
    if not any("Friday" in text for text in first):
        raise Hint(
            "before_run injected no memory about shipping on Fridays: search with the turn's user text and "
            "add the hits with context.extend_messages(self, [...])"
        )
    if not client.stored:
        raise Hint("after_run stored nothing: hand the turn to client.add_conversation(...)")
    stored = client.stored[-1]
    contents = [m.content for m in stored]
    if "When do I usually ship?" not in contents:
        raise Hint(
            "the user's own message was not stored — your guard drops too much: skip only messages whose "
            "additional_properties['_attribution'] has a source_id"
        )
    if any(text in c for text in first for c in contents):  # the injected message, sent back verbatim
        raise Hint(
            "the injected memories were stored back as if the user had said them (the feedback loop): skip "
            "messages whose additional_properties['_attribution'] has a source_id"
        )

    await _run(agent, "Which day do I ship?", session, what)
    if any("Friday" in text for text in _injected(recorder, provider.source_id)):
        raise Hint(
            "the memory about Fridays was injected again on the second turn of the same session: keep the "
            "injected ids in `state` and skip hits you have already injected"
        )
    replayed = [m.content for m in client.stored[-1]]
    if "When do I usually ship?" in replayed:
        raise Hint(
            "turn 2 stored turn 1's question again (the history the framework replays): skip messages whose "
            "additional_properties['_attribution'] has a source_id"
        )

    await _run(agent, "Where do I live, and what is my favourite colour?", session, what)
    try:
        slot = json.dumps(session.state.get(provider.source_id, {}))
    except TypeError:
        raise Hint("session.state must stay JSON (a list of ids, not a set), or the session cannot be saved") from None
    kept = sum(memory_id in slot for memory_id in ids)
    if kept == 0:
        raise Hint("no injected memory id is kept in `state` (this provider's slot of session.state)")
    if kept > 2:
        raise Hint(f"with max_remembered=2 your state keeps {kept} ids: keep only the newest max_remembered")


async def _fails_open(cls: type) -> None:
    async with CortadelClient(_down_url(), _USER) as down:
        provider = await _build(cls, down, cap=3)
        agent = _agent(provider)
        try:
            reply = await agent.run("When do I usually ship?", session=agent.create_session())
        except NotImplementedError:
            raise Hint(f"fill in {cls.__name__}'s before_run / after_run first: they still raise NotImplementedError") from None
        except Exception as error:  # reported to the learner as the hint
            raise Hint(
                f"with the memory server down the turn raised {type(error).__name__}: fail open — catch "
                "Exception in before_run and in after_run, and carry on without memory"
            ) from None
    if not reply.text:
        raise Hint("with the memory server down the agent gave no answer")


async def _lets_cancellation_through(cls: type) -> None:
    for hook in ("before_run", "after_run"):
        provider = await _build(cls, _Cancelled(hook), cap=3)
        agent = _agent(provider)
        try:
            await agent.run("When do I usually ship?", session=agent.create_session())
        except asyncio.CancelledError:
            continue
        except Exception as error:
            raise Hint(
                f"a cancelled Cortadel call in {hook} became {type(error).__name__}; let asyncio.CancelledError propagate"
            ) from None
        raise Hint(
            f"your fail-open in {hook} swallowed asyncio.CancelledError: catch Exception, not BaseException — "
            "cancellation is the caller's intent"
        )

"""Lesson 07's exercise: the minimal long-term provider with its failure modes fixed, in one class.

The learner's class is built as ``Cls(client, max_remembered=N)`` on a Cortadel client and run
through the framework on the offline model: against a throwaway local memory server seeded with
three facts (stored verbatim, so what is recalled does not depend on distillation), against a
loopback port where nothing listens, and against a client whose search is cancelled. Each
failure mode of the lesson has its own hint.

The user and the facts are drawn per run (:mod:`._cases`). Recall is checked on a later turn too;
the de-duplication in a new session and on a second provider instance (ids kept on the provider,
its class or the module leak there); the cap keeps the newest ids; and a failed turn (a fallback
middleware answering with error content, as in the lesson) must not be stored.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from agent_framework import Agent, ChatResponse, Content, ContextProvider, Message, chat_middleware
from cortadel import AddOptions, ConversationResult, CortadelClient, SearchResults

from ...checks.addresses import nobody_listening
from ...checks.requests import injected_texts
from ...exercises._cases import drawn_cases
from ...exercises._registry import Hint, call_learner, exercise

NAMES = ("Priyanka", "Tobias", "Wanjiru", "Matteo", "Saoirse", "Kenji", "Fatima", "Lars")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Saturday", "Sunday")
CITIES = ("Cape Town", "Montevideo", "Trondheim", "Kuala Lumpur", "Hanoi", "Porto Alegre", "Edinburgh")
COLOURS = ("burnt orange", "sea green", "lilac", "mustard yellow", "navy blue", "crimson")
APOLOGY = "Sorry, I can't answer right now."  # the lesson's fallback text: the check's fallback says something else
APOLOGIES = ("The assistant is having a short break; please ask again in a minute.",
             "We could not reach the model just now. Your message is safe.",
             "Service temporarily unavailable - try again shortly.",
             "Hmm, something went wrong on our side. Give me a moment.")


def _facts(rng: Any) -> tuple[str, str, str, tuple[str, str, str]]:
    """A user and three facts about them, drawn per run: (user id, day, city, facts)."""
    name, day, city, colour = rng.choice(NAMES), rng.choice(DAYS), rng.choice(CITIES), rng.choice(COLOURS)
    user = f"exercise-{name.lower()}-{rng.randrange(10_000)}"
    return user, day, city, (f"{name} ships on {day}s.", f"{name} lives in {city}.",
                             f"{name}'s favourite colour is {colour}.")


@chat_middleware
async def _model_down(context: Any, call_next: Any) -> None:
    raise RuntimeError("the model is unavailable")


def _answer_anyway(apology: str) -> Any:
    """Lesson 07's fallback: a model error becomes an apology carrying the framework's error content. The
    apology is drawn per run and never the lesson's text: a failed turn is told by its error content."""

    @chat_middleware
    async def answer_anyway(context: Any, call_next: Any) -> None:
        try:
            await call_next()
        except Exception as error:
            context.result = ChatResponse(messages=[Message("assistant", [apology, Content.from_error(message=str(error))])])

    return answer_anyway


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


async def _build(cls: type, client: Any, cap: int) -> ContextProvider:
    provider = await call_learner(cls, client, max_remembered=cap, what=f"{cls.__name__}(client, max_remembered={cap})")
    if not isinstance(provider, ContextProvider):
        raise Hint(f"{cls.__name__} must subclass agent_framework.ContextProvider")
    return provider


def _agent(provider: ContextProvider, recorder: Any = None, middleware: tuple[Any, ...] = ()) -> Agent:
    from chat_models import OfflineChatClient

    return Agent(
        client=OfflineChatClient(),
        instructions="You are a helpful assistant.",
        context_providers=[provider],
        middleware=[*middleware, *([recorder] if recorder is not None else [])],
    )


async def _run(agent: Agent, text: str, session: Any, what: str) -> Any:
    return await call_learner(agent.run, text, session=session, what=what)


@exercise("07.fix_failure_mode", title="one long-term provider with every fix")
async def check_fix_failure_mode(answer: Any) -> None:
    if not (isinstance(answer, type) and issubclass(answer, ContextProvider)):
        raise Hint("pass your provider class itself (e.g. `SafeMemory`), a subclass of ContextProvider")
    with drawn_cases() as rng:
        await _all_cases(answer, rng)


async def _all_cases(answer: type, rng: Any) -> None:
    from local_memory_server import start_memory_server
    from chat_models import RequestRecorder

    user, day, city, facts = _facts(rng)
    # The offline reader: a check judges your code the same whatever model .env configures.
    server = start_memory_server(understanding="offline")
    try:
        async with CortadelClient(server.url, user) as sdk:
            ids = [(await sdk.add(fact, AddOptions(infer=False))).id for fact in facts]
            await _recall_store_and_dedup(answer, _Recording(sdk), RequestRecorder(), ids, day, city)
            await _fails_open(answer, user)
            await _lets_cancellation_through(answer)
            await _failed_turn_not_stored(answer, _Recording(sdk), rng.choice(APOLOGIES))
            await _cap_after_many_hits(answer, _Recording(sdk), RequestRecorder(), ids, day, city)
    finally:
        server.stop()


async def _recall_store_and_dedup(cls: type, client: _Recording, recorder: Any, ids: list[str], day: str,
                                  city: str) -> None:
    provider = await _build(cls, client, cap=2)
    agent = _agent(provider, recorder)
    session = agent.create_session()
    what = f"{cls.__name__}'s before_run / after_run"

    await _run(agent, "When do I usually ship?", session, what)
    first = injected_texts(recorder.last_request, provider.source_id)
    if not any(day in text for text in first):
        raise Hint(
            f"before_run injected no memory about shipping on {day}s: search with the turn's user text and "
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
    if any(day in text for text in injected_texts(recorder.last_request, provider.source_id)):
        raise Hint(
            f"the memory about {day}s was injected again on the second turn of the same session: keep the "
            "injected ids in `state` and skip hits you have already injected"
        )
    replayed = [m.content for m in client.stored[-1]]
    if "When do I usually ship?" in replayed:
        raise Hint(
            "turn 2 stored turn 1's question again (the history the framework replays): skip messages whose "
            "additional_properties['_attribution'] has a source_id"
        )

    await _run(agent, "Where do I live, and what is my favourite colour?", session, what)
    third = injected_texts(recorder.last_request, provider.source_id)
    if not any(city in text for text in third):
        raise Hint(
            f"on turn 3 nothing about living in {city} was injected, though it was never injected before: "
            "search on every turn, not only a session's first"
        )
    try:
        slot = json.dumps(session.state.get(provider.source_id, {}))
    except TypeError:
        raise Hint("session.state must stay JSON (a list of ids, not a set), or the session cannot be saved") from None
    kept = sum(memory_id in slot for memory_id in ids)
    if kept == 0:
        raise Hint("no injected memory id is kept in `state` (this provider's slot of session.state)")
    if kept > 2:
        raise Hint(f"with max_remembered=2 your state keeps {kept} ids: keep only the newest max_remembered")
    if ids[1] not in slot:  # the city's memory, injected last
        raise Hint("with max_remembered=2 your state dropped the id injected last and kept older ones: keep the "
                   "newest max_remembered ids (e.g. ids[-max_remembered:]), not the first ones")

    # A new conversation, on the same provider and on a second instance: nothing shown before counts there.
    other = _agent(await _build(cls, client, cap=2), recorder)
    for runner, label in ((agent, "a new session on the same provider"), (other, "a second provider instance")):
        await _run(runner, "Where do I live?", runner.create_session(), what)
        if not any(city in text for text in injected_texts(recorder.last_request, provider.source_id)):
            raise Hint(
                f"{label} was never told that the user lives in {city}, because another session had been: keep the "
                "injected ids in session.state (the `state` you are given), not on the provider, its class or "
                "the module"
            )


async def _failed_turn_not_stored(cls: type, client: _Recording, apology: str) -> None:
    provider = await _build(cls, client, cap=3)
    agent = _agent(provider, middleware=(_answer_anyway(apology), _model_down))
    before = len(client.stored)
    reply = await _run(agent, "I moved house last week.", agent.create_session(), f"{cls.__name__}'s hooks")
    if apology not in (getattr(reply, "text", "") or ""):
        raise RuntimeError("the fallback middleware did not answer")
    if len(client.stored) > before:
        raise Hint(
            f"a failed turn was stored (the model failed and a fallback answered {apology!r} with error content): in "
            "after_run, store nothing when context.response is None or carries error content (c.type == \"error\") "
            "— not by the wording of the lesson's apology"
        )


async def _cap_after_many_hits(cls: type, client: _Recording, recorder: Any, ids: list[str], day: str,
                               city: str) -> None:
    """One turn that injects every fact at once, with max_remembered=1: the cap holds after the turn, not one
    pop per turn later."""
    provider = await _build(cls, client, cap=1)
    agent = _agent(provider, recorder)
    session = agent.create_session()
    await _run(agent, "Tell me everything: when do I ship, where do I live, and what is my favourite colour?",
               session, f"{cls.__name__}'s before_run")
    injected = "\n".join(injected_texts(recorder.last_request, provider.source_id))
    if day not in injected or city not in injected:
        return  # not several hits at once: the recall hints above cover an answer that injects too little
    try:
        slot = json.dumps(session.state.get(provider.source_id, {}))
    except TypeError:
        raise Hint("session.state must stay JSON (a list of ids, not a set), or the session cannot be saved") from None
    kept = sum(memory_id in slot for memory_id in ids)
    if kept > 1:
        raise Hint(f"with max_remembered=1, one turn injected several memories and your state kept {kept} ids: after "
                   "adding a turn's ids, cut the list to the newest max_remembered (ids[-max_remembered:]), not one "
                   "pop per turn")


async def _fails_open(cls: type, user: str) -> None:
    async with CortadelClient(nobody_listening(), user) as down:
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

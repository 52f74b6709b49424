"""Lesson 14 exercise: make a naive turn safe on the versioned embedded store.

The learner writes ``safe_turn(store, agent, conversation_id, message) -> str`` with the store's
versions (``load_versioned`` → ``agent.run`` → ``save(..., expected_version=…)``, reloading and
redoing the turn on :class:`StaleSessionError`) — or with ``store.lock``; any correct answer passes.
The check runs several of the learner's turns *at once*, in separate threads like separate workers,
against a real :class:`SqliteSessionStore`, on the offline model slowed down so the turns overlap.
Then it looks at what survived: every turn answered, counted once, and in the history once.
"""

from __future__ import annotations

import asyncio
import inspect
import tempfile
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from agent_framework import Agent, AgentSession, ChatContext, ChatMiddleware

from ..models import OfflineChatClient
from ..persistence import SqliteSessionStore, StaleSessionError
from ..scaling.turn_counter import TurnCounter
from ._registry import Hint, call_learner, exercise

TURNS = 4
TIMEOUT = 60.0
STALE = (
    "a turn failed with StaleSessionError: when save refuses a stale write, load the session "
    "again and redo the turn (in a loop), instead of giving up"
)


class _Slow(ChatMiddleware):
    """Every model call takes a moment, so the learner's concurrent turns really overlap."""

    async def process(self, context: ChatContext, call_next: Callable[[], Awaitable[None]]) -> Any:
        await asyncio.sleep(0.15)
        await call_next()


def _agent(name: str) -> Agent:
    return Agent(client=OfflineChatClient(), context_providers=[TurnCounter(name)], middleware=[_Slow()])


def _turns_at_once(safe_turn: Callable[..., Any], store: SqliteSessionStore, conversation_id: str) -> list[Any]:
    """Run TURNS calls of the learner's function at once, each in its own thread and event loop."""
    results: list[Any] = [None] * TURNS
    barrier = threading.Barrier(TURNS)

    def worker(index: int) -> None:
        async def guarded(*args: Any) -> Any:
            try:
                result = safe_turn(*args)
                return await result if inspect.isawaitable(result) else result
            except StaleSessionError:
                raise Hint(STALE) from None

        async def one() -> Any:
            message = f"Note number {index}."
            return await call_learner(guarded, store, _agent(f"w{index}"), conversation_id, message, what="`safe_turn`")

        barrier.wait()
        try:
            results[index] = asyncio.run(asyncio.wait_for(one(), TIMEOUT))
        except BaseException as exc:  # handed to the checker below
            results[index] = exc

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(TURNS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT + 10)
    return results


@exercise("14.safe_turn", title="make a naive turn safe with the versioned store")
def check_safe_turn(safe_turn: Callable[..., Any]) -> None:
    if not callable(safe_turn):
        raise Hint(f"pass your function `safe_turn` itself, not {type(safe_turn).__name__}")
    with tempfile.TemporaryDirectory(prefix="ex14-") as folder:
        store = SqliteSessionStore(Path(folder) / "sessions.db")
        conversation_id = "exercise-14"
        store.save(conversation_id, AgentSession(), expected_version=0)
        results = _turns_at_once(safe_turn, store, conversation_id)
        for result in results:
            if isinstance(result, Hint):
                raise result
            if isinstance(result, (asyncio.TimeoutError, TimeoutError)):
                raise Hint(
                    f"a turn did not finish within {TIMEOUT:g} s: if you retry, load the session again "
                    "inside the loop, or the retry saves the same stale version for ever"
                )
            if isinstance(result, BaseException):
                raise Hint(f"a turn raised {type(result).__name__}: {result}")
            if not isinstance(result, str) or not result.strip():
                raise Hint(f"`safe_turn` should return the reply text (response.text), got {result!r}")
        loaded = store.load_versioned(conversation_id)
        counted = loaded.session.state.get("turns", {}).get("count", 0)
        history = loaded.session.state.get("in_memory", {}).get("messages", [])
        user_texts = [m.text for m in history if str(m.role) == "user"]
        seen = [user_texts.count(f"Note number {index}.") for index in range(TURNS)]
        if max(seen) > 1 or counted > TURNS:
            raise Hint(
                f"a turn's message is in the stored history {max(seen)} times, not once: redo a refused "
                "turn on a freshly loaded session (load_versioned again), never on the one you already ran"
            )
        if counted < TURNS or min(seen) == 0:
            raise Hint(
                f"{TURNS} turns ran at once but the stored session counts {counted}: a lost update. A save made "
                "from a copy loaded before another turn's save overwrites it; pass expected_version="
                "loaded.version to store.save (and redo the turn when it refuses)"
            )

"""Lesson 14 exercise: make a naive turn safe on the versioned embedded store.

The learner writes ``safe_turn(store, agent, conversation_id, message) -> str`` with the store's
versions (``load_versioned`` → ``agent.run`` → ``save(..., expected_version=…)``, reloading and
redoing the turn on :class:`StaleSessionError`) — or with ``store.lock``; any correct answer passes.
The check runs several of the learner's turns *at once*, each in its own worker process as in the
lesson (so a ``threading.Lock`` or an ``asyncio.Lock`` keeps nothing apart), against a real
:class:`SqliteSessionStore` file, on the offline model slowed down so the turns overlap. Then it
looks at what survived: every turn answered, counted once, and in the history once. The messages
and the conversation id are drawn per run (:mod:`._cases`).
"""

from __future__ import annotations

import asyncio
import inspect
import os
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from agent_framework import Agent, AgentSession, ChatContext, ChatMiddleware

from ..models import OfflineChatClient
from ..persistence import SqliteSessionStore
from ..scaling.turn_counter import TurnCounter
from ._cases import drawn_cases
from ._new_process import ChildResult, freeze, run_frozen
from ._registry import Hint, exercise

TURNS = 4
NOTES = ("buy stamps", "call the plumber", "water the ferns", "book the dentist", "renew the passport",
         "return the library books", "fix the bike light", "send the invoice", "order more coffee")
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


def _worker_turn(frozen_turn: bytes, db: str, conversation_id: str, message: str, ready: str, workers: int) -> Any:
    """In a worker process: wait for the others, then run one of the learner's turns on the shared store."""
    import cloudpickle

    safe_turn = cloudpickle.loads(frozen_turn)
    Path(ready, f"{os.getpid()}").touch()
    deadline = time.monotonic() + TIMEOUT
    while len(os.listdir(ready)) < workers and time.monotonic() < deadline:  # a barrier across processes
        time.sleep(0.02)
    store = SqliteSessionStore(Path(db))

    async def one() -> Any:
        result = safe_turn(store, _agent(f"w{os.getpid()}"), conversation_id, message)
        return await result if inspect.isawaitable(result) else result

    return asyncio.run(asyncio.wait_for(one(), TIMEOUT))


def _turns_in_processes(safe_turn: Callable[..., Any], db: Path, conversation_id: str,
                        messages: list[str]) -> list[ChildResult]:
    """Run one call of the learner's function per message at once, each in its own worker process."""
    try:
        frozen_turn = freeze(safe_turn)
    except Hint as hint:
        raise Hint(f"{hint}. The workers are separate processes, which share no memory: a threading.Lock or an "
                   "asyncio.Lock of this process cannot keep them apart — use the store's versions (or its "
                   "store.lock, which lives in the database)") from None
    frozen_worker = freeze(_worker_turn)
    results: list[ChildResult | None] = [None] * len(messages)
    with tempfile.TemporaryDirectory(prefix="ex14-ready-") as ready:

        def run(index: int) -> None:
            results[index] = run_frozen(frozen_worker, frozen_turn, str(db), conversation_id, messages[index], ready,
                                        len(messages))

        threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(messages))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return [r if r is not None else ChildResult(pid=-1, error="the worker did not report") for r in results]


@exercise("14.safe_turn", title="make a naive turn safe with the versioned store")
def check_safe_turn(safe_turn: Callable[..., Any]) -> None:
    if not callable(safe_turn):
        raise Hint(f"pass your function `safe_turn` itself, not {type(safe_turn).__name__}")
    with drawn_cases() as rng:
        _check_in_processes(safe_turn, rng)


def _check_in_processes(safe_turn: Callable[..., Any], rng: Any) -> None:
    topics = rng.sample(NOTES, TURNS)
    messages = [f"Note {rng.randrange(100, 999)}: {topic}." for topic in topics]
    with tempfile.TemporaryDirectory(prefix="ex14-") as folder:
        db = Path(folder) / "sessions.db"
        store = SqliteSessionStore(db)
        conversation_id = f"conversation-{rng.randrange(10_000)}"
        store.save(conversation_id, AgentSession(), expected_version=0)
        results = _turns_in_processes(safe_turn, db, conversation_id, messages)
        for result in results:
            error = result.error or ""
            if error.startswith("StaleSessionError"):
                raise Hint(STALE)
            if "NotImplementedError" in error:
                raise Hint("fill in `safe_turn` first: it still raises NotImplementedError")
            if error.startswith("TimeoutError") or "did not finish" in error:
                raise Hint(
                    f"a turn did not finish within {TIMEOUT:g} s: if you retry, load the session again "
                    "inside the loop, or the retry saves the same stale version for ever"
                )
            if error:
                raise Hint(f"a turn failed in its worker process: {error}")
            if result.value_type != "str" or not str(result.value).strip():
                raise Hint(f"`safe_turn` should return the reply text (response.text), got a {result.value_type}")
        loaded = store.load_versioned(conversation_id)
        counted = loaded.session.state.get("turns", {}).get("count", 0)
        history = loaded.session.state.get("in_memory", {}).get("messages", [])
        user_texts = [m.text for m in history if str(m.role) == "user"]
        seen = [user_texts.count(message) for message in messages]
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

"""Lesson 14 exercise: make a naive turn safe on the versioned embedded store.

The learner writes ``safe_turn(store, agent, conversation_id, message) -> str`` as the lesson argues:
``store.lock`` held for the whole turn, and the versioned save (``load_versioned`` → ``agent.run`` →
``save(..., expected_version=…)``, reloading and redoing the turn on :class:`StaleSessionError`) as the
guard for a lock that expired mid-turn. Two rounds: with the store's lock as it is, the turns must take
their turn (one model call per turn: versions alone, or a lock around the load and the save only, redo
turns); with a lock that expires mid-turn, nothing may be lost (a lock alone, with a plain save, loses
updates) and a refused save must be redone (the lesson's serve_turn gives up).
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

from chat_models import OfflineChatClient
from lesson_utils.persistence import SqliteSessionStore
from lesson_utils.scaling.turn_counter import TurnCounter
from ...exercises._cases import drawn_cases
from ...exercises._new_process import ChildResult, freeze, run_frozen
from ...exercises._registry import Hint, exercise

TURNS = 4
NOTES = ("buy stamps", "call the plumber", "water the ferns", "book the dentist", "renew the passport",
         "return the library books", "fix the bike light", "send the invoice", "order more coffee")
TIMEOUT = 60.0
STALE = (
    "a turn failed with StaleSessionError: when save refuses a stale write, load the session "
    "again and redo the turn (in a loop), instead of giving up"
)


MODEL_CALL_S = 0.15
SHORT_LEASE_S = 0.05  # the second round's lock expires mid-turn: a model call takes longer


class _Slow(ChatMiddleware):
    """Every model call takes a moment, so the learner's concurrent turns really overlap; each call leaves a
    file in ``calls``, so the check can count the model calls of all the workers."""

    def __init__(self, calls: str) -> None:
        self.calls = calls

    async def process(self, context: ChatContext, call_next: Callable[[], Awaitable[None]]) -> Any:
        await asyncio.to_thread(Path(self.calls, f"{os.getpid()}-{time.monotonic_ns()}").touch)
        await asyncio.sleep(MODEL_CALL_S)
        await call_next()


def _agent(name: str, calls: str) -> Agent:
    return Agent(client=OfflineChatClient(), context_providers=[TurnCounter(name)], middleware=[_Slow(calls)])


class _ShortLeaseStore(SqliteSessionStore):
    """A store whose lock expires after ``SHORT_LEASE_S``, whatever ttl is asked: a lock that expires mid-turn."""

    def lock(self, conversation_id: str, *, ttl: float = 30.0, wait: float = 60.0) -> Any:
        return super().lock(conversation_id, ttl=SHORT_LEASE_S, wait=wait)


def _worker_turn(frozen_turn: bytes, db: str, conversation_id: str, message: str, ready: str, workers: int,
                 calls: str, short_lease: bool) -> Any:
    """In a worker process: wait for the others, then run one of the learner's turns on the shared store."""
    import cloudpickle

    safe_turn = cloudpickle.loads(frozen_turn)
    Path(ready, f"{os.getpid()}").touch()
    deadline = time.monotonic() + TIMEOUT
    while len(os.listdir(ready)) < workers and time.monotonic() < deadline:  # a barrier across processes
        time.sleep(0.02)
    store = (_ShortLeaseStore if short_lease else SqliteSessionStore)(Path(db))

    async def one() -> Any:
        result = safe_turn(store, _agent(f"w{os.getpid()}", calls), conversation_id, message)
        return await result if inspect.isawaitable(result) else result

    return asyncio.run(asyncio.wait_for(one(), TIMEOUT))


def _turns_in_processes(safe_turn: Callable[..., Any], db: Path, conversation_id: str,
                        messages: list[str], calls: str, short_lease: bool) -> list[ChildResult]:
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
                                        len(messages), calls, short_lease)

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
    # Round 1: the store's lock as it is; round 2: a lock that expires mid-turn, where the versioned save is the
    # only guard and a refused save must be redone.
    for short_lease in (False, True):
        _one_round(safe_turn, rng, short_lease)


def _one_round(safe_turn: Callable[..., Any], rng: Any, short_lease: bool) -> None:
    topics = rng.sample(NOTES, TURNS)
    messages = [f"Note {rng.randrange(100, 999)}: {topic}." for topic in topics]
    with tempfile.TemporaryDirectory(prefix="ex14-") as folder:
        db = Path(folder) / "sessions.db"
        calls = Path(folder) / "model-calls"
        calls.mkdir()
        store = SqliteSessionStore(db)
        conversation_id = f"conversation-{rng.randrange(10_000)}"
        store.save(conversation_id, AgentSession(), expected_version=0)
        results = _turns_in_processes(safe_turn, db, conversation_id, messages, str(calls), short_lease)
        for result in results:
            error = result.error or ""
            if error.startswith("StaleSessionError") and short_lease:
                raise Hint("with a lock that expired mid-turn (held longer than its ttl), a save was refused with "
                           "StaleSessionError and the turn gave up: load the session again and redo the turn, in a "
                           "loop — the versioned save is the guard for exactly this")
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
            expired = " (here the lock expired mid-turn, so the lock alone kept nothing apart)" if short_lease else ""
            raise Hint(
                f"{TURNS} turns ran at once but the stored session counts {counted}: a lost update{expired}. A save "
                "made from a copy loaded before another turn's save overwrites it; pass expected_version="
                "loaded.version to store.save (and redo the turn when it refuses)"
            )
        made = len(os.listdir(calls))
        if not short_lease and made > TURNS:
            raise Hint(
                f"{TURNS} turns made {made} model calls: the turns ran at once and the refused ones were redone. "
                "Hold the lock for the whole turn — `with store.lock(conversation_id):` around load, agent.run and "
                "save — so turns take their turn and each runs the model once"
            )

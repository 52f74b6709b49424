"""Lesson 14's checks: what each worker was sent, what the store holds, and whether a lock holds.

The workers are separate processes, so the evidence is what they report (:class:`Turn`: the reply
and every message the model was sent) and what the shared store holds afterwards. A lock the
learner writes in a notebook cell is tested the way the lesson's workers would use it: in several
processes at once (:func:`updates_lost`), where a lock that lives in one process's memory keeps
nothing apart.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from agent_framework import AgentSession

from lesson_utils.errors import LessonError
from lesson_utils.persistence import SqliteSessionStore

__all__ = ["all_answered", "carried_every_earlier_turn", "messages_in_session", "stored_versions",
           "turns_in_history", "updates_lost"]

Lock = Callable[[str, str], AbstractContextManager[Any]]


def all_answered(turns: Iterable[Any]) -> bool:
    """True when every turn came back with a reply and no error."""
    return all(turn.error is None and bool(turn.reply) for turn in turns)


def carried_every_earlier_turn(turns: Sequence[Any]) -> bool:
    """True when each turn's request carried every earlier turn's message and reply, whichever worker served it."""
    return all(
        earlier.sent[-1][1] in turn.sent_text and str(earlier.reply) in turn.sent_text
        for index, turn in enumerate(turns)
        for earlier in turns[:index]
    )


def messages_in_session(session_json: str) -> int:
    """How many messages a stored session carries in its state (a history provider's transcript)."""
    state = json.loads(session_json).get("state") or {}
    return sum(len(slot["messages"]) for slot in state.values()
               if isinstance(slot, dict) and isinstance(slot.get("messages"), list))


def stored_versions(paths: Iterable[str | os.PathLike[str]], conversation_id: str) -> list[int]:
    """The version of ``conversation_id`` in each SQLite file (0 where it is not stored)."""
    return [SqliteSessionStore(path).load_versioned(conversation_id, create=True).version for path in paths]


def turns_in_history(history: Iterable[Any], messages: Iterable[str]) -> int:
    """How many of ``messages`` the stored history holds (each counted once)."""
    texts = {message.text for message in history}
    return sum(message in texts for message in messages)


def _add_one(lock: Lock | None, db: str, conversation_id: str, ready: str, processes: int, hold: float) -> int:
    """In a new process: wait for the others, then load → add one → save, holding the lock (if any)."""
    Path(ready, str(os.getpid())).touch()
    deadline = time.monotonic() + _TIMEOUT_S
    while len(os.listdir(ready)) < processes and time.monotonic() < deadline:  # a barrier across processes
        time.sleep(0.01)
    store = SqliteSessionStore(db)
    with lock(db, conversation_id) if lock else nullcontext():
        session = store.load(conversation_id)
        count = session.state["counter"]["count"]
        time.sleep(hold)  # a model's latency: the other processes run meanwhile
        session.state["counter"]["count"] = count + 1
        store.save(conversation_id, session)  # unconditional: only the lock keeps the saves apart
    return int(count) + 1


_TIMEOUT_S = 120


def updates_lost(lock: Lock | None, *, processes: int = 4, hold: float = 0.3) -> int:
    """How many of ``processes`` concurrent adds the stored count lost, each add done under ``lock``.

    Each process loads one conversation's session from a shared SQLite file, adds one to a count in
    its state, waits ``hold`` seconds and saves it back without a version check, holding
    ``lock(db_path, conversation_id)`` throughout. ``None`` runs them with no lock at all. The
    processes start together, so without a lock that works across processes the saves overwrite
    each other. The lock travels to each process by value (``cloudpickle``), as a function written
    in a notebook must. Raises :class:`LessonError` if it cannot travel or a process failed.
    """
    if processes < 2:
        raise ValueError(f"processes must be at least 2 to race, got {processes}")
    frozen = _freeze(lock) if lock is not None else None
    with tempfile.TemporaryDirectory(prefix="lesson14-lock-") as folder:
        db, ready = Path(folder) / "sessions.db", Path(folder) / "ready"
        ready.mkdir()
        session = AgentSession()
        session.state["counter"] = {"count": 0}
        store = SqliteSessionStore(db)
        store.save("conversation-1", session)
        errors = _race(frozen, Path(folder), [str(db), "conversation-1", str(ready), processes, hold], processes)
        if errors:
            raise LessonError(f"a process holding the lock failed: {errors[0]}; fix the lock and run the cell again")
        return processes - int(store.load("conversation-1").state["counter"]["count"])


def _freeze(lock: Lock) -> bytes:
    from ...exercises._new_process import freeze

    try:
        return freeze(lock)
    except Exception:  # it refers to an object of this process (a threading.Lock, an open connection)
        raise LessonError(f"`{getattr(lock, '__name__', 'the lock')}` uses an object of this process that cannot go to "
                          "another one: a lock that lives in one process's memory cannot keep other processes apart; "
                          "keep it where every process looks, such as a row of the database file") from None


def _race(frozen: bytes | None, folder: Path, args: list[Any], processes: int) -> list[str]:
    """Start ``processes`` children at once, each running :func:`_add_one`; return their errors."""
    from lesson_utils.resume import child_env

    job = folder / "job.pkl"
    job.write_bytes(pickle.dumps((frozen, args)))
    answers = [folder / f"answer-{index}.json" for index in range(processes)]
    children = [
        subprocess.Popen([sys.executable, "-m", __name__, str(job), str(answer)], env=child_env(),
                         cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for answer in answers
    ]
    errors = []
    for child, answer in zip(children, answers, strict=True):
        try:
            _, stderr = child.communicate(timeout=_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            errors.append(f"it did not finish within {_TIMEOUT_S} s (does the lock wait for ever?)")
            continue
        if not answer.exists():
            errors.append((stderr.strip().splitlines() or ["it exited without an answer"])[-1])
        elif error := json.loads(answer.read_text(encoding="utf-8")).get("error"):
            errors.append(error)
    return errors


def _child(job: Path, answer: Path) -> None:
    report: dict[str, Any] = {}
    try:
        import cloudpickle

        frozen, args = pickle.loads(job.read_bytes())
        report["value"] = _add_one(cloudpickle.loads(frozen) if frozen else None, *args)
    except Exception as exc:  # the lock failed in this process: one line, where it failed
        report["error"] = f"{type(exc).__name__}: {exc}"
    answer.write_text(json.dumps(report), encoding="utf-8")


if __name__ == "__main__":
    _child(Path(sys.argv[1]), Path(sys.argv[2]))

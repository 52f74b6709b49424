"""What loading and saving a session costs per turn: in memory, in SQLite, and in Redis.

    python bench/session_store_bench.py [--turns 10 100 1000] [--rounds 25]

A worker that keeps nothing between turns pays, on every turn, to load the conversation's session
and save it back. This measures exactly that part of a turn (no model call) at 10, 100 and 1,000
turns of history (a turn = one user message of ~60 characters and one reply of ~240), the way
lesson 14's workers do it:

* ``in-memory``  — the session JSON kept in a Python dict: ``session_from_json`` + ``session_to_json``.
                   The cost of (de)serialising the whole transcript, with no storage at all.
* ``SQLite``     — ``SqliteSessionStore.load_versioned`` + ``save(expected_version=…)`` on a file in a
                   temporary folder; the transcript is inside the session (the framework's
                   in-memory history), so the whole of it is read and rewritten every turn.
* ``Redis``      — ``RedisSessionStore.load_versioned`` + ``save(expected_version=…)`` (a small
                   session: ids and provider state) plus what ``RedisHistoryProvider`` does in a
                   turn: ``get_messages`` (``LRANGE`` of the whole list, in ``before_run``) and
                   ``save_messages`` of the turn's two new messages (it reads the list again to
                   skip duplicates, then ``RPUSH``). Against a private ``redis-server`` over
                   loopback (or ``REDIS_URL``). Each round uses a freshly filled session, so the
                   history length stays what the row says.

Rounds are interleaved across the three stores so machine noise hits them alike. Prints a
Markdown table of medians (milliseconds per turn) and the size of what each store keeps per session.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from agent_framework import AgentSession, Message

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lesson_utils.persistence import SqliteSessionStore, session_from_json, session_to_json
from lesson_utils.scaling import RedisSessionStore, history_providers, redis_for_lesson

USER = "Could you remind me what we decided about the trip to Porto in May?"
REPLY = (
    "We agreed to take the early train on the 14th, stay three nights near the river, and keep the "
    "Saturday free for the wine cellars; you wanted to book the hotel once the tickets were confirmed, "
    "and to ask Marta whether she could join for dinner on Friday."
)


def turn_messages(index: int) -> list[Message]:
    return [
        Message(role="user", contents=[f"{index}: {USER}"]),
        Message(role="assistant", contents=[f"{index}: {REPLY}"]),
    ]


def session_with_history(turns: int) -> AgentSession:
    session = AgentSession()
    session.state["in_memory"] = {"messages": [m for i in range(turns) for m in turn_messages(i)]}
    session.state["turns"] = {"count": turns, "served_by": ["a"] * turns}
    return session


def small_session(turns: int) -> AgentSession:
    session = AgentSession()
    session.state["history"] = {}
    session.state["turns"] = {"count": turns, "served_by": ["a"] * turns}
    return session


def time_in_memory(text: str) -> float:
    kept = {"c": text}
    started = time.perf_counter()
    session = session_from_json(kept["c"])
    session.state["in_memory"]["messages"].extend(turn_messages(-1))
    kept["c"] = session_to_json(session)
    return time.perf_counter() - started


def time_sqlite(store: SqliteSessionStore, cid: str) -> float:
    started = time.perf_counter()
    loaded = store.load_versioned(cid)
    loaded.session.state["in_memory"]["messages"].extend(turn_messages(-1))
    store.save(cid, loaded.session, expected_version=loaded.version)
    return time.perf_counter() - started


async def time_redis(store: RedisSessionStore, provider, cid: str) -> float:
    started = time.perf_counter()
    loaded = store.load_versioned(cid)
    await provider.get_messages(loaded.session.session_id)  # before_run
    await provider.save_messages(loaded.session.session_id, turn_messages(-1))  # after_run
    store.save(cid, loaded.session, expected_version=loaded.version)
    return time.perf_counter() - started


async def fill_redis(store: RedisSessionStore, provider, turns: int) -> str:
    cid = f"bench-{uuid.uuid4().hex[:10]}"
    session = small_session(turns)
    messages = [m for i in range(turns) for m in turn_messages(i)]
    await provider.save_messages(session.session_id, messages)
    store.save(cid, session)
    return cid


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.2f} ms"


async def run(turn_counts: list[int], rounds: int) -> None:
    with tempfile.TemporaryDirectory(prefix="session-bench-") as folder, redis_for_lesson() as server:
        sqlite = SqliteSessionStore(Path(folder) / "sessions.db")
        redis_store = RedisSessionStore(server.url, prefix="bench") if server.available else None
        provider = history_providers(server.url)[0] if server.available else None
        print(f"Redis: {server.note}\n")
        rows = []
        for turns in turn_counts:
            full = session_with_history(turns)
            text = session_to_json(full)
            timings: dict[str, list[float]] = {"memory": [], "sqlite": [], "redis": []}
            for _ in range(rounds):
                timings["memory"].append(time_in_memory(text))
                cid = f"bench-{uuid.uuid4().hex[:10]}"
                sqlite.save_json(cid, text)
                timings["sqlite"].append(time_sqlite(sqlite, cid))
                if redis_store is not None:
                    rcid = await fill_redis(redis_store, provider, turns)
                    timings["redis"].append(await time_redis(redis_store, provider, rcid))
            redis_bytes = len(session_to_json(small_session(turns)).encode("utf-8"))
            rows.append((turns, timings, len(text.encode("utf-8")), redis_bytes))
        if provider is not None:
            await provider.aclose()
        if redis_store is not None:
            redis_store.close()

    print(f"Per-turn load + save of one session, median of {rounds} rounds (no model call):\n")
    print("| history | in-memory (JSON) | SQLite | Redis (session + RedisHistoryProvider) | session bytes: SQLite / Redis |")
    print("|---|---|---|---|---|")
    for turns, timings, sqlite_bytes, redis_bytes in rows:
        redis_cell = ms(timings["redis"]) if timings["redis"] else "n/a (no Redis)"
        print(
            f"| {turns:,} turns | {ms(timings['memory'])} | {ms(timings['sqlite'])} | {redis_cell} "
            f"| {sqlite_bytes:,} / {redis_bytes:,} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--rounds", type=int, default=25)
    args = parser.parse_args()
    asyncio.run(run(args.turns, args.rounds))


if __name__ == "__main__":
    main()

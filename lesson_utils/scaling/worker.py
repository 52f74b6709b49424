"""Lesson 14: one stateless worker process. Any number of them can serve one conversation.

    python -m lesson_utils.scaling.worker --name a --store redis://127.0.0.1:6379/0

It reads one JSON job per line on stdin (``{"conversation_id": …, "message": …}``) and writes one
JSON reply per line on stdout: the answer, and exactly what the model was sent. Between turns it
keeps nothing: every turn loads the session from the store and saves it back.

``serve_turn`` is the safe turn: it holds the conversation's lock across load → run → save, and
saves with the version it loaded, so even a worker whose lock expired cannot overwrite a newer
turn. ``naive_turn`` (``--naive``) is the tempting version that loses updates.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from agent_framework import Agent, ChatContext, ChatMiddleware

from chat_models import RequestRecorder, get_chat_client
from ..persistence import VersionedSessionStore
from .stores import history_providers, open_store
from .turn_counter import TurnCounter

INSTRUCTIONS = "You are a friendly assistant. Keep answers short."


async def serve_turn(
    store: VersionedSessionStore, agent: Agent, conversation_id: str, message: str, *, lock_ttl: float = 30.0
) -> str:
    """The safe turn: one turn of a conversation at a time, and never a stale save."""
    with store.lock(conversation_id, ttl=lock_ttl):  # other workers wait here for this conversation
        loaded = store.load_versioned(conversation_id, create=True)
        response = await agent.run(message, session=loaded.session)
        # Refused (StaleSessionError) if our lock expired and another worker saved meanwhile.
        store.save(conversation_id, loaded.session, expected_version=loaded.version)
    return response.text


async def naive_turn(store: VersionedSessionStore, agent: Agent, conversation_id: str, message: str) -> str:
    """The tempting turn: load, run, save. Two at once, and one save overwrites the other."""
    loaded = store.load_versioned(conversation_id, create=True)
    response = await agent.run(message, session=loaded.session)
    store.save(conversation_id, loaded.session)  # unconditional: the last writer wins
    return response.text


class ModelLatency(ChatMiddleware):
    """Waits before each model call, as a real model's seconds of thinking would (``--think``)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    async def process(self, context: ChatContext, call_next: Callable[[], Awaitable[None]]) -> Any:
        await asyncio.sleep(self.seconds)
        await call_next()


def build_agent(store: str, worker: str, *, middleware: list[Any] | None = None) -> Agent:
    """The same agent in every worker: history from the store's history provider, plus a turn counter."""
    return Agent(
        client=get_chat_client(),
        instructions=INSTRUCTIONS,
        context_providers=[*history_providers(store), TurnCounter(worker)],
        middleware=middleware or [],
    )


async def _serve(args: argparse.Namespace) -> None:
    store = open_store(args.store)
    recorder = RequestRecorder()
    agent = build_agent(args.store, args.name, middleware=[ModelLatency(args.think), recorder])
    turn = naive_turn if args.naive else functools.partial(serve_turn, lock_ttl=args.lock_ttl)
    _reply({"ready": args.name, "pid": os.getpid()})
    while line := await asyncio.to_thread(sys.stdin.readline):
        recorder.clear()
        out: dict[str, Any] = {"worker": args.name, "pid": os.getpid()}
        try:
            job = json.loads(line)
            out["conversation_id"] = job["conversation_id"]
            out["reply"] = await turn(store, agent, job["conversation_id"], job["message"])
            sent = recorder.last_request.messages if recorder.last_request else []
            out["sent"] = [[str(m.role), m.text] for m in sent]
        except Exception as exc:  # one line back to the caller; the worker keeps serving
            out["error"] = f"{type(exc).__name__}: {exc}"
        _reply(out)


def _reply(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lesson_utils.scaling.worker", description=__doc__.splitlines()[0])
    parser.add_argument("--name", required=True, help="this worker's name, recorded in the turns it serves")
    parser.add_argument("--store", required=True, help="redis://HOST:PORT/DB or sqlite:PATH")
    parser.add_argument("--naive", action="store_true", help="load → run → save without lock or version check")
    parser.add_argument("--think", type=float, default=0.0, help="seconds of model latency to simulate")
    parser.add_argument("--lock-ttl", type=float, default=30.0, help="seconds before a held lock expires")
    args = parser.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")
    try:
        asyncio.run(_serve(args))
    except (ValueError, ConnectionError) as exc:  # a bad --store, or no server: one line, exit 2
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

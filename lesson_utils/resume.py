"""Lesson 4: continue a saved conversation in another process.

The agent is stateless, so a different process only needs to build an equivalent agent
and load the session bytes; the conversation carries on as if nothing happened. Run it
from a shell (or from a notebook through ``subprocess`` with ``sys.executable``)::

    python -m lesson_utils.resume SESSION.json "What is my name?"
    python -m lesson_utils.resume --sqlite sessions.db --conversation-id c-42 "Tell it again"

It prints the agent's reply on stdout and, unless ``--no-save``, writes the continued
session back to where it came from.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_framework import Agent, AgentSession

from .persistence import (
    SessionFormatError,
    SessionNotFoundError,
    SqliteSessionStore,
    load_session,
    save_session,
)
from .user_memory import UserMemoryProvider

__all__ = ["DEFAULT_INSTRUCTIONS", "child_env", "continue_conversation", "make_lesson_agent", "main"]

logger = logging.getLogger(__name__)

DEFAULT_INSTRUCTIONS = "You are a friendly assistant who is good at telling jokes."


def make_lesson_agent(
    *, instructions: str = DEFAULT_INSTRUCTIONS, client: Any | None = None, user_memory: bool = True
) -> Agent:
    """The agent lessons 3–5 talk to: the active chat client plus the user-memory provider.

    Both processes of lesson 4 build it the same way; only the session differs.
    """
    if client is None:
        from .models import get_chat_client

        client = get_chat_client()
    providers = [UserMemoryProvider()] if user_memory else []
    return Agent(client=client, instructions=instructions, context_providers=providers)


def child_env() -> dict[str, str]:
    """Environment for a child Python process that imports ``lesson_utils`` as this one does.

    A notebook kernel may find the package through its working directory rather than an
    install; putting the package's folder on ``PYTHONPATH`` makes ``python -m lesson_utils.resume``
    work from anywhere. UTF-8 output keeps emoji intact on every OS.
    """
    package_root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ)
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if package_root not in paths:
        env["PYTHONPATH"] = os.pathsep.join([package_root, *paths])
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def _history_length(session: AgentSession) -> int:
    slot = session.state.get("in_memory")
    messages = slot.get("messages") if isinstance(slot, dict) else None
    return len(messages) if isinstance(messages, list) else 0


async def continue_conversation(agent: Agent, session: AgentSession, message: str) -> str:
    """Run one more turn of ``session`` and return the reply text."""
    response = await agent.run(message, session=session)
    return response.text


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m lesson_utils.resume",
        description="Load a saved agent session, send one message, print the reply.",
    )
    parser.add_argument("session_file", nargs="?", help="a JSON file written by save_session")
    parser.add_argument("message", help="what the user says next")
    parser.add_argument("--sqlite", metavar="DB", help="load from this SQLite file instead of a JSON file")
    parser.add_argument("--conversation-id", metavar="ID", help="the row to load with --sqlite")
    parser.add_argument("--instructions", default=DEFAULT_INSTRUCTIONS, help="the agent's instructions")
    parser.add_argument("--no-user-memory", action="store_true", help="build the agent without UserMemoryProvider")
    parser.add_argument("--no-save", action="store_true", help="do not write the continued session back")
    args = parser.parse_args(argv)
    if args.sqlite:
        if args.session_file is not None:
            parser.error("give either SESSION_FILE or --sqlite DB --conversation-id ID, not both")
        if not args.conversation_id:
            parser.error("--sqlite needs --conversation-id")
    elif args.session_file is None:
        parser.error("give a SESSION_FILE, or --sqlite DB --conversation-id ID")
    return args


async def _run(args: argparse.Namespace) -> str:
    store = SqliteSessionStore(args.sqlite) if args.sqlite else None
    session = store.load(args.conversation_id) if store is not None else load_session(args.session_file)
    agent = make_lesson_agent(instructions=args.instructions, user_memory=not args.no_user_memory)
    before = _history_length(session)
    reply = await continue_conversation(agent, session, args.message)
    print(
        f"lesson_utils.resume: process {os.getpid()} continued session {session.session_id} "
        f"({before} -> {_history_length(session)} messages in its history)",
        file=sys.stderr,
    )
    if not args.no_save:
        if store is not None:
            store.save(args.conversation_id, session)
        else:
            save_session(session, Path(args.session_file))
    return reply


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the process exit code."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")  # replies may hold emoji; Windows pipes default to cp1252
    args = _parse_args(argv)
    try:
        reply = asyncio.run(_run(args))
    except (SessionFormatError, SessionNotFoundError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())

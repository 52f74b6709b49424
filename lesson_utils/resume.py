"""Lesson 05: continue a saved conversation in another process.

The agent is stateless, so a different process only needs to build an equivalent agent and
load the session's JSON; the conversation carries on as if nothing happened. What that takes is
:func:`resume`, about ten lines written the framework's way (``json.load`` →
``AgentSession.from_dict`` → ``agent.run`` → ``json.dump(session.to_dict())``), and it is what
the lesson shows. :func:`resume_strict` is the same turn with the package's hardening
(:mod:`lesson_utils.persistence`: strict reading with :class:`SessionFormatError`, atomic writes).
Everything else here — argument parsing, error lines, the SQLite row — is the command line
around them. It reads the file strictly once before the turn, to report the history's length and
to fail with one clear line before any model call::

    python -m lesson_utils.resume SESSION.json "What is my name?"
    python -m lesson_utils.resume --strict SESSION.json "What is my name?"
    python -m lesson_utils.resume --sqlite sessions.db --conversation-id c-42 "Tell it again"

It prints the agent's reply on stdout, a line naming its own process id on stderr, and, unless
``--no-save``, writes the continued session back to where it came from.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent_framework import Agent, AgentSession

from .persistence import SessionFormatError, SessionNotFoundError, SqliteSessionStore, load_session, save_session
from .user_memory import UserMemoryProvider

__all__ = [
    "CHILD_PROCESS_TIMEOUT_S",
    "INSTRUCTIONS",
    "child_env",
    "make_lesson_agent",
    "main",
    "resume",
    "resume_strict",
]

logger = logging.getLogger(__name__)

INSTRUCTIONS = "You are a friendly assistant who is good at telling jokes."

# How long a lesson waits for `python -m lesson_utils.resume` as a whole. The child's model call
# follows the same timeout and output cap as every other call in the course, because it builds its
# client with get_chat_client(); this only bounds the process (start-up plus one turn), and is kept
# well above the model timeout so a slow model is reported by the child's own one-line error
# instead of the child being killed.
CHILD_PROCESS_TIMEOUT_S = 300


def make_lesson_agent(*, client: Any | None = None, user_memory: bool = True) -> Agent:
    """The agent lessons 04–06 talk to: the active chat client plus the user-memory provider."""
    if client is None:
        from chat_models import get_chat_client

        client = get_chat_client()  # one timeout and output-cap policy for every process
    providers = [UserMemoryProvider()] if user_memory else []
    return Agent(client=client, instructions=INSTRUCTIONS, context_providers=providers)


async def resume(path: str | os.PathLike[str], message: str, *, agent: Agent | None = None) -> str:
    """The other process, in full: build the same agent, load the file, run one turn, save it back."""
    agent = agent or make_lesson_agent()
    with open(path, encoding="utf-8") as f:
        session = AgentSession.from_dict(json.load(f))  # the conversation as the first process left it
    response = await agent.run(message, session=session)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f, ensure_ascii=False)  # ... and as this process leaves it
    return response.text


async def resume_strict(path: str | os.PathLike[str], message: str, *, agent: Agent | None = None) -> str:
    """:func:`resume` with the hardening: strict reading (SessionFormatError) and an atomic write."""
    agent = agent or make_lesson_agent()
    session = load_session(path)  # refuses a truncated or wrong-shaped file, naming the problem
    response = await agent.run(message, session=session)
    save_session(session, path)  # a temporary file replaces the old one in one step
    return response.text


# --------------------------------------------------------------------------- the command line


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


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m lesson_utils.resume",
        description="Load a saved agent session, send one message, print the reply.",
    )
    parser.add_argument("session_file", nargs="?", help="a JSON file holding session.to_dict()")
    parser.add_argument("message", help="what the user says next")
    parser.add_argument("--strict", action="store_true", help="read strictly and write atomically (resume_strict)")
    parser.add_argument("--sqlite", metavar="DB", help="load from this SQLite file instead of a JSON file")
    parser.add_argument("--conversation-id", metavar="ID", help="the row to load with --sqlite")
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


def _describe(session: AgentSession) -> tuple[str, int]:
    slot = session.state.get("in_memory")
    messages = slot.get("messages") if isinstance(slot, dict) else None
    return session.session_id, len(messages) if isinstance(messages, list) else 0


async def _run(args: argparse.Namespace) -> str:
    agent = make_lesson_agent(user_memory=not args.no_user_memory)
    if args.sqlite:  # a database row: always strict, the row is only replaced whole
        store = SqliteSessionStore(args.sqlite)
        session = store.load(args.conversation_id)
        session_id, before = _describe(session)
        reply = (await agent.run(args.message, session=session)).text
        if not args.no_save:
            store.save(args.conversation_id, session)
        after = _describe(session)[1]
    else:
        path = Path(args.session_file)
        session_id, before = _describe(load_session(path))  # fails clearly before any model call
        if args.no_save:
            session = load_session(path)
            reply = (await agent.run(args.message, session=session)).text
            after = _describe(session)[1]
        else:
            reply = await (resume_strict if args.strict else resume)(path, args.message, agent=agent)
            after = _describe(load_session(path))[1]
    print(
        f"lesson_utils.resume: process {os.getpid()} continued session {session_id} "
        f"({before} -> {after} messages in its history)",
        file=sys.stderr,
    )
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

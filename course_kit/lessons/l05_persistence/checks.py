"""Lesson 05's checks: what a saved session holds, and whether another process continued it.

A session's history lives in its history provider's slot (``"in_memory"`` unless the agent has
another history provider). These helpers read it from a live session, a JSON file or a store row
alike, so a check cell can say "the file continues this conversation with this turn" in one line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from agent_framework import AgentSession

HISTORY = "in_memory"


def json_on_disk(path: str | os.PathLike[str]) -> Any:
    """The JSON value in the file at ``path``."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _session(source: AgentSession | str | os.PathLike[str]) -> AgentSession:
    return source if isinstance(source, AgentSession) else AgentSession.from_dict(json_on_disk(source))


def history_texts(source: AgentSession | str | os.PathLike[str], source_id: str = HISTORY) -> list[str]:
    """The texts of the messages a session (or a session's JSON file) keeps in its history slot."""
    slot = _session(source).state.get(source_id) or {}
    return [message.text for message in slot.get("messages", [])]


def continues(later: AgentSession | str | os.PathLike[str], earlier: AgentSession | str | os.PathLike[str],
              new_turn: list[str]) -> bool:
    """Whether ``later`` is ``earlier``'s conversation (same id, same history) followed by ``new_turn`` only."""
    after, before = _session(later), _session(earlier)
    return after.session_id == before.session_id and history_texts(after) == [*history_texts(before), *new_turn]


def ran_in_another_process(done: Any) -> bool:
    """Whether a ``lesson_utils.resume`` child exited cleanly and named a process id other than this one."""
    return (done.returncode == 0 and "lesson_utils.resume: process " in done.stderr
            and f"process {os.getpid()} " not in done.stderr)


def set_aside(folder: str | os.PathLike[str]) -> list[str]:
    """The files ``FileSessionStore`` moved aside as corrupt in ``folder`` (``.<name>.<random>.corrupt``)."""
    return sorted(p.name for p in Path(folder).iterdir() if p.name.endswith(".corrupt"))


def retells(reply: str, joke: str) -> bool:
    """Whether ``reply`` repeats the punchline of ``joke`` (its last line, after the set-up's question)."""
    punchline = joke.split("?")[-1].strip(" !.\n").lower()
    return bool(punchline) and punchline in reply.lower()

"""Lesson 05's check helpers: each fails where its claim is false."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from agent_framework import AgentSession, Message

from course_kit.lessons.l05_persistence.checks import (
    continues,
    retells,
    history_texts,
    json_on_disk,
    ran_in_another_process,
    set_aside,
)


def _session(session_id: str, *texts: str) -> AgentSession:
    session = AgentSession(session_id=session_id)
    messages = [Message(role="user" if i % 2 == 0 else "assistant", contents=[t]) for i, t in enumerate(texts)]
    session.state["in_memory"] = {"messages": messages}
    return session


def test_history_texts_read_a_session_and_its_file_alike(tmp_path: Path) -> None:
    session = _session("s-1", "Hi", "Hello!")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(session.to_dict()), encoding="utf-8")
    assert history_texts(session) == history_texts(path) == ["Hi", "Hello!"]
    assert json_on_disk(path) == session.to_dict()
    assert history_texts(AgentSession()) == []


def test_continues_only_the_same_conversation_with_exactly_the_new_turn() -> None:
    before = _session("s-1", "Hi", "Hello!")
    after = _session("s-1", "Hi", "Hello!", "Again", "Sure.")
    assert continues(after, before, ["Again", "Sure."])
    assert not continues(after, before, ["Again"])  # a turn missing
    assert not continues(_session("s-2", "Hi", "Hello!", "Again", "Sure."), before, ["Again", "Sure."])  # another id
    assert not continues(_session("s-1", "Again", "Sure."), before, ["Again", "Sure."])  # the old history lost


def test_ran_in_another_process_needs_a_clean_exit_and_another_pid() -> None:
    def done(code: int, pid: int) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess([], code, "reply", f"lesson_utils.resume: process {pid} continued session s")

    assert ran_in_another_process(done(0, os.getpid() + 1))
    assert not ran_in_another_process(done(0, os.getpid()))
    assert not ran_in_another_process(done(1, os.getpid() + 1))


def test_set_aside_lists_only_the_corrupt_files(tmp_path: Path) -> None:
    (tmp_path / "priya.json").write_text("{}", encoding="utf-8")
    assert set_aside(tmp_path) == []
    (tmp_path / ".priya.json.ab12.corrupt").write_text("{", encoding="utf-8")
    assert set_aside(tmp_path) == [".priya.json.ab12.corrupt"]


def test_retells_needs_the_jokes_punchline() -> None:
    joke = "Why did the pirate go to school? To improve his arrrticulation!"
    assert retells("🦜 Squawk! To improve his arrrticulation! 🏴‍☠️", joke)
    assert not retells("🦜 Squawk! Why did the pirate go to school?", joke)  # the set-up only
    assert not retells("anything", "?")  # a joke with no punchline proves nothing

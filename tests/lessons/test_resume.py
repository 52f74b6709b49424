"""Continuing a saved conversation in a genuinely separate Python process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from agent_framework import AgentSession

from lesson_utils import SessionFormatError, SqliteSessionStore, load_session, save_session
from lesson_utils.resume import CHILD_PROCESS_TIMEOUT_S, child_env, main, make_lesson_agent, resume, resume_strict


def run_resume(*args: str | os.PathLike[str]) -> subprocess.CompletedProcess[str]:
    env = dict(child_env(), LESSON_MODEL="offline")
    return subprocess.run(
        [sys.executable, "-m", "lesson_utils.resume", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=tempfile.gettempdir(),  # not the repo: child_env() alone must make lesson_utils importable
        timeout=CHILD_PROCESS_TIMEOUT_S,
    )


async def first_turn(text: str) -> AgentSession:
    agent = make_lesson_agent()
    session = agent.create_session()
    await agent.run(text, session=session)
    return session


def texts(session: AgentSession) -> list[str]:
    return [m.text for m in session.state["in_memory"]["messages"]]


async def test_a_new_process_continues_a_session_saved_to_a_file(tmp_path: Path) -> None:
    session = await first_turn("Hi! My name is Ingrid and I am 38 years old.")
    path = save_session(session, tmp_path / "chat.json")

    done = run_resume(path, "What is my name and age?")

    assert done.returncode == 0, done.stderr
    assert "Ingrid" in done.stdout and "38" in done.stdout
    continued = load_session(path)  # the other process wrote the continued session back
    assert continued.session_id == session.session_id
    assert texts(continued)[:2] == texts(session)
    assert texts(continued)[2] == "What is my name and age?"
    assert texts(continued)[3] == done.stdout.strip()
    assert continued.state["user_memory"] == {"name": "Ingrid", "age": 38}
    child_pid = int(re.search(r"process (\d+) continued session", done.stderr).group(1))
    assert child_pid != os.getpid()
    assert f"session {session.session_id} (2 -> 4 messages" in done.stderr


async def test_the_other_process_really_needs_the_saved_history(tmp_path: Path) -> None:
    """Control: the same question on an empty session is not answered, so the file did the work."""
    path = save_session(AgentSession(), tmp_path / "empty.json")
    done = run_resume(path, "What is my name and age?", "--no-user-memory")
    assert done.returncode == 0, done.stderr
    assert "Ingrid" not in done.stdout
    assert "don't know" in done.stdout.lower()


async def test_a_new_process_continues_from_a_sqlite_row(tmp_path: Path) -> None:
    session = await first_turn("I'm Ngozi.")
    store = SqliteSessionStore(tmp_path / "sessions.db")
    store.save("conv-7", session)

    done = run_resume("--sqlite", store.path, "--conversation-id", "conv-7", "What's my name?")

    assert done.returncode == 0, done.stderr
    assert "Ngozi" in done.stdout
    assert texts(store.load("conv-7"))[-2:] == ["What's my name?", done.stdout.strip()]


def test_no_save_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = save_session(AgentSession(), tmp_path / "s.json")
    before = path.read_bytes()
    done = run_resume(path, "Hello", "--no-save")
    assert done.returncode == 0, done.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize("strict", [False, True], ids=["framework-way", "strict"])
def test_a_corrupt_file_is_a_clear_error_and_exit_code_2(tmp_path: Path, strict: bool) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{ not json", encoding="utf-8")
    done = run_resume(path, "Hello", *(["--strict"] if strict else []))
    assert done.returncode == 2
    assert "bad.json" in done.stderr and "not a saved agent session" in done.stderr
    assert "Traceback" not in done.stderr
    assert path.read_text(encoding="utf-8") == "{ not json"


def test_missing_inputs_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope.json"), "Hello"]) == 2
    assert "nope.json" in capsys.readouterr().err
    SqliteSessionStore(tmp_path / "s.db")
    assert main(["--sqlite", str(tmp_path / "s.db"), "--conversation-id", "ghost", "Hello"]) == 2
    assert "no session stored for conversation 'ghost'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [["Hello"], ["--sqlite", "x.db", "Hello"], ["file.json", "--sqlite", "x.db", "--conversation-id", "c", "Hello"]],
)
def test_bad_command_lines_are_usage_errors(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2


# ----------------------------------------------------------------- the two functions the lesson shows


def write_plain_json(session: AgentSession, path: Path) -> None:
    """What the lesson's first cells do: json.dump of to_dict, no package helper."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(session.to_dict(), f)


async def test_resume_continues_a_file_written_with_plain_json_dump(tmp_path: Path) -> None:
    session = await first_turn("Hi! My name is Tomás and I am 44 years old.")
    path = tmp_path / "plain.json"
    write_plain_json(session, path)

    reply = await resume(path, "What is my name and age?")

    assert "Tomás" in reply and "44" in reply
    with open(path, encoding="utf-8") as f:
        data = json.load(f)  # written back as plain JSON, readable by from_dict
    continued = AgentSession.from_dict(data)
    assert continued.session_id == session.session_id
    assert texts(continued)[2:] == ["What is my name and age?", reply]
    assert continued.state["user_memory"] == {"name": "Tomás", "age": 44}


async def test_a_child_process_resumes_a_plain_json_dump_file(tmp_path: Path) -> None:
    session = await first_turn("I'm Ngozi and I'm 29.")
    path = tmp_path / "plain.json"
    write_plain_json(session, path)
    done = run_resume(path, "How old am I?")
    assert done.returncode == 0, done.stderr
    assert "29" in done.stdout
    assert "(2 -> 4 messages" in done.stderr


async def test_bare_resume_has_no_guard_against_a_truncated_file_but_strict_names_it(tmp_path: Path) -> None:
    """Why the lesson hardens: json.load's error does not say which file, and nothing checks the shape."""
    session = await first_turn("I'm Ingrid.")
    path = tmp_path / "cut.json"
    write_plain_json(session, path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")

    with pytest.raises(json.JSONDecodeError) as bare:
        await resume(path, "Hello")
    assert "cut.json" not in str(bare.value)

    with pytest.raises(SessionFormatError, match=r"cut\.json' is not a saved agent session: .*not valid JSON"):
        await resume_strict(path, "Hello")
    assert path.read_text(encoding="utf-8") == text[: len(text) // 2]  # nothing overwritten


async def test_resume_strict_writes_through_save_session(tmp_path: Path) -> None:
    session = await first_turn("I'm Ingrid and I'm 38.")
    path = save_session(session, tmp_path / "s.json")
    reply = await resume_strict(path, "What's my name?")
    assert "Ingrid" in reply
    assert texts(load_session(path))[-1] == reply
    assert not list(tmp_path.glob(".s.json.*.tmp"))  # the atomic write left no temporary file

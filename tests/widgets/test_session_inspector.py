"""The session inspector: state by source_id, refresh, save as JSON."""

from __future__ import annotations

import json
from pathlib import Path

from agent_framework import AgentSession, Message

from course_kit.widgets import SessionInspector, summarize_state


def make_session() -> AgentSession:
    session = AgentSession(session_id="s-1")
    session.state["in_memory"] = {
        "messages": [Message(role="user", contents=["I'm Alex"]), Message(role="assistant", contents=["Hi Alex"])]
    }
    session.state["user_memory"] = {"name": "Alex", "age": 31}
    session.state["cortadel"] = {"injected_memory_ids": ["m-1", "m-2"]}
    return session


def test_state_is_shown_per_source_id_with_messages_as_text() -> None:
    inspector = SessionInspector(make_session())
    assert inspector.summary() == {
        "in_memory": {"messages": ["user: I'm Alex", "assistant: Hi Alex"]},
        "user_memory": {"name": "Alex", "age": 31},
        "cortadel": {"injected_memory_ids": ["m-1", "m-2"]},
    }
    body = inspector.body.value
    for needle in ("in_memory", "user_memory", "cortadel", "injected_memory_ids", "m-2", "Hi Alex"):
        assert needle in body
    assert "3 provider slot(s)" in inspector.header.value and "s-1" in inspector.header.value


def test_refresh_picks_up_changes_and_an_empty_session_says_so() -> None:
    session = AgentSession()
    inspector = SessionInspector(session)
    assert "empty" in inspector.body.value
    session.state["user_memory"] = {"name": "Sam"}
    assert "Sam" not in inspector.body.value
    inspector.refresh()
    assert "Sam" in inspector.body.value


def test_save_writes_json_the_framework_can_restore(tmp_path: Path) -> None:
    session = make_session()
    inspector = SessionInspector(session, path=tmp_path / "saved" / "session.json")
    inspector.save_button.click()
    target = tmp_path / "saved" / "session.json"
    assert target.is_file() and "Saved to" in inspector.status.value

    with open(target, encoding="utf-8") as f:
        data = json.load(f)
    restored = AgentSession.from_dict(data)
    assert restored.session_id == "s-1"
    assert summarize_state(restored) == summarize_state(session)


def test_a_failed_save_is_reported_and_raises_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    inspector = SessionInspector(make_session())
    assert inspector.save(blocker / "session.json") is None
    assert "Could not save" in inspector.status.value
    assert blocker.read_text(encoding="utf-8") == "not a folder"

"""The session-state diff behind "what was stored" in the chat widget."""

from __future__ import annotations

from agent_framework import AgentSession, Message

from course_kit.widgets.activity import PROBE_SOURCE_ID, ProviderActivity, diff_state, snapshot_state


def test_diff_reports_new_changed_removed_and_appended_values() -> None:
    before = {
        "user_memory": {"name": "Alex", "age": None, "mood": "ok"},
        "cortadel": {"injected_memory_ids": ["m1"]},
        "gone": {"x": 1},
        "same": {"k": [1, 2]},
    }
    after = {
        "user_memory": {"name": "Alex", "age": 31},
        "cortadel": {"injected_memory_ids": ["m1", "m2", "m3"]},
        "same": {"k": [1, 2]},
        "fresh": {"facts": ["likes tea"]},
    }
    assert diff_state(before, after) == {
        "user_memory": ["age: null → 31", "mood: removed"],
        "cortadel": ['injected_memory_ids: +["m2", "m3"]'],
        "fresh": ['facts: +["likes tea"]'],
        "gone": ["state: removed"],
    }


def test_diff_of_equal_states_is_empty() -> None:
    state = {"a": {"b": [1]}}
    assert diff_state(state, {"a": {"b": [1]}}) == {}


def test_snapshot_is_a_json_copy_without_probe_slots() -> None:
    session = AgentSession()
    session.state["in_memory"] = {"messages": [Message(role="user", contents=["hi"])]}
    session.state[f"{PROBE_SOURCE_ID}:0"] = {}
    snap = snapshot_state(session)
    assert list(snap) == ["in_memory"]
    session.state["in_memory"]["messages"].append(Message(role="assistant", contents=["hello"]))
    assert len(snap["in_memory"]["messages"]) == 1, "a snapshot must not change with the session"
    after = snapshot_state(session)
    assert diff_state(snap, after) == {"in_memory": ["messages: +1 (assistant: hello)"]}


def test_an_activity_lists_each_thing_once() -> None:
    activity = ProviderActivity(
        "cortadel", instructions=["Be kind."], context_messages=["Memories:\n- likes tea"], tools=["search_memory"]
    )
    assert activity.lines() == [
        "added instructions: Be kind.",
        "injected context: Memories:\n- likes tea",
        "offered tools: search_memory",
    ]
    assert ProviderActivity("x").is_empty and not activity.is_empty

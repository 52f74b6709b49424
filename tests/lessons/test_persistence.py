"""Sessions as JSON text, files and SQLite rows; malformed input fails clearly and loses nothing."""

from __future__ import annotations

import json
import logging
import os
import warnings
from pathlib import Path

import pytest
from agent_framework import Agent, AgentSession, Message

from lesson_utils import (
    SessionFormatError,
    SqliteSessionStore,
    UserMemoryProvider,
    load_session,
    save_session,
    session_from_json,
    session_to_json,
)
from lesson_utils.persistence import SessionNotFoundError

from ..fakes import FakeChatClient


async def chatted_session(client: FakeChatClient) -> tuple[Agent, AgentSession]:
    agent = Agent(client=client, instructions="Be brief.", context_providers=[UserMemoryProvider()])
    session = agent.create_session()
    await agent.run("Hi, I'm Zoë and I'm 31. Tell me a joke about a pirate. 🏴‍☠️", session=session)
    return agent, session


def history_texts(session: AgentSession) -> list[str]:
    return [m.text for m in session.state["in_memory"]["messages"]]


# ------------------------------------------------------------------ JSON text


async def test_json_round_trip_keeps_id_provider_state_and_history(recorder: FakeChatClient) -> None:
    _, session = await chatted_session(recorder)
    text = session_to_json(session)
    restored = session_from_json(text)
    assert restored is not session
    assert restored.session_id == session.session_id
    assert restored.state["user_memory"] == {"name": "Zoë", "age": 31}
    assert all(isinstance(m, Message) for m in restored.state["in_memory"]["messages"])
    assert history_texts(restored) == history_texts(session)
    assert session_to_json(restored) == text  # stable: the same bytes again
    assert "Zoë" in text and "🏴‍☠️" in text  # readable, not \u-escaped


async def test_bytes_are_accepted_too(recorder: FakeChatClient) -> None:
    _, session = await chatted_session(recorder)
    assert session_from_json(session_to_json(session).encode("utf-8")).session_id == session.session_id


async def test_a_restored_session_continues_the_conversation(recorder: FakeChatClient) -> None:
    agent, session = await chatted_session(recorder)
    restored = session_from_json(session_to_json(session))
    await agent.run("Tell it again", session=restored)
    sent = [m.text for m in recorder.last.messages]
    assert sent[0].startswith("Hi, I'm Zoë")  # turn 1 was replayed from the restored history
    assert sent[-1] == "Tell it again"
    assert "The user's name is Zoë." in recorder.last.instructions


def test_a_state_value_that_is_not_json_is_refused_naming_where_it_is() -> None:
    session = AgentSession()
    session.state["user_memory"] = {"tags": {"a", "b"}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the framework's own to_dict() warning
        with pytest.raises(TypeError, match=r"session\.state\['user_memory'\]\['tags'\] holds a set"):
            session_to_json(session)


def test_non_finite_numbers_are_refused() -> None:
    session = AgentSession()
    session.state["stats"] = {"score": float("nan")}
    with pytest.raises(TypeError, match="JSON cannot represent"):
        session_to_json(session)


def test_only_sessions_are_serialised() -> None:
    with pytest.raises(TypeError, match="expected an AgentSession"):
        session_to_json({"session_id": "x"})  # type: ignore[arg-type]


# ------------------------------------------------------------------ malformed input

GOOD = {"type": "session", "session_id": "s-1", "service_session_id": None, "state": {"user_memory": {"name": "Al"}}}


def variant(**changes: object) -> str:
    data = dict(GOOD)
    for key, value in changes.items():
        if value is KeyError:
            data.pop(key)
        else:
            data[key] = value
    return json.dumps(data)


MALFORMED = [
    ("", "it is empty"),
    ("   \n", "it is empty"),
    ('{"type": "session", "session_id": "s-1", "state": {', "not valid JSON"),
    ("not json at all", "not valid JSON"),
    ('{"type": "session", "session_id": "s", "state": {"x": NaN}}', "not valid JSON"),
    ("[1, 2, 3]", "top level must be a JSON object, not an array"),
    ('"a session"', "top level must be a JSON object, not a string"),
    ("null", "top level must be a JSON object, not null"),
    (variant(type=KeyError), '"type" must be "session" (found missing)'),
    (variant(type="thread"), "\"type\" must be \"session\" (found 'thread')"),
    (variant(session_id=KeyError), '"session_id" must be a non-empty string (found missing)'),
    (variant(session_id=""), '"session_id" must be a non-empty string'),
    (variant(session_id=42), '"session_id" must be a non-empty string (found a number)'),
    (variant(service_session_id=7), '"service_session_id" must be a string, an object or null'),
    (variant(state=KeyError), '"state" is missing'),
    (variant(state=[]), '"state" must be an object, not an array'),
    (variant(state="x"), '"state" must be an object, not a string'),
    (variant(version="2.0"), "unsupported \"version\" '2.0'"),
    (variant(state={"in_memory": {"messages": "hello"}}), "state['in_memory']['messages'] must be a list"),
    (variant(state={"in_memory": {"messages": ["hello"]}}), "state['in_memory']['messages'][0] is not a saved message"),
    (
        variant(state={"in_memory": {"messages": [{"type": "message", "role": "user", "contents": 5}]}}),
        "its state could not be restored",
    ),
]


@pytest.mark.parametrize(("text", "problem"), MALFORMED, ids=[p for _, p in MALFORMED])
def test_malformed_json_raises_a_clear_session_format_error(text: str, problem: str) -> None:
    with pytest.raises(SessionFormatError) as info:
        session_from_json(text, source="the test input")
    message = str(info.value)
    assert message.startswith("the test input is not a saved agent session: ")
    assert problem in message
    assert info.value.source == "the test input"
    assert isinstance(info.value, ValueError)


def test_invalid_utf8_bytes_are_a_format_error() -> None:
    with pytest.raises(SessionFormatError, match="not UTF-8 text"):
        session_from_json(b'{"type": "session", "session_id": "\xff"}')


def test_a_byte_order_mark_from_a_windows_editor_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + variant().encode("utf-8"))
    assert load_session(path).session_id == "s-1"
    assert session_from_json("\ufeff" + variant()).session_id == "s-1"


def test_unknown_fields_are_ignored_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="lesson_utils.persistence"):
        session = session_from_json(variant(extra="x"), source="the test input")
    assert session.session_id == "s-1"
    assert "the test input: ignoring unknown session fields ['extra']" in caplog.text


def test_a_good_variant_without_optional_fields_loads() -> None:
    session = session_from_json(variant(service_session_id=KeyError))
    assert session.session_id == "s-1" and session.service_session_id is None
    assert session.state == {"user_memory": {"name": "Al"}}


# ------------------------------------------------------------------ files


async def test_file_round_trip(recorder: FakeChatClient, tmp_path: Path) -> None:
    _, session = await chatted_session(recorder)
    path = save_session(session, tmp_path / "session.json")
    assert path == tmp_path / "session.json"
    assert path.read_text(encoding="utf-8") == session_to_json(session)
    restored = load_session(path)
    assert restored.session_id == session.session_id
    assert restored.state["user_memory"] == {"name": "Zoë", "age": 31}
    assert history_texts(restored) == history_texts(session)
    assert load_session(str(path)).session_id == session.session_id  # str paths work too


def test_save_replaces_the_file_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    first, second = AgentSession(session_id="first"), AgentSession(session_id="second")
    save_session(first, path)
    save_session(second, path)
    assert load_session(path).session_id == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_a_failed_save_keeps_the_previous_file_intact(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    save_session(AgentSession(session_id="good"), path)
    before = path.read_bytes()
    bad = AgentSession(session_id="bad")
    bad.state["x"] = {"when": object()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(TypeError):
            save_session(bad, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.json"
    save_session(AgentSession(session_id="old"), path)
    before = path.read_bytes()

    def crash(*args: object) -> None:
        raise OSError("disk pulled out")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk pulled out"):
        save_session(AgentSession(session_id="new"), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_a_corrupt_file_names_the_file_and_is_left_where_it_was(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"type": "session", "session_id": ', encoding="utf-8")
    with pytest.raises(SessionFormatError, match=r"broken\.json.* is not a saved agent session: it is not valid JSON"):
        load_session(path)
    assert path.read_text(encoding="utf-8") == '{"type": "session", "session_id": '  # nothing moved or lost


def test_a_missing_file_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_session(tmp_path / "nope.json")


async def test_the_framework_file_session_store_reads_our_files(recorder: FakeChatClient, tmp_path: Path) -> None:
    from agent_framework import FileSessionStore

    _, session = await chatted_session(recorder)
    save_session(session, tmp_path / "conv-1.json")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FileSessionStore is experimental in 1.23
        restored = await FileSessionStore(tmp_path).get("conv-1")
    assert restored is not None
    assert restored.state["user_memory"] == {"name": "Zoë", "age": 31}
    assert history_texts(restored) == history_texts(session)


# ------------------------------------------------------------------ SQLite rows


async def test_sqlite_round_trip_stores_the_same_bytes_as_the_file(recorder: FakeChatClient, tmp_path: Path) -> None:
    _, session = await chatted_session(recorder)
    file_text = save_session(session, tmp_path / "s.json").read_text(encoding="utf-8")
    store = SqliteSessionStore(tmp_path / "sessions.db")
    store.save("conv-42", session)
    assert store.load_json("conv-42") == file_text
    restored = store.load("conv-42")
    assert restored.session_id == session.session_id
    assert restored.state["user_memory"] == {"name": "Zoë", "age": 31}
    assert history_texts(restored) == history_texts(session)


def test_sqlite_rows_are_keyed_by_conversation_id_and_survive_a_new_store_object(tmp_path: Path) -> None:
    db = tmp_path / "sessions.db"
    store = SqliteSessionStore(db)
    for cid in ("a", "b", "c"):
        session = AgentSession(session_id=f"session-{cid}")
        session.state["user_memory"] = {"name": cid.upper() + "l"}
        store.save(cid, session)
    store.save("b", AgentSession(session_id="session-b2"))  # replace, not duplicate
    reopened = SqliteSessionStore(db)
    assert sorted(reopened.list()) == ["a", "b", "c"]
    assert "a" in reopened and "zz" not in reopened
    assert reopened.load("a").state["user_memory"] == {"name": "Al"}
    assert reopened.load("b").session_id == "session-b2"
    assert reopened.delete("a") is True
    assert reopened.delete("a") is False
    assert sorted(reopened.list()) == ["b", "c"]


def test_sqlite_missing_conversation_is_a_lookup_error(tmp_path: Path) -> None:
    store = SqliteSessionStore(tmp_path / "sessions.db")
    with pytest.raises(SessionNotFoundError, match="no session stored for conversation 'ghost'") as info:
        store.load("ghost")
    assert isinstance(info.value, LookupError)


@pytest.mark.parametrize("bad_id", ["", None, 3])
def test_sqlite_conversation_ids_must_be_non_empty_strings(tmp_path: Path, bad_id: object) -> None:
    store = SqliteSessionStore(tmp_path / "sessions.db")
    with pytest.raises(ValueError, match="conversation_id must be a non-empty string"):
        store.save(bad_id, AgentSession())  # type: ignore[arg-type]


def test_sqlite_refuses_to_store_text_that_is_not_a_session(tmp_path: Path) -> None:
    store = SqliteSessionStore(tmp_path / "sessions.db")
    with pytest.raises(SessionFormatError, match="'conv-1'"):
        store.save_json("conv-1", "[]")
    assert store.list() == []


def test_a_corrupt_sqlite_row_names_the_row_and_stays_in_the_table(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "sessions.db"
    store = SqliteSessionStore(db)
    store.save("conv-1", AgentSession())
    with sqlite3.connect(db) as connection:
        connection.execute(f"UPDATE {store.TABLE} SET session_json = ? WHERE conversation_id = ?", ("{oops", "conv-1"))
    connection.close()
    with pytest.raises(SessionFormatError, match=r"row 'conv-1' of agent_sessions in .*sessions\.db.*not valid JSON"):
        store.load("conv-1")
    assert store.load_json("conv-1") == "{oops"  # still there to inspect or repair


def test_a_failed_sqlite_save_keeps_the_previous_row(tmp_path: Path) -> None:
    store = SqliteSessionStore(tmp_path / "sessions.db")
    store.save("conv-1", AgentSession(session_id="good"))
    bad = AgentSession(session_id="bad")
    bad.state["x"] = float("inf")
    with pytest.raises(TypeError):
        store.save("conv-1", bad)
    assert store.load("conv-1").session_id == "good"


# ------------------------------------------------------------------ forks


async def test_a_forked_session_diverges_independently(recorder: FakeChatClient) -> None:
    agent, original = await chatted_session(recorder)
    fork = session_from_json(session_to_json(original))
    await agent.run("Actually, call me Zed. I just turned 32.", session=fork)
    await agent.run("What else?", session=original)
    assert original.state["user_memory"] == {"name": "Zoë", "age": 31}
    assert fork.state["user_memory"] == {"name": "Zed", "age": 32}
    assert history_texts(original)[:2] == history_texts(fork)[:2]  # shared past
    assert history_texts(original)[2] == "What else?"
    assert history_texts(fork)[2].startswith("Actually, call me Zed")


def test_files_are_written_as_utf8(tmp_path: Path) -> None:
    session = AgentSession(session_id="ünïcode-🦜")
    path = save_session(session, tmp_path / "u.json")
    assert "ünïcode-🦜".encode() in path.read_bytes()
    assert load_session(path).session_id == "ünïcode-🦜"
    assert os.path.getsize(path) == len(session_to_json(session).encode("utf-8"))

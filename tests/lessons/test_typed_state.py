"""Typed provider state: a registered dataclass survives to_dict → JSON → from_dict, in a new process too."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from agent_framework import Agent, AgentSession

from lesson_utils.resume import CHILD_PROCESS_TIMEOUT_S, child_env
from lesson_utils.typed_state import PROFILE_TYPE_ID, ProfileProvider, UserProfile, profile_of

from ..fakes import FakeChatClient


async def profiled_session(client: FakeChatClient) -> tuple[Agent, AgentSession]:
    agent = Agent(client=client, instructions="Be brief.", context_providers=[ProfileProvider()])
    session = agent.create_session()
    await agent.run("Hello, my name is Ana and I live in Porto.", session=session)
    return agent, session


def load_in_new_process(path: Path, *, register: bool) -> dict[str, object]:
    """from_dict in a fresh interpreter; report the type of the profile it got back."""
    code = (
        ("import lesson_utils.typed_state\n" if register else "")
        + "import json, sys\n"
        "from agent_framework import AgentSession\n"
        "with open(sys.argv[1], encoding='utf-8') as f:\n"
        "    session = AgentSession.from_dict(json.load(f))\n"
        "value = session.state['profile']['profile']\n"
        "print(json.dumps({'type': type(value).__name__,\n"
        "                  'city': getattr(value, 'city', None) or value.get('city'),\n"
        "                  'tag': value.get('type') if isinstance(value, dict) else None}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True, text=True, encoding="utf-8", env=child_env(),
        cwd=tempfile.gettempdir(), timeout=CHILD_PROCESS_TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


async def test_the_provider_keeps_a_typed_profile_in_its_slot(recorder: FakeChatClient) -> None:
    _, session = await profiled_session(recorder)
    assert session.state["profile"] == {"profile": UserProfile(name="Ana", city="Porto")}


async def test_to_dict_writes_the_codec_output_with_the_type_tag(recorder: FakeChatClient) -> None:
    _, session = await profiled_session(recorder)
    written = json.loads(json.dumps(session.to_dict()))
    assert written["state"]["profile"]["profile"] == {"name": "Ana", "city": "Porto", "type": PROFILE_TYPE_ID}


async def test_from_dict_rebuilds_the_dataclass_and_the_provider_uses_it(recorder: FakeChatClient) -> None:
    agent, session = await profiled_session(recorder)
    restored = AgentSession.from_dict(json.loads(json.dumps(session.to_dict())))
    assert isinstance(restored.state["profile"]["profile"], UserProfile)
    await agent.run("Where do I live?", session=restored)
    assert "The user lives in Porto." in recorder.last.instructions
    assert "The user's name is Ana." in recorder.last.instructions


async def test_a_new_process_that_imports_the_module_gets_the_dataclass(tmp_path: Path, recorder) -> None:
    _, session = await profiled_session(recorder)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(session.to_dict()), encoding="utf-8")
    assert load_in_new_process(path, register=True) == {"type": "UserProfile", "city": "Porto", "tag": None}


async def test_a_new_process_without_the_registration_gets_a_plain_dict(tmp_path: Path, recorder) -> None:
    _, session = await profiled_session(recorder)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(session.to_dict()), encoding="utf-8")
    assert load_in_new_process(path, register=False) == {"type": "dict", "city": "Porto", "tag": PROFILE_TYPE_ID}


def test_an_unregistered_class_comes_back_as_a_plain_dict_even_in_this_process() -> None:
    @dataclass
    class Unregistered:
        city: str

        def to_dict(self) -> dict[str, str]:
            return {"city": self.city}

    session = AgentSession()
    session.state["profile"] = {"profile": Unregistered("Lyon")}
    restored = AgentSession.from_dict(json.loads(json.dumps(session.to_dict())))
    assert restored.state["profile"]["profile"] == {"city": "Lyon"}


async def test_seeded_typed_state_reaches_the_instructions(recorder: FakeChatClient) -> None:
    agent = Agent(client=recorder, instructions="Be brief.", context_providers=[ProfileProvider()])
    session = agent.create_session()
    session.state["profile"] = {"profile": UserProfile(city="Lyon")}
    await agent.run("Where do I live?", session=session)
    assert "The user lives in Lyon." in recorder.last.instructions
    assert "name is" not in recorder.last.instructions


async def test_a_later_turn_updates_the_profile(recorder: FakeChatClient) -> None:
    agent, session = await profiled_session(recorder)
    await agent.run("Big news: I moved to Lisbon last week.", session=session)
    assert session.state["profile"]["profile"] == UserProfile(name="Ana", city="Lisbon")


def test_profile_of_converts_an_untyped_dict_and_says_how_to_fix_it(caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="lesson_utils.typed_state"):
        profile = profile_of({"profile": {"name": "Ana", "city": 7, "type": PROFILE_TYPE_ID}})
    assert profile == UserProfile(name="Ana", city=None)  # a non-string city is dropped, not trusted
    assert "import lesson_utils.typed_state before AgentSession.from_dict" in caplog.text
    assert profile_of({}) == UserProfile()

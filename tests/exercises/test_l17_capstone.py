"""17.assistant: the solution passes on every draw; the stub and plausible wrong answers fail with their hint.

Each check run starts a local memory server and replays three fresh users (about 15 s), so the
wrong answers below run on one draw each; the blind wrong answers run on five (``wrong_l17.py``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import ClassVar

import pytest
from agent_framework import Agent, FileSessionStore

from lesson_utils import CortadelContextProvider
from course_kit.exercises import check

INSTRUCTIONS = "You are a helpful assistant. Use what you remember; never invent memories."


class Assistant:
    """The worked solution: one Agent and provider per user (with their key), a session file per conversation."""

    def __init__(self, chat_client, memory_url, keys, store_dir):
        self.chat_client, self.memory_url, self.keys = chat_client, memory_url, keys
        warnings.simplefilter("ignore", FutureWarning)  # FileSessionStore is experimental
        self.sessions = FileSessionStore(Path(store_dir))
        self.agents = {}

    def agent_for(self, user):
        if user not in self.agents:
            memory = CortadelContextProvider(self.memory_url, user, api_key=self.keys[user], timeout=5)
            self.agents[user] = Agent(client=self.chat_client, instructions=INSTRUCTIONS, context_providers=[memory])
        return self.agents[user]

    async def reply(self, user, conversation, text):
        agent = self.agent_for(user)
        key = f"{user}--{conversation}"
        session = await self.sessions.get(key) or agent.create_session()
        response = await agent.run(text, session=session)
        await self.sessions.set(key, session)
        return response.text

    async def aclose(self):
        for agent in self.agents.values():
            for provider in agent.context_providers:
                if isinstance(provider, CortadelContextProvider):  # the framework adds a history provider too
                    await provider.aclose()


class Stub:
    def __init__(self, chat_client, memory_url, keys, store_dir):
        ...

    async def reply(self, user, conversation, text):
        raise NotImplementedError


class ClassLevelSessions(Assistant):
    """Sessions in a class attribute: they survive a 'restart' in the same process, never a real one."""

    sessions_by_key: ClassVar[dict] = {}

    async def reply(self, user, conversation, text):
        agent = self.agent_for(user)
        session = self.sessions_by_key.setdefault((user, conversation), agent.create_session())
        return (await agent.run(text, session=session)).text


# FixedFolder's own folder: one per test process (parallel workers must not remove each other's), outside the repo.
FIXED_FOLDER = Path(tempfile.gettempdir()) / f"capstone-fixed-folder-{os.getpid()}"


class FixedFolder(Assistant):
    """Ignores store_dir and writes to a folder of its own."""

    def __init__(self, chat_client, memory_url, keys, store_dir):
        super().__init__(chat_client, memory_url, keys, FIXED_FOLDER)


class NoMemory(Assistant):
    def agent_for(self, user):
        return self.agents.setdefault(user, Agent(client=self.chat_client, instructions=INSTRUCTIONS))


class OneSessionPerUser(Assistant):
    async def reply(self, user, conversation, text):
        return await super().reply(user, "all", text)


def not_a_class(chat_client, memory_url, keys, store_dir):
    return Assistant(chat_client, memory_url, keys, store_dir)


@pytest.mark.full  # slow: a trial of the assistant with a memory server
def test_the_solution_passes(capsys):
    assert check("17.assistant", Assistant) is True
    assert "\u2705 17.assistant" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("answer", "hint"),
    [
        (Stub, "fill in `Assistant.reply` first"),
        (not_a_class, "pass the class Assistant itself"),
        (ClassLevelSessions, "a new instance on an EMPTY store_dir still continued"),
        (FixedFolder, "a new instance on an EMPTY store_dir still continued"),
        (NoMemory, "nothing was stored in"),
        (OneSessionPerUser, "keep one session per (user, conversation)"),
    ],
)
@pytest.mark.full  # slow: a trial per wrong answer
def test_wrong_answers_fail_with_their_hint(answer, hint, fails_with):
    try:
        fails_with("17.assistant", answer, hint)
    finally:
        shutil.rmtree(FIXED_FOLDER, ignore_errors=True)


@pytest.mark.full  # slow: a trial per seed
def test_the_solution_passes_on_every_draw(passes_on_every_seed):
    passes_on_every_seed("17.assistant", Assistant)


@pytest.mark.full  # slow: a trial per seed
def test_wrong_answer_is_rejected_on_every_draw(wrong_answer, rejected_on_every_seed):
    exercise_id, answer, _mistake = wrong_answer
    rejected_on_every_seed(exercise_id, answer)
